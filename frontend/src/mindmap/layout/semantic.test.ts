// @vitest-environment node
import { describe, expect, it } from "vitest";
import { ease, frameAt, interpolate, parentsOf, semanticScale, semanticTargets, toScreen } from "./semantic";

describe("semantic (UMAP) layout: scaling to the viewport", () => {
  it("fills the viewport less a margin at zoom 1, with the viewport's proportions", () => {
    expect(semanticScale(5, { width: 1200, height: 800 })).toEqual({ sx: 540, sy: 340 });
    expect(semanticScale(5, { width: 600, height: 900 })).toEqual({ sx: 240, sy: 390 });
  });

  it("grows past the viewport when loci would crowd, keeping the proportions and ~150x150 px per locus", () => {
    const box = { width: 1200, height: 800 };
    const small = semanticScale(5, box);
    const big = semanticScale(400, box);
    expect(big.sx / big.sy).toBeCloseTo(small.sx / small.sy, 9);
    expect(big.sx).toBeGreaterThan(small.sx);
    expect(4 * big.sx * big.sy).toBeCloseTo(400 * 150 * 150, 6); // the picture's area
  });

  it("uses a default box before the map has been measured, and never a degenerate one", () => {
    expect(semanticScale(3, null)).toEqual({ sx: 440, sy: 290 });
    expect(semanticScale(3, { width: 0, height: 0 })).toEqual({ sx: 440, sy: 290 });
    expect(semanticScale(1, { width: 100, height: 100 })).toEqual({ sx: 120, sy: 120 });
  });

  it("flips y: the projection's y grows upwards, the screen's downwards", () => {
    expect(toScreen({ x: 0.5, y: 0.25 }, { sx: 200, sy: 100 })).toEqual({ x: 100, y: -25 });
    expect(toScreen({ x: -1, y: -1 }, { sx: 200, sy: 100 })).toEqual({ x: -200, y: 100 });
    expect(toScreen({ x: 0, y: 0 }, { sx: 200, sy: 100 })).toEqual({ x: 0, y: 0 });
  });
});

describe("semantic (UMAP) layout targets", () => {
  const scale = { sx: 100, sy: 100 };
  const flow = new Map([
    ["a", { x: 0, y: 0 }],
    ["b", { x: 100, y: 0 }],
    ["ghost", { x: 100, y: 40 }],
    ["new", { x: 0, y: 90 }],
    ["newer", { x: 20, y: 150 }],
    ["crystal:c", { x: 60, y: -30 }],
    ["orphan", { x: 7, y: 8 }],
  ]);
  const projection = new Map([
    ["a", { x: -1, y: 1 }],
    ["b", { x: 0.5, y: 0 }],
  ]);
  const parents = { a: null, b: "a", ghost: "b", new: "a", newer: "new", "crystal:c": "b", orphan: null };

  it("puts projected loci at their scaled point and the rest by their nearest projected ancestor", () => {
    const t = semanticTargets(flow, projection, parents, scale);
    expect(t.get("a")).toEqual({ x: -100, y: -100 });
    expect(t.get("b")).toEqual({ x: 50, y: 0 });
    expect(t.get("ghost")).toEqual({ x: 50, y: 20 }); // half its offset from b
    expect(t.get("crystal:c")).toEqual({ x: 30, y: -15 });
    expect(t.get("new")).toEqual({ x: -100, y: -55 }); // a locus not projected yet, under a
    expect(t.get("newer")).toEqual({ x: -90, y: -25 }); // its parent is not projected either: by a
    expect(t.get("orphan")).toEqual({ x: 7, y: 8 }); // nothing projected above it: where flow put it
    expect([...t.keys()].sort()).toEqual([...flow.keys()].sort());
  });

  it("does not loop on a cycle of parents", () => {
    const t = semanticTargets(new Map([["x", { x: 1, y: 2 }], ["y", { x: 3, y: 4 }]]), new Map(), { x: "y", y: "x" }, scale);
    expect(t.get("x")).toEqual({ x: 1, y: 2 });
  });

  it("reads parents off the layout nodes", () => {
    expect(parentsOf([{ id: "a", parentId: null, r: 10 }, { id: "b", parentId: "a", r: 10 }])).toEqual({ a: null, b: "a" });
  });
});

describe("the animated transition between layouts", () => {
  it("eases in and out between 0 and 1, clamped", () => {
    expect(ease(0)).toBe(0);
    expect(ease(0.5)).toBe(0.5);
    expect(ease(1)).toBe(1);
    expect(ease(-1)).toBe(0);
    expect(ease(2)).toBe(1);
    expect(ease(0.25)).toBe(0.125); // slow start
    expect(ease(0.75)).toBe(0.875); // slow end
  });

  it("interpolates every node on the line between where it was and where it goes", () => {
    const from = new Map([
      ["a", { x: 0, y: 0 }],
      ["b", { x: 100, y: -50 }],
      ["gone", { x: 9, y: 9 }],
    ]);
    const to = new Map([
      ["a", { x: 200, y: 100 }],
      ["b", { x: 100, y: 50 }],
      ["fresh", { x: 30, y: 40 }],
    ]);
    const mid = interpolate(from, to, 0.5);
    expect(mid.get("a")).toEqual({ x: 100, y: 50 });
    expect(mid.get("b")).toEqual({ x: 100, y: 0 });
    expect(mid.get("fresh")).toEqual({ x: 30, y: 40 }); // a new node appears at its place
    expect(mid.has("gone")).toBe(false);
    expect(interpolate(from, to, 0).get("a")).toEqual({ x: 0, y: 0 });
    expect(interpolate(from, to, 1)).toEqual(to);
  });

  it("gives the frame at a time into the transition, ending exactly on the target", () => {
    const from = new Map([["a", { x: 0, y: 0 }]]);
    const to = new Map([["a", { x: 400, y: -200 }]]);
    expect(frameAt(from, to, 0, 500).get("a")).toEqual({ x: 0, y: 0 });
    expect(frameAt(from, to, 125, 500).get("a")).toEqual({ x: 50, y: -25 }); // a quarter of the time, an eighth of the way
    expect(frameAt(from, to, 250, 500).get("a")).toEqual({ x: 200, y: -100 });
    expect(frameAt(from, to, 500, 500).get("a")).toEqual({ x: 400, y: -200 });
    expect(frameAt(from, to, 900, 500).get("a")).toEqual({ x: 400, y: -200 });
  });
});
