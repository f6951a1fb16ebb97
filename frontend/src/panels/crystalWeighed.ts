// What else the sandwich gate weighed before it formed a crystal (the crystal's validity
// keeps `also_weighed`, the sandwiches tasted beside it, and `reworked_from`, a rejected
// first try): breads, filling, verdict, V and why it was turned down.
export interface Weighed {
  bread: [string, string];
  filling: string;
  verdict: string;
  V: number | null;
  why: string;
  /** The rejected first try a reworked crystal replaced (not one tasted beside it). */
  firstTry: boolean;
}

function weighed(r: unknown, firstTry: boolean): Weighed | null {
  if (typeof r !== "object" || r === null) return null;
  const o = r as Record<string, unknown>;
  const bread = Array.isArray(o.bread) ? o.bread.map(String) : [];
  if (bread.length !== 2 || typeof o.filling !== "string") return null;
  const reasons = Array.isArray(o.reasons) ? o.reasons : Array.isArray(o.hard_failures) ? o.hard_failures : [];
  return {
    bread: [bread[0], bread[1]],
    filling: o.filling,
    verdict: typeof o.verdict === "string" ? o.verdict : "?",
    V: typeof o.V === "number" ? o.V : null,
    why: reasons.map(String).join("; "),
    firstTry,
  };
}

/** The first try first, then the others in the gate's order; records it cannot read are left out. */
export function weighedOf(validity: Record<string, unknown>): Weighed[] {
  const others = Array.isArray(validity.also_weighed) ? validity.also_weighed : [];
  return [weighed(validity.reworked_from, true), ...others.map((r) => weighed(r, false))].filter((w): w is Weighed => w !== null);
}
