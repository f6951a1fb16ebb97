import { describe, expect, it } from "vitest";
import type { Edge, Node } from "@xyflow/react";
import { emptyGraph, type GraphState } from "../store";
import { clipToWindow, farBounds, flowPart, grownExtent } from "./FarCanvas";
import { addedSince, drawFar, wrap } from "./farDraw";
import { grew } from "./layout/growth";
import { locusRadius } from "./palette";

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

/** A 2D context that counts the drawing calls (and keeps the dash of each stroke). */
function recorder() {
  const calls: Record<string, number> = {};
  const dashes: number[][] = [];
  let dash: number[] = [];
  const ctx = new Proxy(
    { canvas: document.createElement("canvas"), measureText: (t: string) => ({ width: t.length * 7 }) },
    {
      get(target, key: string) {
        if (key in target) return target[key as keyof typeof target];
        return (...args: unknown[]) => {
          calls[key] = (calls[key] ?? 0) + 1;
          if (key === "setLineDash") dash = args[0] as number[];
          if (key === "stroke") dashes.push(dash);
        };
      },
      set: () => true,
    },
  ) as unknown as CanvasRenderingContext2D;
  return { ctx, calls, dashes };
}

describe("drawFar (the edge grammar of a map drawn on the canvas)", () => {
  const locus = (id: string, domain: string) => ({ id, concept: id, domains: [domain], visit_count: 1 }) as unknown as GraphState["loci"][string];
  const graph = (): GraphState => ({
    ...emptyGraph("s"),
    loci: { a: locus("a", "biology"), b: locus("b", "economics"), c: locus("c", "economics") },
    order: ["a", "b", "c"],
    path: [
      { id: "path:1", source: "a", target: "b", step: 1, bridge: true },
      { id: "path:2", source: "b", target: "c", step: 2, bridge: false },
    ],
    resonances: { r: { id: "r", status: "confirmed", loci: ["a", "c"] } as unknown as GraphState["resonances"][string] },
  });
  const positions = new Map([
    ["a", { x: 0, y: 0 }],
    ["b", { x: 300, y: 0 }],
    ["c", { x: 300, y: 300 }],
  ]);
  const box = { x: -50, y: -50, w: 400, h: 400 };

  it("draws a bridge as two rails when labels show, one line further out", () => {
    const near = recorder();
    drawFar(near.ctx, { graph: graph(), positions, onTop: new Set() }, box, 1, true);
    // the bridge's two rails and the other step's line, and two sides of each arrow head
    expect(near.calls.lineTo).toBe(3 + 2 * 2);
    const far = recorder();
    drawFar(far.ctx, { graph: graph(), positions, onTop: new Set() }, box, 0.2, false);
    expect(far.calls.lineTo).toBe(2);
  });

  it("draws a confirmed resonance as the SVG edge's wave, dashed (and still)", () => {
    const r = recorder();
    drawFar(r.ctx, { graph: graph(), positions, onTop: new Set() }, box, 1, true);
    const len = Math.hypot(300, 300) - 2 * locusRadius(1);
    expect(r.calls.quadraticCurveTo).toBe(Math.round(len / 28));
    expect(r.dashes).toContainEqual([6, 4]);
  });

  it("draws a bridge between loci off the path as BridgeEdge's amber dashes: two rails close in, one line further out", () => {
    const bridged = (): GraphState => ({ ...graph(), resonances: {}, bridges: { "br:c:a": { id: "br:c:a", source: "a", target: "c", bridgeType: "near across domains", strength: 0.6, step: 2 } } });
    const plain = recorder();
    drawFar(plain.ctx, { graph: { ...graph(), resonances: {} }, positions, onTop: new Set() }, box, 1, true);
    const near = recorder();
    drawFar(near.ctx, { graph: bridged(), positions, onTop: new Set() }, box, 1, true);
    expect(near.calls.lineTo - plain.calls.lineTo).toBe(2);
    expect(near.dashes).toContainEqual([5, 4]);
    const far = recorder();
    drawFar(far.ctx, { graph: bridged(), positions, onTop: new Set() }, box, 0.2, false);
    expect(far.calls.lineTo).toBe(2 + 1);
    // a live step draws only its own loci's bridges; bridges between loci on top are React Flow's
    const step = recorder();
    drawFar(step.ctx, { graph: bridged(), positions, onTop: new Set() }, box, 1, false, { edges: [], loci: ["b"] });
    expect(step.calls.lineTo ?? 0).toBe(0);
    const onTop = recorder();
    drawFar(onTop.ctx, { graph: bridged(), positions, onTop: new Set(["a", "b", "c"]) }, box, 1, true);
    expect(onTop.calls.lineTo ?? 0).toBe(0);
  });

  it("leaves to React Flow what it draws: edges between loci on top", () => {
    const r = recorder();
    drawFar(r.ctx, { graph: graph(), positions, onTop: new Set(["a", "b", "c"]) }, box, 1, true);
    expect(r.calls.lineTo ?? 0).toBe(0);
    expect(r.calls.quadraticCurveTo ?? 0).toBe(0);
  });
});

