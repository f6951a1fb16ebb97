import { describe, expect, it } from "vitest";
import type { Edge, Node } from "@xyflow/react";
import { clipToWindow, flowPart, wrap } from "./FarCanvas";

describe("clipToWindow (the part of the map the canvas draws)", () => {
  const b = { x: 0, y: 0, w: 1000, h: 500 };

  it("is the whole box without a window", () => {
    expect(clipToWindow(b, null)).toBe(b);
  });

  it("is the overlap of the box and the window", () => {
    expect(clipToWindow(b, { x0: 200, x1: 1600, y0: -100, y1: 300, zoom: 1 })).toEqual({ x: 200, y: 0, w: 800, h: 300 });
    expect(clipToWindow(b, { x0: -50, x1: 2000, y0: -50, y1: 900, zoom: 0.1 })).toEqual(b);
  });

  it("is null when they do not meet", () => {
    expect(clipToWindow(b, { x0: 1000, x1: 1200, y0: 0, y1: 100, zoom: 1 })).toBeNull();
    expect(clipToWindow(b, { x0: 0, x1: 100, y0: -300, y1: -1, zoom: 1 })).toBeNull();
  });
});

describe("wrap (a label's lines)", () => {
  // 10 px per character
  const ctx = { measureText: (t: string) => ({ width: t.length * 10 }) as TextMetrics };

  it("keeps a label that fits on one line", () => {
    expect(wrap(ctx, "information asymmetry", 300)).toEqual(["information asymmetry"]);
  });

  it("breaks a longer one between words", () => {
    expect(wrap(ctx, "a very long concept name", 120)).toEqual(["a very long", "concept name"]);
  });

  it("gives a word wider than the limit a line of its own", () => {
    expect(wrap(ctx, "x incomprehensibilities y", 100)).toEqual(["x", "incomprehensibilities", "y"]);
  });
});

describe("flowPart (what React Flow holds of a map drawn on the canvas)", () => {
  const node = (id: string, type: string) => ({ id, type, position: { x: 0, y: 0 }, data: {} }) as Node;
  const edge = (source: string, target: string) => ({ id: `${source}>${target}`, source, target }) as Edge;
  const nodes = [node("a", "locus"), node("b", "locus"), node("c", "locus"), node("d", "locus"), node("g", "ghost"), node("k", "crystal")];
  const edges = [edge("a", "b"), edge("b", "c"), edge("c", "d"), edge("a", "g"), edge("d", "k")];

  it("keeps the loci asked for, every node that is not a locus, and the loci tied to those", () => {
    const part = flowPart(nodes, edges, (id) => id === "b");
    expect(part.nodes.map((n) => n.id)).toEqual(["a", "b", "d", "g", "k"]);
  });

  it("keeps only the edges with both ends held (the canvas draws the others)", () => {
    expect(flowPart(nodes, edges, (id) => id === "b").edges.map((e) => e.id)).toEqual(["a>b", "a>g", "d>k"]);
    expect(flowPart(nodes, edges, (id) => id === "c").edges.map((e) => e.id)).toEqual(["c>d", "a>g", "d>k"]);
  });

  it("with no locus kept, holds only what the other nodes tie to", () => {
    const part = flowPart(nodes, edges, () => false);
    expect(part.nodes.map((n) => n.id)).toEqual(["a", "d", "g", "k"]);
    expect(part.edges.map((e) => e.id)).toEqual(["a>g", "d>k"]);
  });
});
