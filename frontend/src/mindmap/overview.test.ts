// @vitest-environment node
import { describe, expect, it } from "vitest";
import { convexHull, keyLoci, placeLabels, regionsOf, type Region } from "./overview";
import { emptyGraph, type GraphState, type MapLocus } from "../store";
import { locus } from "../test/fixtures";
import type { Point } from "./layout/types";

/** A graph of loci in clumps: `clumps` of [domain, centre, n]. */
function clumped(clumps: [string, Point, number][]): { g: GraphState; positions: Map<string, Point> } {
  const g = emptyGraph("s");
  const positions = new Map<string, Point>();
  let i = 0;
  for (const [domain, c, n] of clumps)
    for (let k = 0; k < n; k++, i++) {
      const id = `L${i}`;
      g.order.push(id);
      g.loci[id] = { ...locus(id, `${domain} ${k}`, { domains: [domain], visit_count: k === 0 ? 5 : 1 }), kind: "locus", parentId: null, firstStep: i } as MapLocus;
      positions.set(id, { x: c.x + (k % 5) * 60, y: c.y + Math.floor(k / 5) * 60 });
    }
  return { g, positions };
}

describe("the far-zoom overview", () => {
  it("cuts the map into regions named by the domain most of their loci are of, with their count", () => {
    const { g, positions } = clumped([
      ["animal", { x: 0, y: 0 }, 30],
      ["artifact", { x: 5000, y: 0 }, 20],
      ["animal", { x: 0, y: 6000 }, 12], // the same domain far away: a region of its own
      ["plant", { x: 9000, y: 9000 }, 2], // too few to be a region
    ]);
    const rs = regionsOf(g, positions, 420, 5);
    expect(rs.map((r) => [r.domain, r.count])).toEqual([
      ["animal", 30],
      ["artifact", 20],
      ["animal", 12],
    ]);
    const a = rs[0];
    // its outline holds its loci
    const xs = a.hull.map((p) => p.x);
    expect(Math.min(...xs)).toBeLessThan(0);
    expect(Math.max(...xs)).toBeGreaterThan(240);
    expect(a.centre.x).toBeGreaterThan(0);
    expect(a.centre.x).toBeLessThan(240);
  });

  it("does not make a region as large as the map for each domain when domains are mixed everywhere", () => {
    // four domains in turn along a 10 x 10 grid of loci 500 px apart
    const g = emptyGraph("s");
    const positions = new Map<string, Point>();
    const domains = ["act", "group", "state", "artifact"];
    for (let i = 0; i < 100; i++) {
      const id = `L${i}`;
      g.order.push(id);
      g.loci[id] = { ...locus(id, `c ${i}`, { domains: [domains[i % 4]] }), kind: "locus", parentId: null, firstStep: i } as MapLocus;
      positions.set(id, { x: (i % 10) * 500, y: Math.floor(i / 10) * 500 });
    }
    const rs = regionsOf(g, positions, 420, 3);
    // every locus in one region at most: the regions share none; each says its two commonest
    // domains, and mixed squares are not merged into one region as large as the map
    expect(rs.reduce((n, r) => n + r.count, 0)).toBeLessThanOrEqual(100);
    expect(rs.length).toBeGreaterThan(1);
    for (const r of rs) expect(r.domain).toMatch(/^\w+ \/ \w+$/);
  });

  it("picks the seed, the most visited and the crystals' breads as the loci to label", () => {
    const { g, positions } = clumped([["animal", { x: 0, y: 0 }, 12]]);
    g.crystals.C = { id: "C", insight: "i", confidence: 1, structural_type: null, status: "active", bread: ["L3", "L7"], domains: [], V: 0.7, verdict: "accepted",
      kind: "crystal", seq: 1, validated: true, review: null } as GraphState["crystals"][string];
    g.crystalOrder.push("C");
    g.loci.L5 = { ...g.loci.L5, visit_count: 9 };
    const keys = keyLoci(g, positions);
    expect(keys.map((k) => [k.id, k.why])).toEqual([
      ["L0", "seed"],
      ["L3", "crystal"],
      ["L7", "crystal"],
      ["L5", "hub"],
    ]);
  });

  it("hulls a square's points to its four corners", () => {
    const h = convexHull([{ x: 0, y: 0 }, { x: 1, y: 0 }, { x: 1, y: 1 }, { x: 0, y: 1 }, { x: 0.5, y: 0.5 }]);
    expect(h).toHaveLength(4);
  });

  it("moves a smaller region's label off a larger one's it would cover", () => {
    const r = (domain: string, count: number, x: number, y: number): Region => ({ id: domain, domain, count, centre: { x, y }, hull: [] });
    const [a, b, c] = placeLabels([r("phenomenon", 42, 0, 0), r("attribute", 30, 20, 10), r("time", 12, 5000, 0)], 0.2);
    expect(a).toEqual({ x: 0, y: 0 });
    expect(b).not.toBeNull();
    expect(Math.abs(b!.y - 10)).toBeGreaterThanOrEqual(26 / 0.2); // a row down (or up), on screen
    expect(c).toEqual({ x: 5000, y: 0 }); // far away: where it is
  });
});
