import { useCallback, useEffect, useState } from "react";
import { api, ApiError } from "../api/client";
import type { SessionList as SessionListT, SessionStatusName } from "../api/types.gen";
import { Link } from "../router";

const PAGE = 15;
const STATUSES: (SessionStatusName | "")[] = ["", "active", "paused", "completed", "abandoned"];

function when(iso: string | null): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: "short", timeStyle: "short" });
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
            {data.items.map((s) => (
              <tr key={s.id} data-testid="session-row">
                <td>
                  <Link to={`/sessions/${encodeURIComponent(s.id)}`} className="session-link">
                    {s.name}
                  </Link>
                  {s.attractor ? <div className="muted small">→ {s.attractor}</div> : null}
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
