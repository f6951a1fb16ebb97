// @vitest-environment node
import { describe, expect, it } from "vitest";
import { IncrementalLayout } from "./force";
import { SpatialGrid } from "./grid";
import { kthLeast } from "./placement";
import type { LayoutLink, LayoutNode } from "./types";

function chain(n: number): { nodes: LayoutNode[]; links: LayoutLink[] } {
  const nodes: LayoutNode[] = Array.from({ length: n }, (_, i) => ({ id: `n${i}`, parentId: i ? `n${i - 1}` : null, r: 18, label: `c${i}` }));
  const links = nodes.slice(1).map((x) => ({ source: x.parentId!, target: x.id }));
  return { nodes, links };
}
const dist = (a: { x: number; y: number }, b: { x: number; y: number }) => Math.hypot(a.x - b.x, a.y - b.y);

describe("IncrementalLayout placing new nodes", () => {
  it("never moves nodes it has placed; only new nodes move", () => {
    const lay = new IncrementalLayout();
    const first = lay.update(chain(4).nodes, chain(4).links);
    const before = new Map([...first].map(([k, v]) => [k, { ...v }]));
    for (let n = 5; n <= 12; n++) {
      const { nodes, links } = chain(n);
      const pos = lay.update(nodes, links);
      for (const [id, p] of before) expect(pos.get(id)).toEqual(p);
      before.set(`n${n - 1}`, { ...pos.get(`n${n - 1}`)! });
    }
    expect(lay.runs).toBe(4 + 8); // one settling per new node, none for the placed ones
  });

  it("places a new node near its parent and away from the others", () => {
    const lay = new IncrementalLayout();
    const { nodes, links } = chain(8);
    const pos = lay.update(nodes, links);
    for (const n of nodes.slice(1)) {
      const d = dist(pos.get(n.id)!, pos.get(n.parentId!)!);
      expect(d).toBeGreaterThan(36); // no overlap with the parent
      expect(d).toBeLessThan(400); // but next to it
    }
    const ids = nodes.map((n) => n.id);
    for (let i = 0; i < ids.length; i++)
      for (let j = i + 1; j < ids.length; j++) expect(dist(pos.get(ids[i])!, pos.get(ids[j])!)).toBeGreaterThan(30);
  });

  it("uses both dimensions: a long walk does not come out as a straight line", () => {
    const { nodes, links } = chain(12);
    const pos = new IncrementalLayout().update(nodes, links);
    const xs = nodes.map((n) => pos.get(n.id)!.x);
    const ys = nodes.map((n) => pos.get(n.id)!.y);
    const span = (v: number[]) => Math.max(...v) - Math.min(...v);
    expect(Math.min(span(xs), span(ys))).toBeGreaterThan(150);
  });

  it("fans a step's candidates around their parent without overlaps", () => {
    const lay = new IncrementalLayout();
    const { nodes, links } = chain(3);
    const ghosts: LayoutNode[] = Array.from({ length: 8 }, (_, i) => ({ id: `g${i}`, parentId: "n2", r: 7, label: `cand ${i}`, group: "candidates:3" }));
    const pos = lay.update([...nodes, ...ghosts], [...links, ...ghosts.map((g) => ({ source: "n2", target: g.id }))]);
    const all = [...nodes, ...ghosts];
    for (const g of ghosts) {
      const d = dist(pos.get(g.id)!, pos.get("n2")!);
      expect(d).toBeGreaterThan(40);
      expect(d).toBeLessThan(320);
    }
    for (let i = 0; i < all.length; i++)
      for (let j = i + 1; j < all.length; j++) expect(dist(pos.get(all[i].id)!, pos.get(all[j].id)!)).toBeGreaterThan(all[i].r + all[j].r + 10);
  });
});

describe("IncrementalLayout when nodes go", () => {
  it("does not run the simulation when nothing is new, and forgets removed nodes", () => {
    const lay = new IncrementalLayout();
    const { nodes, links } = chain(3);
    lay.update(nodes, links);
    expect(lay.runs).toBe(3);
    const again = lay.update(nodes, links);
    expect(lay.runs).toBe(3);
    expect(again.size).toBe(3);
    const fewer = lay.update(nodes.slice(0, 2), links.slice(0, 1));
    expect(fewer.has("n2")).toBe(false);
    expect(lay.runs).toBe(3);
  });

  it("lets a chosen candidate take the place of its ghost", () => {
    const lay = new IncrementalLayout();
    const { nodes, links } = chain(3);
    const ghost: LayoutNode = { id: "ghost:3:0", parentId: "n2", r: 7, label: "river" };
    const p1 = lay.update([...nodes, ghost], [...links, { source: "n2", target: ghost.id }]);
    const ghostAt = p1.get(ghost.id)!;
    const real: LayoutNode = { id: "n3", parentId: "n2", r: 18, label: "river" };
    const p2 = lay.update([...nodes, real], [...links, { source: "n2", target: "n3" }]);
    expect(p2.has(ghost.id)).toBe(false);
    expect(dist(p2.get("n3")!, ghostAt)).toBeLessThan(120);
  });
});

