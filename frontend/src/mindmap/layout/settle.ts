// The short force simulation that settles new nodes among their fixed neighbours (why it is
// not d3-force's own simulation: see settle's comment).
import { hash, nearestFirst, type Placed } from "./placement";
import type { LayoutLink, LayoutNode, LayoutOptions, Point } from "./types";

/** Radius below which a node is a ghost-like satellite. */
export const SMALL = 10;

/**
 * A short force simulation of the batch's nodes among their fixed neighbours (the forces of
 * d3-force's link, many-body and collide, with its velocity Verlet and alpha decay), in
 * place on `at`. Only the movers are integrated: the fixed nodes never move, so their
 * forces need not be computed, and a settling costs the same at 50 or 5,000 nodes (a d3
 * simulation per node spent most of a long walk's catch-up on the fixed nodes: d3-force's
 * simulation computes every body's forces at every tick, the fixed ones included, and its
 * many-body force builds a quadtree per tick; 300 settlings among 48 fixed neighbours took
 * 385 ms here and 5.8 s with d3-force's simulation, back to back on the loaded two-core
 * machine. d3-force is no longer a dependency).
 */
export function settle(placed: Placed & { incident: Map<string, LayoutLink[]> }, opts: LayoutOptions, movers: LayoutNode[], at: Map<string, Point>): void {
  if (movers.length === 0) return;
  const b = bodies(placed, opts, movers, at);
  const sp = springs(placed, opts, b);
  const ticks = movers.length > 1 ? opts.ticks * 2 : opts.ticks;
  const decay = 1 - Math.pow(0.001, 1 / 300);
  let alpha = 0.6;
  for (let t = 0; t < ticks; t++) {
    alpha += -alpha * decay;
    pull(b, sp, alpha, t);
    repel(b, alpha, t);
    collide(b, t);
    const { X, Y, VX, VY } = b;
    for (let i = 0; i < b.nm; i++) {
      X[i] += VX[i] *= 0.6;
      Y[i] += VY[i] *= 0.6;
    }
  }
  for (let i = 0; i < b.nm; i++) at.set(b.ids[i], { x: b.X[i], y: b.Y[i] });
}

/** The simulation's bodies as flat arrays, movers first (0 .. nm-1), then the fixed
 * neighbours: the same arithmetic in the same order as d3-force's objects, without their
 * lookups. Q: charge, CR: collision radius, H: the id's hash (for the jiggle). */
interface Bodies {
  ids: string[];
  rs: number[];
  index: Map<string, number>;
  nm: number;
  n: number;
  X: Float64Array;
  Y: Float64Array;
  VX: Float64Array;
  VY: Float64Array;
  Q: Float64Array;
  CR: Float64Array;
  H: Float64Array;
}

/** The movers, and the fixed nodes within reach of one, the MAX_NEAR nearest to one (by
 * distance, then in the order found: the same for a replay as for the live walk). */
function bodies(placed: Placed, opts: LayoutOptions, movers: LayoutNode[], at: Map<string, Point>): Bodies {
  const reach = opts.neighbourhood;
  const nm = movers.length;
  const ids: string[] = [];
  const rs: number[] = [];
  const px: number[] = [];
  const py: number[] = [];
  const index = new Map<string, number>();
  for (const n of movers) {
    const p = at.get(n.id)!;
    index.set(n.id, ids.length);
    ids.push(n.id);
    rs.push(n.r);
    px.push(p.x);
    py.push(p.y);
  }
  const found: { id: string; p: Point; d2: number }[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < nm; i++) {
    const near = placed.nearAll({ x: px[i], y: py[i] }, reach);
    for (let m = 0; m < near.ids.length; m++) {
      const id = near.ids[m];
      if (index.has(id) || seen.has(id)) continue;
      seen.add(id);
      const p = near.pts[m];
      let d2 = Infinity;
      for (let j = 0; j < nm; j++) d2 = Math.min(d2, (px[j] - p.x) ** 2 + (py[j] - p.y) ** 2);
      if (d2 < reach * reach) found.push({ id, p, d2 });
    }
  }
  for (const { id, p } of nearestFirst(found)) {
    index.set(id, ids.length);
    ids.push(id);
    rs.push(placed.radii.get(id) ?? 20);
    px.push(p.x);
    py.push(p.y);
  }
  const n = ids.length;
  const b: Bodies = { ids, rs, index, nm, n, X: Float64Array.from(px), Y: Float64Array.from(py), VX: new Float64Array(n), VY: new Float64Array(n), Q: new Float64Array(n), CR: new Float64Array(n), H: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    const r = rs[i];
    b.Q[i] = r < SMALL ? opts.charge / 3 : opts.charge;
    // satellites get room for their labels, which are wider than their dots
    b.CR[i] = r + (r < SMALL ? opts.padding * 1.7 : opts.padding);
    b.H[i] = hash(ids[i]);
  }
  return b;
}