describe("addedSince (a live step drawn over the picture, not the whole area again)", () => {
  const locus = (id: string, visits = 1) => ({ id, concept: id, domains: ["act"], visit_count: visits }) as unknown as GraphState["loci"][string];
  const edge = (s: string, t: string, step: number) => ({ id: `path:${step}`, source: s, target: t, step, bridge: false });
  const positions = new Map([
    ["a", { x: 0, y: 0 }],
    ["b", { x: 100, y: 0 }],
    ["c", { x: 200, y: 0 }],
    ["d", { x: 300, y: 0 }],
  ]);
  const before: GraphState = { ...emptyGraph("s"), loci: { a: locus("a"), b: locus("b"), c: locus("c") }, order: ["a", "b", "c"], path: [edge("a", "b", 1), edge("b", "c", 2)] };
  const pic = (g: GraphState, onTop: string[]) => ({ graph: g, positions, onTop: new Set(onTop) });

  it("a step: its edge and locus, the locus the walk left React Flow for, and the discs its edges cross", () => {
    const after: GraphState = { ...before, loci: { ...before.loci, d: locus("d") }, order: [...before.order, "d"], path: [...before.path, edge("c", "d", 3)] };
    const added = addedSince(pic(before, ["b", "c"]), pic(after, ["c", "d"]))!;
    expect(added.edges).toEqual([0, 1, 2]); // b's edges (b left React Flow) and the new one
    expect(new Set(added.loci)).toEqual(new Set(["a", "b", "c", "d"]));
  });

  it("a revisit: the revisited locus's larger disc", () => {
    const after: GraphState = { ...before, loci: { ...before.loci, a: locus("a", 2) }, path: [...before.path, edge("c", "a", 3)] };
    const added = addedSince(pic(before, []), pic(after, []))!;
    expect(added.edges).toEqual([2]);
    expect(new Set(added.loci)).toEqual(new Set(["a", "c"]));
  });

  it("loci placed since (the layout placed them after the graph had them): drawn, with their edges", () => {
    const partial = new Map([...positions].filter(([id]) => id !== "c"));
    const full = new Map(partial);
    full.set("c", positions.get("c")!);
    grew(partial, full, ["c"]);
    const added = addedSince({ graph: before, positions: partial, onTop: new Set() }, { graph: before, positions: full, onTop: new Set() })!;
    expect(added.edges).toEqual([1]);
    expect(new Set(added.loci)).toEqual(new Set(["b", "c"]));
  });

  it("nothing to add: nothing drawn", () => {
    expect(addedSince(pic(before, ["c"]), pic(before, ["c"]))).toEqual({ edges: [], loci: [] });
  });

  it("the whole picture again for another wander, moved positions, a resonance or a fence", () => {
    expect(addedSince(pic(before, []), pic({ ...before, sessionId: "t" }, []))).toBeNull();
    expect(addedSince(pic(before, []), { ...pic(before, []), positions: new Map(positions) })).toBeNull();
    expect(addedSince(pic(before, []), pic({ ...before, resonances: {} }, []))).toBeNull();
    expect(addedSince(pic(before, []), pic({ ...before, fences: [] }, []))).toBeNull();
    expect(addedSince(pic(before, []), pic({ ...before, order: ["a", "b"] }, []))).toBeNull();
  });

  it("drawn over the picture: no clearing, only what was added", () => {
    const calls: string[] = [];
    const ctx = new Proxy(
      { canvas: document.createElement("canvas"), measureText: (t: string) => ({ width: t.length * 7 }) },
      {
        get(target, key: string) {
          if (key in target) return target[key as keyof typeof target];
          return () => calls.push(key);
        },
        set: () => true,
      },
    ) as unknown as CanvasRenderingContext2D;
    const after: GraphState = { ...before, loci: { ...before.loci, d: locus("d") }, order: [...before.order, "d"], path: [...before.path, edge("c", "d", 3)] };
    drawFar(ctx, pic(after, []), { x: -50, y: -50, w: 500, h: 100 }, 1, false, { edges: [2], loci: ["c", "d"] });
    expect(calls).not.toContain("clearRect");
    expect(calls.filter((c) => c === "lineTo")).toHaveLength(1);
    expect(calls.filter((c) => c === "arc")).toHaveLength(2);
  });
});