describe("IncrementalLayout replayed and live", () => {
  it("lays out a replayed walk the same way as a live one (node by node)", () => {
    const { nodes, links } = chain(10);
    const batch = new IncrementalLayout().update(nodes, links);
    const live = new IncrementalLayout();
    let last = new Map<string, { x: number; y: number }>();
    for (let n = 1; n <= 10; n++) last = live.update(nodes.slice(0, n), links.slice(0, n - 1));
    for (const n of nodes) {
      expect(batch.get(n.id)!.x).toBeCloseTo(last.get(n.id)!.x, 6);
      expect(batch.get(n.id)!.y).toBeCloseTo(last.get(n.id)!.y, 6);
    }
  });

  it("past denseFrom placed loci, places a node in its freest direction without settling it, the same live as replayed, whatever candidates came and went", () => {
    const { nodes, links } = chain(40);
    const opts = { denseFrom: 20 };
    const batch = new IncrementalLayout(opts).update(nodes, links);
    const live = new IncrementalLayout(opts);
    for (let n = 1; n <= 40; n++) {
      // each step with its candidates, gone at the next step (they count for nothing)
      const ghosts: LayoutNode[] = [0, 1, 2].map((i) => ({ id: `g${n}:${i}`, parentId: `n${n - 1}`, r: 7, label: `cand ${n} ${i}`, group: `candidates:${n}` }));
      live.update([...nodes.slice(0, n), ...ghosts], [...links.slice(0, n - 1), ...ghosts.map((g) => ({ source: g.parentId!, target: g.id }))]);
    }
    const last = live.update(nodes, links);
    for (const n of nodes) {
      expect(batch.get(n.id)!.x).toBeCloseTo(last.get(n.id)!.x, 6);
      expect(batch.get(n.id)!.y).toBeCloseTo(last.get(n.id)!.y, 6);
    }
    // settled nodes sit where the simulation left them; a dense map's exactly a link from its parent
    const fromParent = (i: number) => dist(batch.get(`n${i}`)!, batch.get(`n${i - 1}`)!);
    const linkAway = 18 + 18 + 120;
    expect(nodes.slice(1, 20).some((_, k) => Math.abs(fromParent(k + 1) - linkAway) > 0.5)).toBe(true);
    for (let i = 21; i < 40; i++) expect(fromParent(i)).toBeCloseTo(linkAway, 6);
  });

  it("lays out a live walk whose links are the same objects from step to step as one given new links every time", () => {
    // the layout keeps its links by node between updates and changes them from the first link
    // that differs (a step appends one; candidates come and go; a link may go from the middle)
    // a walk that branches off earlier loci now and then (so that drawn edges count)
    let seed = 7;
    const rnd = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const nodes: LayoutNode[] = [{ id: "n0", parentId: null, r: 18, label: "c0" }];
    for (let i = 1; i < 120; i++) nodes.push({ id: `n${i}`, parentId: rnd() < 0.7 ? `n${i - 1}` : `n${Math.floor(rnd() * i)}`, r: 12 + (i % 4) * 3, label: `c${i}` });
    const links = nodes.slice(1).map((x) => ({ source: x.parentId!, target: x.id }));
    const reused = new IncrementalLayout();
    const fresh = new IncrementalLayout();
    const extra: LayoutLink = { source: "n3", target: "x" };
    const steps: { nodes: LayoutNode[]; links: LayoutLink[] }[] = [];
    for (let k = 2; k <= 120; k += k < 20 ? 1 : 7) {
      const ghosts: LayoutNode[] = Array.from({ length: 3 }, (_, i) => ({ id: `g${k}:${i}`, parentId: `n${k - 1}`, r: 7, label: `cand ${k} ${i}`, group: `candidates:${k}` }));
      const ns = [...nodes.slice(0, k), ...ghosts];
      const ls = [...links.slice(0, k - 1), ...ghosts.map((g) => ({ source: g.parentId!, target: g.id }))];
      // a node linked from the middle of the list for a while (as a crystal's bread is)
      if (k >= 10 && k < 20) {
        ns.push({ id: "x", parentId: "n3", r: 21 });
        ls.splice(5, 0, extra);
      }
      steps.push({ nodes: ns, links: ls });
    }
    for (const st of steps) {
      const a = reused.update(st.nodes, st.links);
      const b = fresh.update(st.nodes, st.links.map((l) => ({ ...l })));
      expect([...a.entries()]).toEqual([...b.entries()]);
    }
    // and the same again once the first list is given back unchanged
    const last = steps[steps.length - 1];
    expect([...reused.update(last.nodes, last.links).entries()]).toEqual([...fresh.update(last.nodes, last.links).entries()]);
  });
});

