// @vitest-environment node
import { describe, expect, it } from "vitest";
import { lastProposalSeq } from "./proposals";
import type { EventOut } from "./types.gen";

const ev = (seq: number, subject: string) => ({ seq, subject, session_id: "s", ts: "2026-11-24T00:00:00Z", payload: {} }) as unknown as EventOut;

describe("lastProposalSeq", () => {
  it("is 0 until a proposal event arrives", () => {
    expect(lastProposalSeq([])).toBe(0);
    expect(lastProposalSeq([ev(1, "wander.step.completed"), ev(2, "wander.resonance.confirmed")])).toBe(0);
  });
  it("moves with each proposal stage, whatever came after it", () => {
    const log = [ev(1, "wander.step.completed"), ev(2, "wander.proposal.proposed"), ev(3, "wander.proposal.encoded"), ev(4, "wander.step.completed")];
    expect(lastProposalSeq(log)).toBe(3);
    expect(lastProposalSeq([...log, ev(5, "wander.proposal.approved")])).toBe(5);
  });
  it("moves when a crystal is formed or a person reviews one (it may now be proposed from)", () => {
    const log = [ev(1, "wander.step.completed"), ev(2, "wander.crystal.formed"), ev(3, "wander.step.completed")];
    expect(lastProposalSeq(log)).toBe(2);
    expect(lastProposalSeq([...log, ev(4, "wander.crystal.reviewed")])).toBe(4);
  });
});
