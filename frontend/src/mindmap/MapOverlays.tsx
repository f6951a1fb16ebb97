// Overlays on the map: the last command's result, and a search box that finds a locus.
import { useMemo, useState } from "react";
import { useWander } from "../store";

export function NoticeLine() {
  const notice = useWander((s) => s.notice);
  if (!notice) return null;
  return (
    <div className={`map-notice is-${notice.kind}`} role={notice.kind === "error" ? "alert" : "status"} data-testid="command-result" data-kind={notice.kind}>
      {notice.text}
      <button type="button" className="linklike" aria-label="Dismiss" onClick={() => useWander.setState({ notice: null })}>
        ×
      </button>
    </div>
  );
}

export function MapSearch() {
  const loci = useWander((s) => s.graph.loci);
  const order = useWander((s) => s.graph.order);
  const [q, setQ] = useState("");
  const hits = useMemo(() => {
    const t = q.trim().toLowerCase();
    if (!t) return [];
    const out: string[] = [];
    for (const id of order) {
      if (loci[id].concept.toLowerCase().includes(t)) out.push(id);
      if (out.length >= 8) break;
    }
    return out;
  }, [q, loci, order]);
  const go = (id: string) => {
    const st = useWander.getState();
    st.select(id);
    st.focusOn(id);
    setQ("");
  };
  return (
    <div className="map-search">
      <input
        type="search"
        placeholder="Find a locus…"
        aria-label="Find a locus"
        value={q}
        onChange={(e) => setQ(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && hits[0]) go(hits[0]);
        }}
      />
      {hits.length ? (
        <ul className="search-hits" role="listbox">
          {hits.map((id) => (
            <li key={id}>
              <button type="button" role="option" aria-selected={false} onClick={() => go(id)}>
                {loci[id].concept}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
