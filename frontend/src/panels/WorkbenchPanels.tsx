// The map's side panels besides locus and crystal: fences, resonances, compare, trace.
import { useEffect, useState } from "react";
import { commands, reads } from "../api/commands";
import type { CompareOut, TraceStep } from "../api/types.gen";
import { useWander, type SidePanel } from "../store";

function Head({ title }: { title: string }) {
  return (
    <div className="panel-head">
      <h2>{title}</h2>
      <button type="button" className="close" aria-label="Close" onClick={() => useWander.getState().openPanel(null)}>
        ×
      </button>
    </div>
  );
}

export function FencesPanel({ sessionId }: { sessionId: string }) {
  const fences = useWander((s) => s.graph.fences);
  return (
    <aside className="side-panel" aria-label="Fences" data-testid="fences-panel">
      <Head title="Fences" />
      <p className="muted small">Include anchors draw the region the wander may walk; exclude anchors cut regions out of it.</p>
      {fences.length === 0 ? <p className="muted">No fence. Right-click a locus: fence in or fence out.</p> : null}
      <ul className="plain-list">
        {fences.map((f) => (
          <li key={f.concept} data-testid="fence-row">
            <span className={`legend-halo is-${f.action}`} /> <strong>{f.concept}</strong> <span className="muted small">{f.action}</span>{" "}
            <button type="button" className="linklike" onClick={() => void commands.removeFence(sessionId, f.concept)} aria-label={`Remove fence ${f.concept}`}>
              remove
            </button>
          </li>
        ))}
      </ul>
    </aside>
  );
}

export function ResonancesPanel() {
  const resonances = useWander((s) => s.graph.resonances);
  const list = Object.values(resonances).sort((a, b) => b.strength - a.strength);
  const hl = useWander.getState().setHighlight;
  return (
    <aside className="side-panel" aria-label="Resonances" data-testid="resonances-panel">
      <Head title="Resonances" />
      {list.length === 0 ? <p className="muted">No recurring theme yet.</p> : null}
      <ul className="plain-list">
        {list.map((r) => (
          <li key={r.id} data-testid="resonance-row" onMouseEnter={() => hl(r.loci)} onMouseLeave={() => hl([])}>
            <span className={`badge status-${r.status === "confirmed" ? "active" : r.status === "invalidated" ? "abandoned" : "paused"}`}>{r.status}</span>
            <strong>{r.themes.slice(0, 3).join(", ")}</strong>
            <div className="muted small">
              strength {r.strength.toFixed(2)} · {r.occurrences}× · {r.loci.length} loci
            </div>
          </li>
        ))}
      </ul>
    </aside>
  );
}

export function ComparePanel({ sessionId }: { sessionId: string }) {
  const a = useWander((s) => s.selectedId);
  const b = useWander((s) => s.compareId);
  const loci = useWander((s) => s.graph.loci);
  const [out, setOut] = useState<CompareOut | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!a || !b) return;
    let live = true;
    setOut(null);
    setError(null);
    reads
      .compare(sessionId, a, b)
      .then((r) => live && setOut(r))
      .catch((e) => live && setError(String(e instanceof Error ? e.message : e)));
    return () => {
      live = false;
    };
  }, [sessionId, a, b]);
  if (!a || !b) return null;
  return (
    <aside className="side-panel" aria-label="Compare" data-testid="compare-panel">
      <Head title="Compare" />
      <h3>
        {loci[a]?.concept} ↔ {loci[b]?.concept}
      </h3>
      {out ? (
        <dl className="facets">
          <div className="facet"><dt>Cosine distance</dt><dd data-testid="compare-distance">{out.cosine_distance.toFixed(3)}</dd></div>
          <div className="facet"><dt>Shared domains</dt><dd data-testid="compare-shared">{out.shared_domains.join(", ") || "none"}</dd></div>
          <div className="facet"><dt>Only {out.a.concept}</dt><dd data-testid="compare-only-a">{out.only_a_domains.join(", ") || "none"}</dd></div>
          <div className="facet"><dt>Only {out.b.concept}</dt><dd data-testid="compare-only-b">{out.only_b_domains.join(", ") || "none"}</dd></div>
          <div className="facet"><dt>Between them</dt><dd data-testid="compare-midpoint">{out.midpoint_concept ?? "?"}{out.midpoint_gloss ? <span className="muted">: {out.midpoint_gloss}</span> : null}</dd></div>
          <div className="facet"><dt>Path of the walk</dt><dd data-testid="compare-path">{out.path.length ? out.path.map((id) => loci[id]?.concept ?? id).join(" → ") : "the walk never linked them"}</dd></div>
        </dl>
      ) : error ? <div className="form-error small">{error}</div> : <p className="muted">Comparing…</p>}
    </aside>
  );
}

export function TracePanel({ sessionId }: { sessionId: string }) {
  const steps = useWander((s) => s.graph.stepCount);
  const [rows, setRows] = useState<TraceStep[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    reads
      .trace(sessionId)
      .then((r) => live && setRows(r))
      .catch((e) => live && setError(String(e instanceof Error ? e.message : e)));
    return () => {
      live = false;
    };
  }, [sessionId, steps]);
  const go = (id: string) => {
    useWander.getState().focusOn(id);
  };
  return (
    <aside className="side-panel" aria-label="Trace" data-testid="trace-panel">
      <Head title="Trace" />
      {error ? <div className="form-error small">{error}</div> : null}
      <table className="trace-table">
        <thead>
          <tr><th>#</th><th>from → to</th><th>strategy</th><th className="num">score</th></tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.step_number} data-testid="trace-row" onClick={() => go(r.to_locus_id)} title={r.selection_reason ?? ""}>
              <td>{r.step_number}</td>
              <td>{r.from_concept} → <strong>{r.to_concept}</strong><div className="muted small">{r.selection_reason}</div></td>
              <td className="small">{String(r.selection_scores.strategy ?? "")}</td>
              <td className="num">{typeof r.selection_scores.composite === "number" ? (r.selection_scores.composite as number).toFixed(2) : ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </aside>
  );
}

const TABS: [SidePanel, string][] = [
  ["fences", "Fences"],
  ["resonances", "Resonances"],
  ["trace", "Trace"],
];

export function PanelTabs() {
  const panel = useWander((s) => s.panel);
  const nRes = useWander((s) => Object.keys(s.graph.resonances).length);
  const nFence = useWander((s) => s.graph.fences.length);
  return (
    <div className="panel-tabs">
      {TABS.map(([k, label]) => (
        <button key={k} type="button" className={panel === k ? "tool is-on" : "tool"} onClick={() => useWander.getState().openPanel(panel === k ? null : k)}>
          {label}
          {k === "resonances" && nRes ? ` (${nRes})` : k === "fences" && nFence ? ` (${nFence})` : ""}
        </button>
      ))}
    </div>
  );
}