describe("IncrementalLayout's positions across live steps", () => {
  it("hands out the same map grown by the new nodes, and a new one once a node goes or a pin moves one", () => {
    const lay = new IncrementalLayout();
    const { nodes, links } = chain(6);
    const p3 = lay.update(nodes.slice(0, 3), links.slice(0, 2));
    const p4 = lay.update(nodes.slice(0, 4), links.slice(0, 3));
    expect(p4).toBe(p3); // grown, not copied
    expect([...p4.keys()]).toEqual(["n0", "n1", "n2", "n3"]);
    // a node pinned before it is laid out comes in at its pin
    lay.pin("n4", { x: 999, y: -999 });
    const p5 = lay.update(nodes.slice(0, 5), links.slice(0, 4));
    expect(p5).toBe(p4);
    expect(p5.get("n4")).toEqual({ x: 999, y: -999 });
    // a pin that moves a placed node: a new map (the one handed out before keeps its point)
    const before = p5.get("n1");
    lay.pin("n1", { x: -500, y: 500 });
    const moved = lay.update(nodes.slice(0, 5), links.slice(0, 4));
    expect(moved).not.toBe(p5);
    expect(moved.get("n1")).toEqual({ x: -500, y: 500 });
    expect(p5.get("n1")).toBe(before);
    // a node that goes: a new map without it
    const fewer = lay.update(nodes.slice(0, 4), links.slice(0, 3));
    expect(fewer).not.toBe(moved);
    expect(fewer.has("n4")).toBe(false);
    expect(moved.has("n4")).toBe(true);
  });
});

describe("IncrementalLayout.adopt (a layout moved between the page and its worker)", () => {
  /** A walk of `n` loci (mostly onward, sometimes on from an earlier one) and each step's
   * three candidates, as the map hands them: the candidates go at the next step. */
  function walk(n: number): { nodes: LayoutNode[]; links: LayoutLink[] }[] {
    let seed = 7;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const nodes: LayoutNode[] = [{ id: "n0", parentId: null, r: 18, label: "c0" }];
    const links: LayoutLink[] = [];
    const steps: { nodes: LayoutNode[]; links: LayoutLink[] }[] = [];
    for (let i = 1; i < n; i++) {
      const from = rnd() < 0.8 ? `n${i - 1}` : `n${Math.floor(rnd() * i)}`;
      nodes.push({ id: `n${i}`, parentId: from, r: 14 + (i % 4) * 2, label: `c${i}` });
      links.push({ source: from, target: `n${i}` });
      const ghosts = [0, 1, 2].map((k) => ({ id: `g:${i}:${k}`, parentId: `n${i}`, r: 7, label: `c${i + 1 + k}`, group: `cand:${i}` }));
      steps.push({ nodes: [...nodes, ...ghosts], links: [...links, ...ghosts.map((g) => ({ source: `n${i}`, target: g.id }))] });
    }
    return steps;
  }

  it("goes on placing exactly as the layout it took over would have", () => {
    const steps = walk(90);
    const whole = new IncrementalLayout({ denseFrom: 60 });
    const first = new IncrementalLayout({ denseFrom: 60 });
    for (const s of steps.slice(0, 40)) {
      whole.update(s.nodes, s.links);
      first.update(s.nodes, s.links);
    }
    const at = steps[39];
    const taken = IncrementalLayout.adopt(at.nodes, at.links, new Map(first.positions), {}, { denseFrom: 60 });
    for (const s of steps.slice(40)) expect([...taken.update(s.nodes, s.links)]).toEqual([...whole.update(s.nodes, s.links)]);
  });
});

describe("the placement's helpers", () => {
  it("kthLeast gives the value a sort gives at that index, ties included", () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (const n of [1, 2, 5, 48, 49, 300]) {
      const xs = Array.from({ length: n }, () => Math.floor(rnd() * 40));
      const sorted = [...xs].sort((a, b) => a - b);
      for (const k of [0, Math.floor(n / 2), n - 1]) expect(kthLeast(Float64Array.from(xs), k)).toBe(sorted[k]);
    }
  });

  it("the grid gives each node near a point with its position and radius, in the order filed; a move within a cell keeps its place", () => {
    const g = new SpatialGrid();
    g.put("a", { x: 10, y: 10 });
    g.put("b", { x: 20, y: 20 });
    g.put("c", { x: 1000, y: 1000 });
    g.setRadius("a", 30);
    g.put("a", { x: 12, y: 12 }); // the same cell: a keeps its place and radius
    const near = g.nearAll({ x: 0, y: 0 }, 100);
    expect(near.ids).toEqual(["a", "b"]);
    expect(near.pts).toEqual([{ x: 12, y: 12 }, { x: 20, y: 20 }]);
    expect(near.rs).toEqual([30, 20]);
    g.put("a", { x: 300, y: 10 }); // another cell, and back: filed last
    g.put("a", { x: 11, y: 11 });
    expect(g.nearAll({ x: 0, y: 0 }, 100).ids).toEqual(["b", "a"]);
    expect(g.nearAll({ x: 0, y: 0 }, 100).rs).toEqual([20, 30]);
    g.remove("b");
    expect(g.near({ x: 0, y: 0 }, 100)).toEqual(["a"]);
  });
});