/** The links with a mover at one end and both ends in the simulation: ends (ls, lt), rest
 * length (ld), and d3's bias, which splits a link's pull by the ends' degrees (counted over
 * the simulation's links). */
interface Springs {
  ls: number[];
  lt: number[];
  ld: number[];
  bias: number[];
}

function springs(placed: { incident: Map<string, LayoutLink[]> }, opts: LayoutOptions, b: Bodies): Springs {
  const { ids, index, rs, nm } = b;
  const ls: number[] = [];
  const lt: number[] = [];
  const ld: number[] = [];
  const degree = new Map<number, number>();
  const linkSeen = new Set<LayoutLink>();
  for (let k = 0; k < b.n; k++)
    for (const l of placed.incident.get(ids[k]) ?? []) {
      if (linkSeen.has(l)) continue;
      linkSeen.add(l);
      const s = index.get(l.source);
      const t = index.get(l.target);
      if (s === undefined || t === undefined || (s >= nm && t >= nm)) continue;
      degree.set(s, (degree.get(s) ?? 0) + 1);
      degree.set(t, (degree.get(t) ?? 0) + 1);
      const small = rs[s] < SMALL || rs[t] < SMALL;
      ls.push(s);
      lt.push(t);
      ld.push(rs[s] + rs[t] + opts.linkDistance * (small ? 1.15 : 1));
    }
  const bias = ls.map((s, k) => degree.get(s)! / (degree.get(s)! + degree.get(lt[k])!));
  return { ls, lt, ld, bias };
}

/** The links' pull (strength 0.5). */
function pull(b: Bodies, sp: Springs, alpha: number, t: number): void {
  const { X, Y, VX, VY, H, nm } = b;
  const { ls, lt, ld, bias } = sp;
  const nl = ls.length;
  for (let k = 0; k < nl; k++) {
    const s = ls[k];
    const e = lt[k];
    let x = X[e] + VX[e] - X[s] - VX[s] || jiggleH(H[s], t);
    let y = Y[e] + VY[e] - Y[s] - VY[s] || jiggleH(H[e], t);
    let len = Math.sqrt(x * x + y * y);
    len = ((len - ld[k]) / len) * alpha * 0.5;
    x *= len;
    y *= len;
    if (e < nm) {
      VX[e] -= x * bias[k];
      VY[e] -= y * bias[k];
    }
    if (s < nm) {
      VX[s] += x * (1 - bias[k]);
      VY[s] += y * (1 - bias[k]);
    }
  }
}

/** The many-body force (exact, within distanceMax). */
function repel(b: Bodies, alpha: number, t: number): void {
  const { X, Y, VX, VY, H, Q, nm, n } = b;
  const maxD2 = 380 * 380;
  for (let i = 0; i < nm; i++)
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      let x = X[j] - X[i];
      let y = Y[j] - Y[i];
      let l = x * x + y * y;
      if (l >= maxD2) continue;
      if (x === 0) l += (x = jiggleH(H[i], t)) * x;
      if (y === 0) l += (y = jiggleH(H[j], t)) * y;
      if (l < 1) l = Math.sqrt(l);
      const k = (Q[j] * alpha) / l;
      VX[i] += x * k;
      VY[i] += y * k;
    }
}

/** Collisions (strength 0.9, two iterations), on the positions the velocities lead to. */
function collide(b: Bodies, t: number): void {
  const { X, Y, VX, VY, H, CR, nm, n } = b;
  for (let it = 0; it < 2; it++)
    for (let i = 0; i < nm; i++) {
      const ri = CR[i];
      const xi = X[i] + VX[i];
      const yi = Y[i] + VY[i];
      for (let j = 0; j < n; j++) {
        if (j === i || (j < nm && j < i)) continue;
        const rj = CR[j];
        const r = ri + rj;
        let x = xi - X[j] - VX[j];
        let y = yi - Y[j] - VY[j];
        let l = x * x + y * y;
        if (l >= r * r) continue;
        if (x === 0) l += (x = jiggleH(H[i], t + it)) * x;
        if (y === 0) l += (y = jiggleH(H[j], t + it)) * y;
        l = Math.sqrt(l);
        l = ((r - l) / l) * 0.9;
        x *= l;
        y *= l;
        const share = (rj * rj) / (ri * ri + rj * rj);
        VX[i] += x * share;
        VY[i] += y * share;
        if (j < nm) {
          VX[j] -= x * (1 - share);
          VY[j] -= y * (1 - share);
        }
      }
    }
}

/** A tiny deterministic nudge for coincident nodes (d3 uses Math.random), from the hash of
 * the node's id. */
function jiggleH(h: number, t: number): number {
  return (((h + t * 7919) % 1000) / 1000 - 0.5) * 1e-6;
}

