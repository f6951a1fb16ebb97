// @vitest-environment node
import { describe, expect, it } from "vitest";
import type { ProposalOut } from "../api/types.gen";
import { FRACTAL_SIZE, fractalEdges, fractalNodes } from "./fractals";

function proposal(id: string, anchor: string | null, status: ProposalOut["status"] = "pending"): ProposalOut {
  return {
    id, crystal_id: "c1", session_id: "s1", status, evaluator: "offline-rules", image_sha256: "a".repeat(64),
    image_url: `/api/v1/wander/proposals/${id}/image.png`, params: {}, created_at: "2026-01-01T00:00:00Z",
    decision: null, execution: null,
    evaluation: { evidence: { loci: anchor ? [{ id: anchor, concept: "x" }] : [] } },
  };
}

describe("fractal squares on the map", () => {
  it("hang each proposal's image off its crystal's first locus, side by side, with a link", () => {
    const positions = new Map([["L1", { x: 100, y: 200 }]]);
    const list = [proposal("p1", "L1"), proposal("p2", "L1", "executed"), proposal("p3", "gone"), proposal("p4", null)];
    const nodes = fractalNodes(list, positions);
    expect(nodes.map((n) => n.id)).toEqual(["fractal:p1", "fractal:p2"]);
    expect(nodes.every((n) => n.type === "fractal" && n.width === FRACTAL_SIZE && n.height === FRACTAL_SIZE)).toBe(true);
    expect(nodes[1].position.x - nodes[0].position.x).toBe(FRACTAL_SIZE + 10);
    expect(nodes[0].data).toMatchObject({ proposalId: "p1", status: "pending", imageUrl: "/api/v1/wander/proposals/p1/image.png" });
    const edges = fractalEdges(nodes);
    expect(edges.map((e) => [e.source, e.target])).toEqual([["L1", "fractal:p1"], ["L1", "fractal:p2"]]);
  });

  it("hang off the crystal node when the map draws one", () => {
    const positions = new Map([["L1", { x: 0, y: 0 }], ["crystal:c1", { x: 300, y: 300 }]]);
    const nodes = fractalNodes([proposal("p1", "L1")], positions);
    expect(nodes[0].position).toEqual({ x: 350, y: 300 - 50 - FRACTAL_SIZE });
    expect(fractalEdges(nodes).map((e) => e.source)).toEqual(["crystal:c1"]);
  });
});
