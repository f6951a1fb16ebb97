// The overview of a large map at far zoom: its loci grouped into regions (loci of one domain
// that lie together), each with its domain and how many loci it holds, and the loci that matter
// picked out (the seed, the most visited, crystals' breads, hints). Pure: the map draws them.
import type { GraphState } from "../store";
import type { Point } from "./layout/types";

/** The overview shows from this many loci (below it the map is read locus by locus). */
export const OVERVIEW_FROM = 150;

/** A square is named by a domain when at least this share of its loci are of it. */
const MAIN_SHARE = 0.4;
/** Between the two commonest domains of a square none has MAIN_SHARE of. */
export const MIXED = " / ";

export interface Region {
  id: string;
  /** The domain most of its loci are of, or "a / b", its two commonest, when none has 40%. */
  domain: string;
  /** Its loci (of every domain). */
  count: number;
  /** Where its label goes: the mean of its loci. */
  centre: Point;
  /** Its outline: the convex hull of its loci, grown by `pad` (map px). */
  hull: Point[];
}

export interface KeyLocus {
  id: string;
  concept: string;
  at: Point;
  why: "seed" | "hub" | "crystal" | "hint";
}

/** Convex hull (monotone chain), counter-clockwise; fewer than 3 points come back as they are. */
export function convexHull(points: Point[]): Point[] {
  const ps = [...points].sort((a, b) => a.x - b.x || a.y - b.y);
  if (ps.length < 3) return ps;
  const cross = (o: Point, a: Point, b: Point) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  const lower: Point[] = [];
  for (const p of ps) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: Point[] = [];
  for (let i = ps.length - 1; i >= 0; i--) {
    const p = ps[i];
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], p) <= 0) upper.pop();
    upper.push(p);
  }
  return lower.slice(0, -1).concat(upper.slice(0, -1));
}

/** `hull` pushed out by `pad` from its centre (a region's outline around its discs). */
function grow(hull: Point[], centre: Point, pad: number): Point[] {
  if (hull.length === 0) return hull;
  if (hull.length < 3) {
    // a line or a point: a diamond around it
    const xs = hull.map((p) => p.x);
    const ys = hull.map((p) => p.y);
    const [x0, x1, y0, y1] = [Math.min(...xs) - pad, Math.max(...xs) + pad, Math.min(...ys) - pad, Math.max(...ys) + pad];
    return [{ x: (x0 + x1) / 2, y: y0 }, { x: x1, y: (y0 + y1) / 2 }, { x: (x0 + x1) / 2, y: y1 }, { x: x0, y: (y0 + y1) / 2 }];
  }
  return hull.map((p) => {
    const dx = p.x - centre.x;
    const dy = p.y - centre.y;
    const d = Math.hypot(dx, dy) || 1;
    return { x: p.x + (dx / d) * pad, y: p.y + (dy / d) * pad };
  });
}

/**
 * The regions of the map: its area cut into squares (about five across its longer side, at
 * least `cell` map px), each square's loci counted by domain (their first); touching squares
 * whose loci are mostly of one domain make one region, named by that domain. Squares of fewer
 * than `min` loci are left out (the default: 2% of the loci, at least 5). Largest first. The
 * regions do not overlap (a domain's loci spread over the whole map no longer made one region
 * as large as the map for every domain).
 */
