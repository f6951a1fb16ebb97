import type { SessionOut } from "../api/types.gen";
import { Link } from "../router";

export interface Row {
  s: SessionOut;
  /** Nesting depth under a parent on this page (0: top level). */
  depth: number;
  /** The parent's name when it is on this page. */
  parentName: string | null;
  children: number;
}

function when(iso: string | null): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: "short", timeStyle: "short" });
}

/** A wander that is not walking has an archive to review (timeline, UMAP, exports). */
export function reviewable(s: Pick<SessionOut, "status" | "running">): boolean {
  return !s.running && (s.status === "completed" || s.status === "abandoned" || s.status === "paused");
}

/** The wander's name with its links: open it, review it, its sub-wanders, its parent. */
function WanderCell({ row: { s, depth, parentName, children } }: { row: Row }) {
  return (
    <td style={depth > 1 ? { paddingLeft: 14 + 14 * depth } : undefined}>
      <Link to={`/sessions/${encodeURIComponent(s.id)}`} className="session-link">
        {s.name}
      </Link>
      {reviewable(s) ? (
        <Link to={`/sessions/${encodeURIComponent(s.id)}/archive`} className="review-link" data-testid="review-link" title="Replay it step by step, see it in semantic space, export it">
          Review
        </Link>
      ) : null}
      {children ? <span className="badge" data-testid="children-count">{children} sub-wander{children > 1 ? "s" : ""}</span> : null}
      {s.attractor ? <div className="muted small">→ {s.attractor}</div> : null}
      {s.parent_session_id ? (
        <div className="muted small" data-testid="parent-link">
          sub-wander of <Link to={`/sessions/${encodeURIComponent(s.parent_session_id)}`}>{parentName ?? "its parent"}</Link>
        </div>
      ) : null}
    </td>
  );
}

function SessionRow({ row }: { row: Row }) {
  const { s, depth } = row;
  return (
    <tr data-testid="session-row" data-depth={depth} className={depth > 0 ? "child" : undefined}>
      <WanderCell row={row} />
      <td>
        <span className={`badge status-${s.status}`}>{s.status}</span>
        {s.running ? <span className="badge running">running</span> : null}
      </td>
      <td className="num">
        {s.step_count} / {s.max_steps}
      </td>
      <td className="small muted">{when(s.created_at)}</td>
    </tr>
  );
}

/** The page's wanders, sub-wanders under their parents. */
export function SessionTable({ rows }: { rows: Row[] }) {
  return (
    <table className="session-table">
      <thead>
        <tr>
          <th>Wander</th>
          <th>Status</th>
          <th className="num">Steps</th>
          <th>Created</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <SessionRow key={row.s.id} row={row} />
        ))}
      </tbody>
    </table>
  );
}