describe("grownExtent (the canvas's box, grown at a live step)", () => {
  type Locus = GraphState["loci"][string];
  const locus = (id: string, visits = 1) => ({ id, concept: id, domains: [], visit_count: visits, kind: "locus", parentId: null, firstStep: 0 }) as unknown as Locus;
  const step = (g: GraphState, from: string, to: string, visits = 1): GraphState => {
    const loci = { ...g.loci, [to]: locus(to, visits) };
    const order = g.loci[to] ? g.order : [...g.order, to];
    const path = [...g.path, { id: `path:${g.path.length + 1}`, source: from, target: to, step: g.path.length + 1, bridge: false }];
    return { ...g, loci, order, path };
  };

  it("is farBounds' extent, computed from the last one, for new loci and a revisit at the edge; anew when positions moved", () => {
    let g: GraphState = { ...emptyGraph("s"), loci: { a: locus("a"), b: locus("b") }, order: ["a", "b"] };
    let pos = new Map([["a", { x: 0, y: 0 }], ["b", { x: 500, y: 0 }]]);
    let last = { pic: { graph: g, positions: pos, onTop: new Set<string>() }, extent: grownExtent(null, { graph: g, positions: pos, onTop: new Set() }) };
    const whole = (gr: GraphState, p: Map<string, { x: number; y: number }>) => farBounds(gr, p);
    const margin = ([x0, y0, x1, y1]: number[]) => ({ x: x0 - 20, y: y0 - 20, w: x1 - x0 + 40, h: y1 - y0 + 40 });
    // a new locus past the edge
    const g2 = step(g, "b", "c");
    const pos2 = new Map(pos).set("c", { x: 900, y: -300 });
    grew(pos, pos2, ["c"]);
    const e2 = grownExtent(last, { graph: g2, positions: pos2, onTop: new Set() });
    expect(margin(e2)).toEqual(whole(g2, pos2));
    last = { pic: { graph: g2, positions: pos2, onTop: new Set() }, extent: e2 };
    // a revisit of the locus at the edge: its disc grows, no position changes
    const g3 = step(g2, "a", "c", 2);
    const e3 = grownExtent(last, { graph: g3, positions: pos2, onTop: new Set() });
    expect(margin(e3)).toEqual(whole(g3, pos2));
    expect(e3[2]).toBe(900 + locusRadius(2));
    // a position moved (no lineage): the box is the whole one again, smaller
    g = g3;
    pos = new Map(pos2).set("c", { x: 100, y: 0 });
    expect(margin(grownExtent({ pic: { graph: g3, positions: pos2, onTop: new Set() }, extent: e3 }, { graph: g, positions: pos, onTop: new Set() }))).toEqual(whole(g, pos));
  });
});
