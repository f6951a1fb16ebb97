// Archived wanders on the sessions page: seed, attractor, steps, crystals and the UMAP
// thumbnail; filters (status, date, has crystals) and search by meaning ("wanders about ...").
import { useEffect, useState } from "react";
import { archiveApi, type ArchiveQuery } from "../api/archive";
import { ApiError } from "../api/http";
import type { ArchiveOut } from "../api/types.gen";
import { Link } from "../router";

export function ArchiveList() {
  const [query, setQuery] = useState<ArchiveQuery>({ q: "", status: "", hasCrystals: false, since: "" });
  const [text, setText] = useState("");
  const [items, setItems] = useState<ArchiveOut[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let alive = true;
    const load = () =>
      archiveApi
        .list(query)
        .then((r) => {
          if (!alive) return;
          setItems(r.items);
          setError(null);
        })
        .catch((err) => alive && setError(err instanceof ApiError ? err.message : String(err)));
    void load();
    const t = setInterval(load, 10_000);
    return () => {
      alive = false;
      clearInterval(t);
    };
  }, [query]);

  return (
    <section className="card archives" aria-label="Archived wanders" id="archived-wanders">
      <div className="card-head">
        <h2>Archived wanders</h2>
      </div>
      <form
        className="archive-filters"
        onSubmit={(e) => {
          e.preventDefault();
          setQuery((q) => ({ ...q, q: text }));
        }}
      >
        <input type="search" placeholder="wanders about …" aria-label="Search archived wanders by meaning" value={text} onChange={(e) => setText(e.target.value)} />
        <button type="submit" className="tool">Search</button>
        <select aria-label="Archive status" value={query.status} onChange={(e) => setQuery((q) => ({ ...q, status: e.target.value as ArchiveQuery["status"] }))}>
          <option value="">any status</option>
          <option value="completed">completed</option>
          <option value="abandoned">abandoned</option>
          <option value="paused">paused</option>
        </select>
        <label className="inline small">
          <input type="checkbox" checked={!!query.hasCrystals} onChange={(e) => setQuery((q) => ({ ...q, hasCrystals: e.target.checked }))} /> has crystals
        </label>
        <label className="inline small">
          since <input type="date" aria-label="Archived since" value={query.since} onChange={(e) => setQuery((q) => ({ ...q, since: e.target.value }))} />
        </label>
      </form>
      {error ? <div className="banner">Could not load the archives: {error}</div> : null}
      {items && items.length === 0 ? <p className="muted">No archived wander matches.</p> : null}
      <ul className="archive-grid">
        {(items ?? []).map((a) => (
          <li key={a.session_id} className="archive-card" data-testid="archive-card" data-session-id={a.session_id}>
            <Link to={`/sessions/${encodeURIComponent(a.session_id)}/archive`}>
              <img src={`${archiveApi.exportUrl(a.session_id, "umap.png")}?v=${a.fingerprint.slice(0, 8)}`} alt={`UMAP plot of ${a.name}`} loading="lazy" width={120} height={120} />
              <div>
                <b>{a.seed_concept}</b>
                {a.attractor ? <div className="muted small">→ {a.attractor}</div> : null}
                <div className="small">
                  {a.step_count} steps · {a.crystal_count} crystals · {a.status}
                  {a.similarity !== null && a.similarity !== undefined ? <span className="muted"> · match {a.similarity.toFixed(2)}</span> : null}
                </div>
                <div className="review-cue">
                  Review ›
                </div>
              </div>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