export function regionsOf(g: GraphState, positions: Map<string, Point>, cell = 420, min?: number): Region[] {
  const least = min ?? Math.max(5, Math.round(g.order.length * 0.02));
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const id of g.order) {
    const p = positions.get(id);
    if (!p) continue;
    x0 = Math.min(x0, p.x);
    y0 = Math.min(y0, p.y);
    x1 = Math.max(x1, p.x);
    y1 = Math.max(y1, p.y);
  }
  if (x0 === Infinity) return [];
  const size = Math.max(cell, Math.max(x1 - x0, y1 - y0) / 5);
  // square key -> its loci, and their count by domain
  const squares = new Map<string, { ids: string[]; byDomain: Map<string, number> }>();
  for (const id of g.order) {
    const p = positions.get(id);
    if (!p) continue;
    const key = `${Math.floor((p.x - x0) / size)},${Math.floor((p.y - y0) / size)}`;
    let sq = squares.get(key);
    if (!sq) squares.set(key, (sq = { ids: [], byDomain: new Map() }));
    sq.ids.push(id);
    const d = g.loci[id].domains[0] ?? "other";
    sq.byDomain.set(d, (sq.byDomain.get(d) ?? 0) + 1);
  }
  // the square's name: the domain of at least MAIN_SHARE of its loci, else its two commonest
  // ("a / b": a square of its own, not merged)
  const mainOf = (sq: { ids: string[]; byDomain: Map<string, number> }) => {
    const ranked = [...sq.byDomain].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    return ranked[0][1] >= MAIN_SHARE * sq.ids.length || ranked.length < 2 ? ranked[0][0] : `${ranked[0][0]}${MIXED}${ranked[1][0]}`;
  };
  const main = new Map([...squares].filter(([, sq]) => sq.ids.length >= least).map(([k, sq]) => [k, mainOf(sq)]));
  const out: Region[] = [];
  const seen = new Set<string>();
  for (const [start, domain] of main) {
    if (seen.has(start)) continue;
    const ids: string[] = [];
    const queue = [start];
    seen.add(start);
    while (queue.length) {
      const key = queue.pop()!;
      ids.push(...squares.get(key)!.ids);
      const [cx, cy] = key.split(",").map(Number);
      for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const k = `${cx + dx},${cy + dy}`;
        if (!seen.has(k) && main.get(k) === domain && !domain.includes(MIXED)) {
          seen.add(k);
          queue.push(k);
        }
      }
    }
    const pts = ids.map((id) => positions.get(id)!);
    const centre = { x: pts.reduce((s, p) => s + p.x, 0) / pts.length, y: pts.reduce((s, p) => s + p.y, 0) / pts.length };
    out.push({ id: `${domain}:${start}`, domain, count: ids.length, centre, hull: grow(convexHull(pts), centre, 24) });
  }
  return out.sort((a, b) => b.count - a.count);
}

/** The loci worth a label at far zoom: the seed, the `hubs` most visited, the breads of the
 * `crystals` latest crystals and the hints a person planted (the current and selected loci
 * have their own). A few: a label for every crystal's breads made a hairball of its own. */
export function keyLoci(g: GraphState, positions: Map<string, Point>, hubs = 6, crystals = 4): KeyLocus[] {
  const out = new Map<string, KeyLocus>();
  const add = (id: string | undefined | null, why: KeyLocus["why"]) => {
    const p = id ? positions.get(id) : undefined;
    if (!id || !p || out.has(id) || !g.loci[id]) return;
    out.set(id, { id, concept: g.loci[id].concept, at: p, why });
  };
  add(g.order[0], "seed");
  for (const id of g.crystalOrder.slice(-crystals)) for (const b of g.crystals[id].bread) add(b, "crystal");
  for (const id of Object.keys(g.hints)) add(id, "hint");
  const visited = g.order.filter((id) => g.loci[id].visit_count > 1).sort((a, b) => g.loci[b].visit_count - g.loci[a].visit_count);
  for (const id of visited.slice(0, hubs)) add(id, "hub");
  return [...out.values()];
}

/** Where each region's label goes at `zoom` (map px): at its centre, or moved down past the
 * labels of larger regions it would cover there (about `charPx` a character and `rowPx` a
 * row on screen); null when no place near its centre is free (the label is left out). */
export function placeLabels(regions: Region[], zoom: number, charPx = 9, rowPx = 26): (Point | null)[] {
  const placed: { x0: number; y0: number; x1: number; y1: number }[] = [];
  return regions.map((r) => {
    const w = ((`${r.domain} ${r.count}`.length * charPx + 24) / zoom) / 2;
    const h = rowPx / zoom / 2;
    for (const dy of [0, 1, -1, 2, -2, 3]) {
      const c = { x: r.centre.x, y: r.centre.y + dy * 2 * h };
      const box = { x0: c.x - w, y0: c.y - h, x1: c.x + w, y1: c.y + h };
      if (placed.every((b) => box.x1 <= b.x0 || box.x0 >= b.x1 || box.y1 <= b.y0 || box.y0 >= b.y1)) {
        placed.push(box);
        return c;
      }
    }
    return null;
  });
}
