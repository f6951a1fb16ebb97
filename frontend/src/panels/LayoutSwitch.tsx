import type { LayoutMode } from "../mindmap/layout/semantic";

/** "Flow" (the incremental force layout) or "Semantic (UMAP)" (the stored projection). */
export function LayoutSwitch({ mode, onChange, busy = false }: { mode: LayoutMode; onChange: (m: LayoutMode) => void; busy?: boolean }) {
  return (
    <div className="layout-switch" role="group" aria-label="Layout" data-testid="layout-switch">
      {(["flow", "semantic"] as const).map((m) => (
        <button key={m} type="button" className={mode === m ? "tool is-on" : "tool"} aria-pressed={mode === m} onClick={() => onChange(m)}>
          {m === "flow" ? "Flow" : "Semantic (UMAP)"}
        </button>
      ))}
      {busy ? <span className="muted small">fitting…</span> : null}
    </div>
  );
}
