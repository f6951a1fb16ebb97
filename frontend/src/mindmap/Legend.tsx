// The key to the map's marks (edges, nodes, halos), behind a toggle.
import { useState } from "react";

const LEGEND_KEY = "wander:legend";

/** The key to the map's marks: closed until a person opens it (it stays as they leave it).
 * Open, it lets clicks through to the nodes under it (only its toggle takes them). */
export function Legend({ next }: { next: boolean }) {
  const [open, setOpenState] = useState(() => {
    try {
      return localStorage.getItem(LEGEND_KEY) === "open";
    } catch {
      return false;
    }
  });
  const setOpen = (o: boolean) => {
    setOpenState(o);
    try {
      localStorage.setItem(LEGEND_KEY, o ? "open" : "closed");
    } catch {
      /* private mode: for this page only */
    }
  };
  return (
    <div className={open ? "legend is-open" : "legend"} aria-label="legend" data-testid="legend">
      <button type="button" className="linklike small legend-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? "legend ▾" : "legend ▸"}
      </button>
      {open ? (
        <>
          <span>
            <svg width="26" height="8">
              <line x1="0" y1="4" x2="26" y2="4" stroke="#8b98b3" strokeWidth="2" />
            </svg>
            path taken
          </span>
          <span>
            <svg width="26" height="10">
              <line x1="0" y1="2.5" x2="26" y2="2.5" stroke="#8b98b3" strokeWidth="1.6" />
              <line x1="0" y1="7.5" x2="26" y2="7.5" stroke="#8b98b3" strokeWidth="1.6" />
            </svg>
            bridge (crossed domains)
          </span>
          <span>
            <svg width="26" height="10">
              <line x1="0" y1="2.5" x2="26" y2="2.5" stroke="#d4a24c" strokeWidth="1.3" strokeDasharray="5 4" />
              <line x1="0" y1="7.5" x2="26" y2="7.5" stroke="#d4a24c" strokeWidth="1.3" strokeDasharray="5 4" />
            </svg>
            bridge between loci (near, across domains)
          </span>
          <span>
            <svg width="26" height="8">
              <line x1="0" y1="4" x2="26" y2="4" stroke="#7dd3fc" strokeWidth="1.5" strokeDasharray="4 4" />
            </svg>
            {next ? "the next step's candidates (click: go here next)" : "the last step's other candidates (click: go there next)"}
          </span>
          <span>
            <svg width="26" height="10">
              <path d="M0,5 Q3.25,0 6.5,5 T13,5 T19.5,5 T26,5" stroke="#c084fc" strokeWidth="1.6" fill="none" />
            </svg>
            resonance
          </span>
          <span>
            <span className="legend-dot is-current" /> current
          </span>
          <span>
            <span className="legend-diamond" /> crystal
          </span>
          <span>
            <span className="legend-sub" /> sub-wander
          </span>
          <span>
            <span className="legend-halo is-include" /> fence in
          </span>
          <span>
            <span className="legend-halo is-exclude" /> fence out
          </span>
          <span>✦ hint</span>
          <span>
            <span className="legend-attractor" /> attractor (a direction: marked among the loci nearest it)
          </span>
        </>
      ) : null}
    </div>
  );
}
