import { useCallback, useEffect, useState } from "react";
import { api } from "../api/client";
import { ApiError } from "../api/http";
import type { SessionList as SessionListT, SessionOut, SessionStatusName } from "../api/types.gen";
import { Link } from "../router";

const PAGE = 15;
const STATUSES: (SessionStatusName | "")[] = ["", "active", "paused", "completed", "abandoned"];

function when(iso: string | null): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: "short", timeStyle: "short" });
}

/** A wander that is not walking has an archive to review (timeline, UMAP, exports). */
export function reviewable(s: Pick<SessionOut, "status" | "running">): boolean {
  return !s.running && (s.status === "completed" || s.status === "abandoned" || s.status === "paused");
}

export interface Row {
  s: SessionOut;
  /** Nesting depth under a parent on this page (0: top level). */
  depth: number;
  /** The parent's name when it is on this page. */
  parentName: string | null;
  children: number;
}

/** Sub-wanders right under their parent (depth-first), each parent with its children count. */
export function nestRows(items: SessionOut[]): Row[] {
  const byId = new Map(items.map((s) => [s.id, s]));
  const kids = new Map<string, SessionOut[]>();
  for (const s of items) {
    if (s.parent_session_id && byId.has(s.parent_session_id)) {
      kids.set(s.parent_session_id, [...(kids.get(s.parent_session_id) ?? []), s]);
    }
  }
  const out: Row[] = [];
  const seen = new Set<string>();
  const visit = (s: SessionOut, depth: number) => {
    if (seen.has(s.id)) return;
    seen.add(s.id);
    const parent = s.parent_session_id ? byId.get(s.parent_session_id) : undefined;
    out.push({ s, depth, parentName: parent ? parent.name : null, children: kids.get(s.id)?.length ?? 0 });
    for (const k of kids.get(s.id) ?? []) visit(k, depth + 1);
  };
  for (const s of items) if (!s.parent_session_id || !byId.has(s.parent_session_id)) visit(s, 0);
  for (const s of items) visit(s, 0); // a cycle cannot happen, but nothing is ever dropped
  return out;
}

export function SessionList() {
  const [status, setStatus] = useState<SessionStatusName | "">("");
  const [offset, setOffset] = useState(0);
  const [data, setData] = useState<SessionListT | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setData(await api.listSessions({ limit: PAGE, offset, status }));
      setError(null);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    }
  }, [offset, status]);

  useEffect(() => {
    void load();
    const t = setInterval(() => void load(), 5000);
    return () => clearInterval(t);
  }, [load]);

  const total = data?.total ?? 0;
  return (
    <section className="card sessions" aria-label="Wanders">
      <div className="card-head">
        <h2>Wanders</h2>
        <label className="inline">
          Status{" "}
          <select
            value={status}
            onChange={(e) => {
              setOffset(0);
              setStatus(e.target.value as SessionStatusName | "");
            }}
          >
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s || "all"}
              </option>
            ))}
          </select>
        </label>
      </div>
      {error ? <div className="form-error">Could not load the wanders: {error}</div> : null}
      {data && data.items.length === 0 ? <p className="muted">No wanders yet. Start one with the form.</p> : null}
      {data && data.items.length > 0 ? (
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
            {nestRows(data.items).map(({ s, depth, parentName, children }) => (
              <tr key={s.id} data-testid="session-row" data-depth={depth} className={depth > 0 ? "child" : undefined}>
                <td style={depth > 1 ? { paddingLeft: 14 + 14 * depth } : undefined}>
                  <Link to={`/sessions/${encodeURIComponent(s.id)}`} className="session-link">
                    {s.name}
                  </Link>
                  {reviewable(s) ? (
                    <Link
                      to={`/sessions/${encodeURIComponent(s.id)}/archive`}
                      className="review-link"
                      data-testid="review-link"
                      title="Replay it step by step, see it in semantic space, export it"
                    >
                      Review
                    </Link>
                  ) : null}
                  {children ? <span className="badge" data-testid="children-count">{children} sub-wander{children > 1 ? "s" : ""}</span> : null}
                  {s.attractor ? <div className="muted small">→ {s.attractor}</div> : null}
                  {s.parent_session_id ? (
                    <div className="muted small" data-testid="parent-link">
                      sub-wander of{" "}
                      <Link to={`/sessions/${encodeURIComponent(s.parent_session_id)}`}>{parentName ?? "its parent"}</Link>
                    </div>
                  ) : null}
                </td>
                <td>
                  <span className={`badge status-${s.status}`}>{s.status}</span>
                  {s.running ? <span className="badge running">running</span> : null}
                </td>
                <td className="num">
                  {s.step_count} / {s.max_steps}
                </td>
                <td className="small muted">{when(s.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {total > PAGE ? (
        <div className="pager">
          <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
            ← Newer
          </button>
          <span className="muted small">
            {offset + 1}–{Math.min(total, offset + PAGE)} of {total}
          </span>
          <button type="button" disabled={offset + PAGE >= total} onClick={() => setOffset(offset + PAGE)}>
            Older →
          </button>
        </div>
      ) : null}
    </section>
  );
}
