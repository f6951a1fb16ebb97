// @vitest-environment node
import { describe, expect, it } from "vitest";
import { crystallizeNotice } from "./crystallizeNotice";
import type { CrystalOut, CrystallizeOut } from "./types.gen";

function out(outcome: string, validity: Record<string, unknown>, notes: string | null = null): CrystallizeOut {
  const crystal = { validity, confidence: 0.5, validation_notes: notes } as unknown as CrystalOut;
  return { crystal, outcome, rumination_steps: 9 };
}

describe("crystallizeNotice", () => {
  it("gives the reason of a rejection, also one with a high V", () => {
    const text = crystallizeNotice(out("rejected", { V: 0.712 }, "filling names the breads' category"));
    expect(text).toBe("Crystal rejected (V=0.71: filling names the breads' category) after 9 rumination steps");
  });
  it("tells a crystal held by the wander's approval rule from a marginal one", () => {
    expect(crystallizeNotice(out("review", { V: 0.74, gate_verdict: "accepted" }))).toContain("the gate accepted it");
    expect(crystallizeNotice(out("review", { V: 0.61 }))).toBe("Crystal kept for your review (V=0.61, marginal) after 9 rumination steps");
  });
  it("says accepted, and why nothing formed", () => {
    expect(crystallizeNotice(out("accepted", { V: 0.8 }))).toBe("Crystal accepted (V=0.80) after 9 rumination steps");
    expect(crystallizeNotice({ crystal: null, outcome: "no sound sandwich here", rumination_steps: 3 })).toBe("No crystal: no sound sandwich here");
  });
});
