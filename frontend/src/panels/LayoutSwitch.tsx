import type { LayoutMode } from "../mindmap/layout/semantic";

/** "Flow" (the incremental force layout) or "Semantic (UMAP)" (the stored projection). */
export function LayoutSwitch({
  mode,
  onChange,
  busy = false,
  error = null,
}: {
  mode: LayoutMode;
  onChange: (m: LayoutMode) => void;
  busy?: boolean;
  error?: string | null;
}) {
  return (
    <div className="layout-switch" role="group" aria-label="Layout" data-testid="layout-switch">
      {(["flow", "semantic"] as const).map((m) => (
        <button
          key={m}
          type="button"
          className={mode === m ? "tool is-on" : "tool"}
          aria-pressed={mode === m}
          onClick={() => onChange(m)}
          title={m === "flow" ? "Lay the walk out as it grew (force layout; pins hold)" : "Place loci by meaning (the wander's UMAP projection)"}
        >
          {m === "flow" ? "Flow" : "Semantic (UMAP)"}
        </button>
      ))}
      {busy ? <span className="muted small layout-note">fitting…</span> : null}
      {error ? (
        <span className="small layout-note is-error" role="status" title={error}>
          projection unavailable
        </span>
      ) : null}
    </div>
  );
}
