import { useCallback, useEffect, useState } from "react";
import { api } from "../api/client";
import { ApiError } from "../api/http";
import type { SessionList as SessionListT, SessionOut, SessionStatusName } from "../api/types.gen";
import { SessionTable, type Row } from "./SessionTable";

const PAGE = 15;
const STATUSES: (SessionStatusName | "")[] = ["", "active", "paused", "completed", "abandoned"];

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

/** A page of wanders, filtered by status, read again every 5 s. */
function useSessionPage(offset: number, status: SessionStatusName | "") {
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
  return { data, error };
}

function StatusFilter({ status, onChange }: { status: SessionStatusName | ""; onChange: (s: SessionStatusName | "") => void }) {
  return (
    <label className="inline">
      Status{" "}
      <select value={status} onChange={(e) => onChange(e.target.value as SessionStatusName | "")}>
        {STATUSES.map((s) => (
          <option key={s} value={s}>
            {s || "all"}
          </option>
        ))}
      </select>
    </label>
  );
}

function Pager({ offset, total, setOffset }: { offset: number; total: number; setOffset: (o: number) => void }) {
  return (
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
  );
}

export function SessionList() {
  const [status, setStatus] = useState<SessionStatusName | "">("");
  const [offset, setOffset] = useState(0);
  const { data, error } = useSessionPage(offset, status);
  const total = data?.total ?? 0;
  return (
    <section className="card sessions" aria-label="Wanders">
      <div className="card-head">
        <h2>Wanders</h2>
        <StatusFilter
          status={status}
          onChange={(s) => {
            setOffset(0);
            setStatus(s);
          }}
        />
      </div>
      {error ? <div className="form-error">Could not load the wanders: {error}</div> : null}
      {data && data.items.length === 0 ? <p className="muted">No wanders yet. Start one with the form.</p> : null}
      {data && data.items.length > 0 ? <SessionTable rows={nestRows(data.items)} /> : null}
      {total > PAGE ? <Pager offset={offset} total={total} setOffset={setOffset} /> : null}
    </section>
  );
}
