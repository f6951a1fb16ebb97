// A crystal's one state in words (the archive's Markdown says the same): the sandwich gate's
// verdict, or for a crystal the gate kept for a person, that person's verdict or that it waits
// for one. What happened to it since (acted upon, archived) is added.

export interface CrystalFacts {
  /** The gate's verdict: accepted, review or rejected. */
  verdict: string | null | undefined;
  status: string | null | undefined;
  human_approved?: boolean | null;
  /** A person's verdict seen on the event stream (before the REST view has it). */
  review?: "accept" | "reject" | null;
  /** "accepted" when the gate accepted it but the wander holds every crystal for a person. */
  gate_verdict?: string | null;
}

export type CrystalTone = "ok" | "wait" | "off";

export function crystalState(c: CrystalFacts): { text: string; tone: CrystalTone } {
  const later = c.status === "acted_upon" ? " · acted upon" : c.status === "archived" ? " · archived" : "";
  if (c.verdict === "review") {
    if (c.human_approved || c.review === "accept") return { text: `accepted by a person${later}`, tone: "ok" };
    if (c.status === "invalidated" || c.review === "reject") return { text: "rejected by a person", tone: "off" };
    if (c.gate_verdict === "accepted") return { text: "held for your approval (the gate accepted it)", tone: "wait" };
    return { text: "awaiting your review", tone: "wait" };
  }
  if (c.verdict === "accepted") return { text: `accepted by the gate${later}`, tone: "ok" };
  if (c.verdict === "rejected") return { text: "rejected by the gate", tone: "off" };
  return { text: c.status ?? "…", tone: "wait" };
}
