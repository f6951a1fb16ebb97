// A crystal on the map: its insight, sandwich, type, V and its parts, the rumination that
// led to it, and the person's verdict for crystals kept for review (0.5 <= V < 0.7).
import { useEffect, useState } from "react";
import { commands, reads } from "../api/commands";
import type { CrystalOut } from "../api/types.gen";
import { brickPagePath } from "../memory/brick";
import { attractorUrl } from "../mindmap/flow";
import { Link } from "../router";
import { useWander } from "../store";
import { crystalState } from "./crystalState";
import { crystalTypeChip } from "./crystalType";
import { ReviewSection, RuminationSection, SandwichSection, ValiditySection, WeighedSection } from "./CrystalSections";
import { weighedOf } from "./crystalWeighed";

/** The server's detail of the open crystal, read again once a person has reviewed it. */
function useCrystalDetail(sessionId: string, crystalId: string | null, reviewed: unknown) {
  const [c, setC] = useState<CrystalOut | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!crystalId) return;
    let live = true;
    setError(null);
    reads
      .sessionCrystals(sessionId)
      .then((all) => live && setC(all.find((x) => x.id === crystalId) ?? null))
      .catch((e) => live && setError(String(e instanceof Error ? e.message : e)));
    return () => {
      live = false;
    };
  }, [sessionId, crystalId, reviewed]);
  return { c, setC, error };
}

function CrystalHead({ crystalId, insight }: { crystalId: string; insight: string | null | undefined }) {
  return (
    <>
      <div className="panel-head">
        <h2>Crystal</h2>
        <button type="button" className="close" aria-label="Close" onClick={() => useWander.getState().openCrystal(null)}>
          ×
        </button>
      </div>
      <div className="crystal-head">
        <Link to={brickPagePath({ kind: "crystal", id: crystalId })} className="crystal-brick-link" title="Watch it form: the brick viewer" data-testid="crystal-brick-link">
          <img className="crystal-big" src={attractorUrl(crystalId)} alt="Wheeler attractor of the insight" />
        </Link>
        <p className="insight" data-testid="crystal-insight">{insight}</p>
      </div>
    </>
  );
}

export function CrystalPanel({ sessionId }: { sessionId: string }) {
  const crystalId = useWander((s) => s.crystalId);
  const fromEvents = useWander((s) => (s.crystalId ? s.graph.crystals[s.crystalId] : undefined));
  const loci = useWander((s) => s.graph.loci);
  const [busy, setBusy] = useState(false);
  const reviewed = fromEvents?.review ?? null;
  const { c, setC, error } = useCrystalDetail(sessionId, crystalId, reviewed);

  if (!crystalId) return null;
  const d = c && c.id === crystalId ? c : null;
  const v = (d?.validity ?? {}) as Record<string, unknown>;
  const num = (k: string) => (typeof v[k] === "number" ? (v[k] as number) : null);
  const verdict = (v.verdict as string | undefined) ?? fromEvents?.verdict ?? null;
  const gate_verdict = typeof v.gate_verdict === "string" ? v.gate_verdict : null;
  const state = crystalState({ verdict, status: d?.status ?? fromEvents?.status, human_approved: d?.human_approved, review: reviewed, gate_verdict });
  const canReview = verdict === "review" && d !== null && !d.human_approved && d.status === "active" && !reviewed;
  const typeChip = crystalTypeChip(d?.structural_type, d ? v : null, fromEvents?.structural_type);
  const weighed = weighedOf(v);
  const concept = (id: string | null | undefined) => (id && loci[id] ? loci[id].concept : "?");
  const review = async (which: "accept" | "reject") => {
    setBusy(true);
    const r = await commands.review(crystalId, which);
    setBusy(false);
    if (r) setC(r);
  };

  return (
    <aside className="side-panel" aria-label="Crystal" data-testid="crystal-panel">
      <CrystalHead crystalId={crystalId} insight={d?.insight ?? fromEvents?.insight} />
      <SandwichSection
        breadA={concept(d?.bread_a_locus_id ?? fromEvents?.bread[0])}
        filling={String(v.filling ?? "—")}
        breadB={concept(d?.bread_b_locus_id ?? fromEvents?.bread[1])}
        state={state}
        typeChip={typeChip}
      />
      <ValiditySection V={num("V") ?? fromEvents?.V ?? 0} num={num} />
      {canReview ? <ReviewSection busy={busy} review={(which) => void review(which)} /> : null}
      {d?.validation_notes ? <p className="muted small" data-testid="crystal-notes">{d.validation_notes}</p> : null}
      {weighed.length ? <WeighedSection weighed={weighed} /> : null}
      {d?.rumination?.length ? <RuminationSection rumination={d.rumination} /> : null}
      {error ? <div className="form-error small">Details unavailable: {error}</div> : null}
    </aside>
  );
}
