// Where a new node of the force layout goes: of 36 directions around its parent, the one
// clearest of other nodes whose segment crosses no drawn edge; with the small helpers the
// layout shares (the nearest few of what is found, an id's hash, batches in parent order).
import type { Found } from "./grid";
import type { LayoutLink, LayoutNode, Point } from "./types";

/** What is placed, as a placement reads it. */
export interface Placed {
  readonly positions: Map<string, Point>;
  readonly radii: Map<string, number>;
  /** Placed ids within about `radius` of `p` (a superset). */
  near(p: Point, radius: number): string[];
  /** near's ids with their positions. */
  nearAll(p: Point, radius: number): Found;
}

/** The 36 directions bestAngle tries, with their cosines and sines (the same values as
 * computing them per call: it runs for every placed node). */
const ANGLES = Array.from({ length: 36 }, (_, k) => (k / 36) * 2 * Math.PI);
const COS = ANGLES.map((a) => Math.cos(a));
const SIN = ANGLES.map((a) => Math.sin(a));
/** At most this many placed nodes, the nearest, weigh in a placement (its freest direction,
 * the edges it must not cross, the simulation that settles it): in the dense middle of a
 * long walk (20,000 loci) hundreds lie within reach, and each new node cost them all (a
 * catch-up of 20,000 loci spent 20 s in the layout). A sparser map places as before. */
export const MAX_NEAR = 48;

/** Of 36 directions around `at`, the one whose point `dist` away is clearest of other
 * nodes and whose segment from `at` crosses no drawn edge; ties go toward `prefer`. */
export function bestAngle(placed: Placed, selfId: string | null, at: Point, dist: number, prefer: number, r: number, placedLinks: LayoutLink[], dense = false): number {
  let best = prefer;
  let bestScore = -Infinity;
  const { ox, oy, orr } = obstacles(placed, selfId, at, dist + r + (dense ? 80 : 260), r);
  // the drawn edges as flat arrays, with what of the crossing test does not depend on the
  // direction (segmentsCross, term by term)
  const cx: number[] = [];
  const cy: number[] = [];
  const ex: number[] = [];
  const ey: number[] = [];
  const cdx: number[] = [];
  const cdy: number[] = [];
  const d1s: number[] = [];
  for (const l of placedLinks) {
    if (l.source === selfId || l.target === selfId) continue;
    const c = placed.positions.get(l.source)!;
    const d = placed.positions.get(l.target)!;
    const d1 = (d.x - c.x) * (at.y - c.y) - (d.y - c.y) * (at.x - c.x);
    if (!(d1 > 0 || d1 < 0)) continue; // `at` on its line: no crossing whatever the direction
    cx.push(c.x);
    cy.push(c.y);
    ex.push(d.x);
    ey.push(d.y);
    cdx.push(d.x - c.x);
    cdy.push(d.y - c.y);
    d1s.push(d1);
  }
  // (a direction whose score cannot beat the best so far is left as soon as that is sure:
  // clearance only falls and every crossing costs, so the choice is the same)
  for (let k = 0; k < 36; k++) {
    const a = ANGLES[k];
    let diff = Math.abs(a - prefer) % (2 * Math.PI);
    if (diff > Math.PI) diff = 2 * Math.PI - diff;
    const turn = 40 * (diff / Math.PI);
    if (260 - turn <= bestScore) continue;
    const pX = at.x + dist * COS[k];
    const pY = at.y + dist * SIN[k];
    let clearance = 400;
    for (let i = 0; i < ox.length; i++) {
      const dx = pX - ox[i];
      const dy = pY - oy[i];
      const c = Math.sqrt(dx * dx + dy * dy) - orr[i];
      if (c < clearance) {
        clearance = c;
        if (clearance - turn <= bestScore) break;
      }
    }
    const clear = Math.min(clearance, 260);
    if (clear - turn <= bestScore) continue;
    let crossings = 0;
    const bx = pX - at.x;
    const by = pY - at.y;
    for (let i = 0; i < cx.length; i++) {
      const d1 = d1s[i];
      const d2 = cdx[i] * (pY - cy[i]) - cdy[i] * (pX - cx[i]);
      if (!((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0))) continue;
      const d3 = bx * (cy[i] - at.y) - by * (cx[i] - at.x);
      const d4 = bx * (ey[i] - at.y) - by * (ex[i] - at.x);
      if ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) {
        crossings++;
        if (clear - 220 * crossings - turn <= bestScore) break;
      }
    }
    const score = clear - 220 * crossings - turn;
    if (score > bestScore) {
      bestScore = score;
      best = a;
    }
  }
  return best;
}

