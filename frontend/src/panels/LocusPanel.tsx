import { useEffect, useRef, useState } from "react";
import { api } from "../api/client";
import { ApiError } from "../api/http";
import type { LocusDetail, ResidueOut } from "../api/types.gen";
import { domainColour } from "../mindmap/palette";
import { useWander } from "../store";

/** Each score, its label and what it means (shown on hover). */
const SCORES: [keyof LocusDetail, string, string][] = [
  ["interestingness", "Interestingness", "How much the encounter that reached it gave: its distance band, domain crossing, novelty and concreteness (0-1). A third of the rank of a candidate step."],
  ["novelty_score", "Novelty", "How far it lies from everything the wander had visited before it (0-1)."],
  ["uncertainty", "Uncertainty", "How unsettled the dweller's reading of it is; the CA kernel lowers it when its text converges, raises it when it oscillates (0-1)."],
  ["actionability", "Actionability", "How concrete and usable an insight near it would be (0-1)."],
  ["abstraction_level", "Abstraction", "How abstract the concept is: 0 concrete thing, 1 pure idea."],
];

const FACETS: [keyof ResidueOut, string][] = [
  ["connection", "Connection"],
  ["tension", "Tension"],
  ["bridge", "Bridge"],
  ["surprise", "Surprise"],
  ["possibility", "Possibility"],
];

function Score({ label, value, help }: { label: string; value: number; help?: string }) {
  const v = Number.isFinite(value) ? value : 0;
  return (
    <div className="score" title={help}>
      <span className="score-label">{label}</span>
      <span className="score-bar">
        <span style={{ width: `${Math.max(0, Math.min(1, v)) * 100}%` }} />
      </span>
      <span className="score-val">{v.toFixed(2)}</span>
    </div>
  );
}

/** The clicked locus: its scores, the residue of the encounter that reached it, and its
 * connections (the path, the loci it bridges to across domains, those it contradicts). */
export function LocusPanel({ sessionId }: { sessionId: string }) {
  const selectedId = useWander((s) => s.selectedId);
  const fromEvents = useWander((s) => (s.selectedId ? s.graph.loci[s.selectedId] : undefined));
  const residueFromEvents = useWander((s) => (s.selectedId ? s.graph.arrivedBy[s.selectedId] : undefined));
  const isCurrent = useWander((s) => s.selectedId !== null && s.selectedId === s.graph.currentLocusId);
  const visits = fromEvents?.visit_count;
  const select = useWander((s) => s.select);
  const [detail, setDetail] = useState<LocusDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const panel = useRef<HTMLElement>(null);

  // Following a connection opens another locus: show it from its title, not mid-scroll.
  useEffect(() => {
    if (panel.current) panel.current.scrollTop = 0;
  }, [selectedId]);

  useEffect(() => {
    if (!selectedId) return;
    let live = true;
    setError(null);
    api
      .locus(sessionId, selectedId)
      .then((d) => live && setDetail(d))
      .catch((err) => live && setError(err instanceof ApiError ? err.message : String(err)));
    return () => {
      live = false;
    };
  }, [sessionId, selectedId, visits]);

  if (!selectedId) return null;
  const d = detail && detail.id === selectedId ? detail : null;
  const locus = d ?? fromEvents;
  if (!locus) return null;
  const residue: ResidueOut | null | undefined = d ? d.arrived_by : residueFromEvents;

  return (
    <aside className="side-panel" aria-label="Locus" data-testid="locus-panel" ref={panel}>
      <div className="panel-head">
        <h2 data-testid="locus-concept">{locus.concept}</h2>
        <button
          type="button"
          className="tool"
          aria-label="Actions"
          onClick={(e) => {
            const r = (e.currentTarget.closest(".workspace") as HTMLElement | null)?.getBoundingClientRect();
            const b = e.currentTarget.getBoundingClientRect();
            useWander.getState().openMenu({ locusId: locus.id, x: Math.max(8, b.left - (r?.left ?? 0) - 230), y: b.bottom - (r?.top ?? 0) + 4 });
          }}
        >
          Actions ▾
        </button>
        <button type="button" className="close" aria-label="Close" onClick={() => select(null)}>
          ×
        </button>
      </div>
      <div className="chips">
        {locus.domains.map((dm) => (
          <span key={dm} className="chip" style={{ ["--c" as string]: domainColour(dm) }}>
            {dm}
          </span>
        ))}
        <span className="chip plain">{locus.source_type.toLowerCase()}</span>
        {isCurrent ? <span className="chip current">current</span> : null}
      </div>
      <section>
        <h3>Scores</h3>
        {SCORES.map(([k, label, help]) => (
          <Score key={k} label={label} help={help} value={locus[k as keyof typeof locus] as number} />
        ))}
        <div className="score">
          <span className="score-label">Visits</span>
          <span className="score-val wide" data-testid="locus-visits">
            {locus.visit_count}
          </span>
        </div>
        {d?.arrived_why ? (
          <div className="score">
            <span className="score-label">Chosen as</span>
            <span className="score-val wide" data-testid="locus-why">
              {d.arrived_why}
            </span>
          </div>
        ) : null}
      </section>
      <section data-testid="residue">
        <h3>Arrived by</h3>
        {residue ? (
          <>
            <dl className="facets">
              {FACETS.map(([k, label]) => (
                <div key={k} className="facet" data-facet={k}>
                  <dt>{label}</dt>
                  <dd>{String(residue[k] ?? "")}</dd>
                </div>
              ))}
            </dl>
            {residue.themes?.length ? (
              <div className="chips themes">
                {residue.themes.map((t) => (
                  <span key={t} className="chip plain">
                    {t}
                  </span>
                ))}
              </div>
            ) : null}
            <div className="muted small">dwelt on by {residue.model_used}</div>
          </>
        ) : (
          <p className="muted">{locus.source_type === "SEED" ? "The seed: the walk starts here." : "No residue recorded yet."}</p>
        )}
      </section>
      {d && d.connections.length ? (
        <section>
          <h3>Connections</h3>
          <ul className="connections">
            {d.connections.map((c) => (
              <li key={`${c.direction}-${c.step_number}-${c.locus_id}`}>
                <span className="muted small">
                  step {c.step_number} {c.direction === "from" ? "from" : "to"}
                </span>{" "}
                <button type="button" className="linklike" onClick={() => select(c.locus_id)}>
                  {c.concept}
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {d && (d.bridges_to?.length || d.contradicts?.length) ? (
        <section data-testid="locus-links">
          {d.bridges_to?.length ? (
            <>
              <h3>Bridges to</h3>
              <ul className="connections" data-testid="locus-bridges">
                {d.bridges_to.map((b) => (
                  <li key={b.locus_id} title={b.via ?? undefined}>
                    <button type="button" className="linklike" onClick={() => select(b.locus_id)}>
                      {b.concept}
                    </button>{" "}
                    <span className="muted small">
                      {b.bridge_type}
                      {b.domains?.length === 2 ? ` (${b.domains[0]} / ${b.domains[1]})` : ""}, strength {b.strength.toFixed(2)}
                    </span>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {d.contradicts?.length ? (
            <>
              <h3>Contradicts</h3>
              <ul className="connections" data-testid="locus-contradicts">
                {d.contradicts.map((c) => (
                  <li key={c.locus_id}>
                    <button type="button" className="linklike" onClick={() => select(c.locus_id)}>
                      {c.concept}
                    </button>
                    <div className="muted small">{c.tension_description}</div>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </section>
      ) : null}
      {error ? <div className="form-error small">Details unavailable: {error}</div> : null}
    </aside>
  );
}
