// What a person reads after "Crystallize here now": the gate's verdict in words, with the
// reason when it rejected (a V of 0.7 or more can still be rejected by a structural
// constraint, and "rejected (V=0.71)" alone reads as a contradiction).
import type { CrystallizeOut } from "./types.gen";

export function crystallizeNotice(r: CrystallizeOut): string {
  const c = r.crystal;
  if (!c) return `No crystal: ${r.outcome}`;
  const v = Number(c.validity.V ?? c.confidence).toFixed(2);
  const after = `after ${r.rumination_steps} rumination steps`;
  if (r.outcome === "rejected") {
    const why = c.validation_notes?.trim();
    return `Crystal rejected (V=${v}${why ? `: ${why}` : ""}) ${after}`;
  }
  if (r.outcome === "review" && c.validity.gate_verdict === "accepted")
    return `Crystal held for your verdict (V=${v}: the gate accepted it; this wander asks a person for every crystal) ${after}`;
  if (r.outcome === "review") return `Crystal kept for your review (V=${v}, marginal) ${after}`;
  return `Crystal ${r.outcome} (V=${v}) ${after}`;
}
