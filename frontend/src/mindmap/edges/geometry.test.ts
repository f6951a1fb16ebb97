// @vitest-environment node
import { describe, expect, it } from "vitest";
import { bridgeRails, RAIL_OFFSET, rimToRim, wavePath, wavePieces } from "./geometry";

describe("bridgeRails (a bridge's double line)", () => {
  it("moves the segment RAIL_OFFSET to either side, across it", () => {
    const [a, b] = bridgeRails({ x1: 0, y1: 0, x2: 100, y2: 0 });
    expect(a).toEqual({ x1: 0, y1: RAIL_OFFSET, x2: 100, y2: RAIL_OFFSET });
    expect(b).toEqual({ x1: 0, y1: -RAIL_OFFSET, x2: 100, y2: -RAIL_OFFSET });
  });

  it("keeps the rails parallel to a slanted segment, RAIL_OFFSET away", () => {
    const s = { x1: 10, y1: 20, x2: 70, y2: 100 };
    for (const r of bridgeRails(s)) {
      expect(r.x2 - r.x1).toBeCloseTo(60);
      expect(r.y2 - r.y1).toBeCloseTo(80);
      // distance of the rail's start from the segment's line
      const d = Math.abs((s.x2 - s.x1) * (s.y1 - r.y1) - (s.x1 - r.x1) * (s.y2 - s.y1)) / 100;
      expect(d).toBeCloseTo(RAIL_OFFSET);
    }
  });
});

describe("wavePieces (a resonance's wavy line)", () => {
  it("ends where the segment ends, in pieces of about 28 px bulging to either side in turn", () => {
    const q = wavePieces({ x1: 0, y1: 0, x2: 112, y2: 0 });
    expect(q).toHaveLength(4);
    expect(q[3].x).toBeCloseTo(112);
    expect(q[3].y).toBeCloseTo(0);
    expect(q.map((p) => p.cy)).toEqual([9, -9, 9, -9]);
    expect(q[0].cx).toBeCloseTo(14);
  });

  it("has at least two pieces, even between loci that nearly touch", () => {
    expect(wavePieces({ x1: 0, y1: 0, x2: 5, y2: 0 })).toHaveLength(2);
  });

  it("is the SVG edge's path (from the rim of one locus to the other's)", () => {
    const s = rimToRim(0, 0, 10, 76, 0, 10);
    expect(wavePath(s)).toBe("M 10,0 Q 24,9 38,0 Q 52,-9 66,0");
  });
});
