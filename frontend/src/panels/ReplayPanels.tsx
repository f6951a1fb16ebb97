// The archive view's side panels: the trace, resonances and crystals as they stood at the
// scrubbed step (all read from the fold, so they follow the timeline).
import type { GraphState } from "../store";
import type { CrystalAt, ResonanceAt } from "../archive/timeline";

export function ReplayPanels({ graph, resonances, crystals, onStep }: { graph: GraphState; resonances: ResonanceAt[]; crystals: CrystalAt[]; onStep: (n: number) => void }) {
  const name = (id: string) => graph.loci[id]?.concept ?? "?";
  return (
    <aside className="replay-panels" aria-label="At this step">
      <section data-testid="trace-panel">
        <h3>Trace ({graph.path.length} steps)</h3>
        <ol className="trace-list">
          {graph.path.map((e) => (
            <li key={e.id} className={e.step === graph.stepCount ? "is-current" : undefined}>
              <button type="button" className="linklike" onClick={() => onStep(e.step)}>
                {e.step}. {name(e.source)} → <b>{name(e.target)}</b>
              </button>
            </li>
          ))}
        </ol>
      </section>
      <section data-testid="resonances-panel">
        <h3>Resonances ({resonances.length})</h3>
        <ul>
          {resonances.slice(0, 12).map((r) => (
            <li key={r.id}>
              <span className={`badge ${r.status}`}>{r.status}</span> {r.themes.slice(0, 4).join(", ")} <span className="muted">×{r.occurrences}</span>
            </li>
          ))}
        </ul>
      </section>
      <section data-testid="crystals-panel">
        <h3>Crystals ({crystals.length})</h3>
        <ul>
          {crystals.map((c) => (
            <li key={c.id}>
              <b>{c.structural_type ?? "crystal"}</b> {c.V !== null ? `V ${c.V.toFixed(2)}` : ""} <span className="muted">{c.verdict}</span>
              <div className="small">{c.insight}</div>
            </li>
          ))}
        </ul>
      </section>
    </aside>
  );
}
