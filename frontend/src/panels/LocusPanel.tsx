import { useEffect, useRef, useState } from "react";
import { api } from "../api/client";
import { ApiError } from "../api/http";
import type { LocusDetail, ResidueOut } from "../api/types.gen";
import { domainColour } from "../mindmap/palette";
import { useWander } from "../store";
import { ConnectionsSection, LinksSection } from "./LocusLinks";
import { ResidueSection, ScoresSection, type ShownLocus } from "./LocusSections";

/** The server's detail of the selected locus, fetched again when its visits change. */
function useLocusDetail(sessionId: string, selectedId: string | null, visits: number | undefined) {
  const [detail, setDetail] = useState<LocusDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!selectedId) return;
    let live = true;
    setError(null);
    api
      .locus(sessionId, selectedId)
      .then((d) => live && setDetail(d))
      .catch((err) => live && setError(err instanceof ApiError ? err.message : String(err)));
    return () => {
      live = false;
    };
  }, [sessionId, selectedId, visits]);
  return { detail, error };
}

function LocusHead({ locus, onClose }: { locus: ShownLocus; onClose: () => void }) {
  return (
    <div className="panel-head">
      <h2 data-testid="locus-concept">{locus.concept}</h2>
      <button
        type="button"
        className="tool"
        aria-label="Actions"
        onClick={(e) => {
          const r = (e.currentTarget.closest(".workspace") as HTMLElement | null)?.getBoundingClientRect();
          const b = e.currentTarget.getBoundingClientRect();
          useWander.getState().openMenu({ locusId: locus.id, x: Math.max(8, b.left - (r?.left ?? 0) - 230), y: b.bottom - (r?.top ?? 0) + 4 });
        }}
      >
        Actions ▾
      </button>
      <button type="button" className="close" aria-label="Close" onClick={onClose}>
        ×
      </button>
    </div>
  );
}

function LocusChips({ locus, isCurrent }: { locus: ShownLocus; isCurrent: boolean }) {
  return (
    <div className="chips">
      {locus.domains.map((dm) => (
        <span key={dm} className="chip" style={{ ["--c" as string]: domainColour(dm) }}>
          {dm}
        </span>
      ))}
      <span className="chip plain">{locus.source_type.toLowerCase()}</span>
      {isCurrent ? <span className="chip current">current</span> : null}
    </div>
  );
}

/** The clicked locus: its scores, the residue of the encounter that reached it, and its
 * connections (the path, the loci it bridges to across domains, those it contradicts). */
export function LocusPanel({ sessionId }: { sessionId: string }) {
  const selectedId = useWander((s) => s.selectedId);
  const fromEvents = useWander((s) => (s.selectedId ? s.graph.loci[s.selectedId] : undefined));
  const residueFromEvents = useWander((s) => (s.selectedId ? s.graph.arrivedBy[s.selectedId] : undefined));
  const isCurrent = useWander((s) => s.selectedId !== null && s.selectedId === s.graph.currentLocusId);
  const select = useWander((s) => s.select);
  const { detail, error } = useLocusDetail(sessionId, selectedId, fromEvents?.visit_count);
  const panel = useRef<HTMLElement>(null);

  // Following a connection opens another locus: show it from its title, not mid-scroll.
  useEffect(() => {
    if (panel.current) panel.current.scrollTop = 0;
  }, [selectedId]);

  if (!selectedId) return null;
  const d = detail && detail.id === selectedId ? detail : null;
  const locus = d ?? fromEvents;
  if (!locus) return null;
  const residue: ResidueOut | null | undefined = d ? d.arrived_by : residueFromEvents;

  return (
    <aside className="side-panel" aria-label="Locus" data-testid="locus-panel" ref={panel}>
      <LocusHead locus={locus} onClose={() => select(null)} />
      <LocusChips locus={locus} isCurrent={isCurrent} />
      <ScoresSection locus={locus} why={d?.arrived_why} />
      <ResidueSection residue={residue} sourceType={locus.source_type} />
      {d ? <ConnectionsSection detail={d} select={select} /> : null}
      {d ? <LinksSection detail={d} select={select} /> : null}
      {error ? <div className="form-error small">Details unavailable: {error}</div> : null}
    </aside>
  );
}