/** The nodes that can come within 260 px (the most clearance counts) of a point on the
 * circle, `reach` around `at` (the MAX_NEAR nearest), as flat arrays, as bestAngle looks at
 * them 36 times per placed node: x, y, and the radius to keep clear of (theirs plus `r`). A
 * dense map looks only at what is near the circle: there every direction is close to
 * something, and the hundreds of nodes farther out only cost the lookups. */
function obstacles(placed: Placed, selfId: string | null, at: Point, reach: number, r: number): { ox: number[]; oy: number[]; orr: number[] } {
  const ox: number[] = [];
  const oy: number[] = [];
  const orr: number[] = [];
  const found: { p: Point; rq: number; d2: number }[] = [];
  const { ids, pts, rs } = placed.nearAll(at, reach + 80);
  for (let i = 0; i < ids.length; i++) {
    if (ids[i] === selfId) continue;
    const q = pts[i];
    const rq = rs[i];
    const dx = q.x - at.x;
    const dy = q.y - at.y;
    const d = Math.sqrt(dx * dx + dy * dy);
    if (d - rq > reach) continue;
    found.push({ p: q, rq, d2: d * d });
  }
  for (const { p: q, rq } of nearestFirst(found)) {
    ox.push(q.x);
    oy.push(q.y);
    orr.push(rq + r);
  }
  return { ox, oy, orr };
}

/** `found` as it is when it holds MAX_NEAR or fewer; else its MAX_NEAR nearest (least d2,
 * ties in the order found). */
export function nearestFirst<T extends { d2: number }>(found: T[]): T[] {
  if (found.length <= MAX_NEAR) return found;
  // the MAX_NEAR-th least distance, then the nodes under it and as many at it as there is
  // room for, in the order found
  const d2s = new Float64Array(found.length);
  for (let i = 0; i < found.length; i++) d2s[i] = found[i].d2;
  const bound = kthLeast(d2s, MAX_NEAR - 1);
  let room = MAX_NEAR;
  for (const f of found) if (f.d2 < bound) room--;
  const out: T[] = [];
  for (const f of found)
    if (f.d2 < bound || (f.d2 === bound && room-- > 0)) out.push(f);
  return out;
}

/** The value at index `k` of `a` sorted ascending (Hoare's selection; `a` is reordered):
 * the same value a sort gives, without sorting the hundreds of distances a dense map finds. */
export function kthLeast(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k];
  }
  return a[k];
}

export function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

export function centroid(points: Point[]): Point {
  if (points.length === 0) return { x: 0, y: 0 };
  let x = 0;
  let y = 0;
  for (const p of points) {
    x += p.x;
    y += p.y;
  }
  return { x: x / points.length, y: y / points.length };
}

/** Batches in an order where every node's parent is placed before it (input order otherwise). */
export function orderBatches(batches: LayoutNode[][], byId: Map<string, LayoutNode>, placed: Map<string, Point>): LayoutNode[][] {
  const batchOf = new Map<string, LayoutNode[]>();
  for (const b of batches) for (const n of b) batchOf.set(n.id, b);
  const out: LayoutNode[][] = [];
  const done = new Set<LayoutNode[]>();
  const visiting = new Set<LayoutNode[]>();
  const visit = (b: LayoutNode[]) => {
    if (done.has(b) || visiting.has(b)) return;
    visiting.add(b);
    for (const n of b) {
      const p = n.parentId;
      if (p && !placed.has(p) && byId.has(p)) {
        const pb = batchOf.get(p);
        if (pb && pb !== b) visit(pb);
      }
    }
    visiting.delete(b);
    done.add(b);
    out.push(b);
  };
  for (const b of batches) visit(b);
  return out;
}
