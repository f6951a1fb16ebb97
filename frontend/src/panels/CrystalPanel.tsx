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

const PARTS: [string, string][] = [
  ["bread_compat", "Bread compatibility"],
  ["containment", "Containment"],
  ["non_triviality", "Non-triviality"],
  ["novelty", "Novelty"],
];

export function CrystalPanel({ sessionId }: { sessionId: string }) {
  const crystalId = useWander((s) => s.crystalId);
  const fromEvents = useWander((s) => (s.crystalId ? s.graph.crystals[s.crystalId] : undefined));
  const loci = useWander((s) => s.graph.loci);
  const [c, setC] = useState<CrystalOut | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const reviewed = fromEvents?.review ?? null;

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

  if (!crystalId) return null;
  const d = c && c.id === crystalId ? c : null;
  const v = (d?.validity ?? {}) as Record<string, unknown>;
  const num = (k: string) => (typeof v[k] === "number" ? (v[k] as number) : null);
  const verdict = (v.verdict as string | undefined) ?? fromEvents?.verdict ?? null;
  const gate_verdict = typeof v.gate_verdict === "string" ? v.gate_verdict : null;
  const state = crystalState({ verdict, status: d?.status ?? fromEvents?.status, human_approved: d?.human_approved, review: reviewed, gate_verdict });
  const canReview = verdict === "review" && d !== null && !d.human_approved && d.status === "active" && !reviewed;
  const typeChip = crystalTypeChip(d?.structural_type, d ? v : null, fromEvents?.structural_type);
  const concept = (id: string | null | undefined) => (id && loci[id] ? loci[id].concept : "?");
  const review = async (which: "accept" | "reject") => {
    setBusy(true);
    const r = await commands.review(crystalId, which);
    setBusy(false);
    if (r) setC(r);
  };

  return (
    <aside className="side-panel" aria-label="Crystal" data-testid="crystal-panel">
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
        <p className="insight" data-testid="crystal-insight">{d?.insight ?? fromEvents?.insight}</p>
      </div>
      <section>
        <h3>Sandwich</h3>
        <ol className="sandwich" data-testid="crystal-sandwich">
          <li><span className="muted small">bread A</span> {concept(d?.bread_a_locus_id ?? fromEvents?.bread[0])}</li>
          <li className="filling"><span className="muted small">filling</span> {String(v.filling ?? "—")}</li>
          <li><span className="muted small">bread B</span> {concept(d?.bread_b_locus_id ?? fromEvents?.bread[1])}</li>
        </ol>
        <div className="chips">
          {/* one state: the gate's verdict, or a person's on a crystal the gate left to them */}
          <span className={`chip crystal-state is-${state.tone}`} data-testid="crystal-status">
            {state.text}
          </span>
          {typeChip ? (
            <span className={typeChip.named ? "chip plain" : "chip plain muted"} title={typeChip.title} data-testid="crystal-type">
              {typeChip.text}
            </span>
          ) : null}
        </div>
      </section>
      <section data-testid="crystal-validity">
        <h3>Validity V = {(num("V") ?? fromEvents?.V ?? 0).toFixed(3)}</h3>
        {PARTS.map(([k, label]) => (
          <div className="score" key={k}>
            <span className="score-label">{label}</span>
            <span className="score-bar"><span style={{ width: `${Math.round((num(k) ?? 0) * 100)}%` }} /></span>
            <span className="score-val">{num(k)?.toFixed(2) ?? "–"}</span>
          </div>
        ))}
      </section>
      {canReview ? (
        <section className="review" data-testid="crystal-review">
          <h3>Your verdict</h3>
          <p className="muted small">The gate kept this crystal for a person to judge (0.5 ≤ V &lt; 0.7).</p>
          <button type="button" className="primary" disabled={busy} onClick={() => void review("accept")}>Accept</button>{" "}
          <button type="button" className="danger" disabled={busy} onClick={() => void review("reject")}>Reject</button>
        </section>
      ) : null}
      {d?.validation_notes ? <p className="muted small" data-testid="crystal-notes">{d.validation_notes}</p> : null}
      {d?.rumination?.length ? (
        <section>
          <h3>Rumination ({d.rumination.length} steps)</h3>
          <ol className="rumination" data-testid="crystal-rumination">
            {d.rumination.map((st, i) => (
              <li key={i}>
                <span className="chip plain">{String(st.lens ?? st.query ?? "step")}</span> {String(st.finding ?? st.summary ?? st.thought ?? "")}
                {st.signal ? <span className="muted small"> [{String(st.signal)}]</span> : null}
              </li>
            ))}
          </ol>
        </section>
      ) : null}
      {error ? <div className="form-error small">Details unavailable: {error}</div> : null}
    </aside>
  );
}
