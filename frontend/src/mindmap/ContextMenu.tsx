// The actions on a locus (001 "Interactions"): right click on the map, or the locus panel's
// Actions button. Each goes through commands.ts and reports on the map.
import { useEffect, useState } from "react";
import { commands } from "../api/commands";
import { useWander } from "../store";

export function LocusMenu({ sessionId }: { sessionId: string }) {
  const menu = useWander((s) => s.menu);
  const locus = useWander((s) => (s.menu ? s.graph.loci[s.menu.locusId] : undefined));
  const isCurrent = useWander((s) => s.menu?.locusId === s.graph.currentLocusId);
  const close = () => useWander.getState().openMenu(null);
  const [deeper, setDeeper] = useState(false);
  const [steps, setSteps] = useState(10);
  const [share, setShare] = useState(0.25);
  useEffect(() => setDeeper(false), [menu?.locusId]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && close();
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  if (!menu || !locus) return null;
  const act = (f: () => Promise<unknown>) => () => {
    close();
    void f();
  };
  return (
    <div className="ctx-menu" role="menu" aria-label={`Actions on ${locus.concept}`} style={{ left: menu.x, top: menu.y }} data-testid="locus-menu"
      onContextMenu={(e) => e.preventDefault()}>
      <div className="ctx-title">{locus.concept}</div>
      <button type="button" role="menuitem" disabled={isCurrent} onClick={act(() => commands.inject(sessionId, locus.concept, true))}>
        Go here next
      </button>
      <button type="button" role="menuitem" onClick={act(() => commands.fence(sessionId, locus.concept, "include"))}>
        Fence in (include this region)
      </button>
      <button type="button" role="menuitem" onClick={act(() => commands.fence(sessionId, locus.concept, "exclude"))}>
        Fence out (exclude this region)
      </button>
      {/* a crystallization is tried at the wander's current locus (the engine's rule): offered
          on that locus only, so it never seems to act on another */}
      {isCurrent ? (
        <button type="button" role="menuitem" onClick={act(() => commands.crystallize(sessionId))} title="Try to crystallize an insight around the current locus now">
          Crystallize here now
        </button>
      ) : null}
      {deeper ? (
        <form
          className="ctx-form"
          onSubmit={(e) => {
            e.preventDefault();
            act(() => commands.subwander(sessionId, locus.id, steps, share))();
          }}
        >
          <label>
            Steps <input type="number" min={1} max={10000} value={steps} onChange={(e) => setSteps(Number(e.target.value))} aria-label="Sub-wander steps" />
          </label>
          <label>
            Budget share <input type="number" min={0} max={1} step={0.05} value={share} onChange={(e) => setShare(Number(e.target.value))} aria-label="Budget share" />
          </label>
          <button type="submit" className="primary">Spawn sub-wander</button>
        </form>
      ) : (
        <button type="button" role="menuitem" onClick={() => setDeeper(true)}>
          Go deeper…
        </button>
      )}
    </div>
  );
}
