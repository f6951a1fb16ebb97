// Incremental force-directed layout (d3-force). Nodes already placed never move: they
// enter the simulation with fixed x/y (fx/fy). Only new nodes move. New nodes are placed
// one batch at a time, in the order they appeared (a replay lays out like a live walk):
// each starts next to its parent in the freest direction (away from other nodes and
// without crossing drawn edges), then a short local simulation settles it among its fixed
// neighbours. Run it when the set of nodes changes, not on every render.
import { forceCollide, forceLink, forceManyBody, forceSimulation, type SimulationNodeDatum } from "d3-force";

export interface LayoutNode {
  id: string;
  parentId: string | null;
  /** Radius in px (used for spacing and collisions). */
  r: number;
  /** A label: a new node takes the last position of a removed node with the same label
   * (a ghost candidate that the walk then chose becomes a locus where it stood). */
  label?: string;
  /** New nodes with the same group are placed together (e.g. one step's candidates, on an
   * arc around their parent); without a group a node is placed on its own. */
  group?: string;
}
export interface LayoutLink {
  source: string;
  target: string;
}
export interface Point {
  x: number;
  y: number;
}

interface SimNode extends SimulationNodeDatum {
  id: string;
  r: number;
}

export interface LayoutOptions {
  linkDistance: number;
  charge: number;
  padding: number;
  /** Simulation ticks to settle one new node (a group gets twice as many). */
  ticks: number;
  /** Fixed nodes farther than this from every new node stay out of its simulation. */
  neighbourhood: number;
}

const DEFAULTS: LayoutOptions = { linkDistance: 120, charge: -300, padding: 24, ticks: 50, neighbourhood: 420 };
const SMALL = 10; // radius below which a node is a ghost-like satellite
const CELL = 240;
const BULK = 200; // fresh nodes in one update above which placement skips the simulation // spatial grid cell (px): placement only looks at nodes and edges nearby

export class IncrementalLayout {
  readonly positions = new Map<string, Point>();
  private readonly labels = new Map<string, string>();
  private readonly radii = new Map<string, number>();
  private readonly opts: LayoutOptions;
  /** Where a person put a node: it stays there, and new nodes settle around it. */
  readonly pins = new Map<string, Point>();
  /** How many batches the simulation has settled (an update with nothing new runs none). */
  runs = 0;
  /** Placed node ids by grid cell, so that a placement costs the same at 50 or 5,000 nodes. */
  private readonly grid = new Map<string, Set<string>>();
  private readonly cellOf = new Map<string, string>();
  /** Links by node id, for the current update. */
  private incident = new Map<string, LayoutLink[]>();
  private bulk = false;

  private setPos(id: string, p: Point): void {
    this.positions.set(id, p);
    const key = `${Math.floor(p.x / CELL)},${Math.floor(p.y / CELL)}`;
    const old = this.cellOf.get(id);
    if (old === key) return;
    if (old) this.grid.get(old)?.delete(id);
    let cell = this.grid.get(key);
    if (!cell) this.grid.set(key, (cell = new Set()));
    cell.add(id);
    this.cellOf.set(id, key);
  }

  private delPos(id: string): void {
    this.positions.delete(id);
    const old = this.cellOf.get(id);
    if (old) this.grid.get(old)?.delete(id);
    this.cellOf.delete(id);
  }

  /** Placed nodes within about `radius` of `p` (whole grid cells: a superset). */
  private near(p: Point, radius: number): string[] {
    const out: string[] = [];
    const x0 = Math.floor((p.x - radius) / CELL);
    const x1 = Math.floor((p.x + radius) / CELL);
    const y0 = Math.floor((p.y - radius) / CELL);
    const y1 = Math.floor((p.y + radius) / CELL);
    for (let x = x0; x <= x1; x++)
      for (let y = y0; y <= y1; y++) {
        const cell = this.grid.get(`${x},${y}`);
        if (cell) for (const id of cell) out.push(id);
      }
    return out;
  }

  constructor(opts: Partial<LayoutOptions> = {}) {
    this.opts = { ...DEFAULTS, ...opts };
  }

  /** Positions (centres) for every node in `nodes`. Existing positions are never changed. */
  update(nodes: LayoutNode[], links: LayoutLink[]): Map<string, Point> {
    const wanted = new Set(nodes.map((n) => n.id));
    const freed = new Map<string, Point>();
    for (const [id, p] of this.positions) {
      if (!wanted.has(id)) {
        const label = this.labels.get(id);
        if (label) freed.set(label, p);
        this.delPos(id);
        this.labels.delete(id);
        this.radii.delete(id);
      }
    }
    for (const n of nodes) {
      const pinned = this.pins.get(n.id);
      if (pinned) this.setPos(n.id, { ...pinned });
      if (this.positions.has(n.id)) this.radii.set(n.id, n.r);
    }
    const fresh = nodes.filter((n) => !this.positions.has(n.id));
    if (fresh.length === 0) return new Map(this.positions);

    const byId = new Map(nodes.map((n) => [n.id, n]));
    this.incident = new Map();
    for (const l of links) {
      for (const end of [l.source, l.target]) {
        const list = this.incident.get(end);
        if (list) list.push(l);
        else this.incident.set(end, [l]);
      }
    }
    const batches = new Map<string, LayoutNode[]>();
    for (const n of fresh) {
      const key = n.group ? `g:${n.group}` : `n:${n.id}`;
      const list = batches.get(key);
      if (list) list.push(n);
      else batches.set(key, [n]);
    }
    // Parents before children, whatever order the caller gave.
    const ordered = orderBatches([...batches.values()], byId, this.positions);
    // A catch-up of hundreds of nodes at once (opening a long walk): a shorter settling
    // simulation per node.
    this.bulk = fresh.length > BULK;
    for (const batch of ordered) this.placeBatch(batch, byId, links, freed);
    this.bulk = false;
    return new Map(this.positions);
  }

  /** Pins a node at `p` (its position from now on, also when it is laid out again). */
  pin(id: string, p: Point): void {
    this.pins.set(id, { ...p });
    if (this.positions.has(id)) this.setPos(id, { ...p });
  }

  reset(): void {
    this.positions.clear();
    this.grid.clear();
    this.cellOf.clear();
    this.labels.clear();
    this.radii.clear();
  }

  private placeBatch(batch: LayoutNode[], byId: Map<string, LayoutNode>, links: LayoutLink[], freed: Map<string, Point>): void {
    const initial = new Map<string, Point>();
    void links;
    // edges already drawn near this batch (for the no-crossing rule)
    const around = new Set<string>();
    for (const n of batch) {
      const at = (n.parentId && this.positions.get(n.parentId)) || null;
      if (at) for (const id of this.near(at, this.opts.linkDistance * 2.5)) around.add(id);
    }
    const seenLinks = new Set<LayoutLink>();
    const placedLinks: LayoutLink[] = [];
    for (const id of around)
      for (const l of this.incident.get(id) ?? [])
        if (!seenLinks.has(l) && this.positions.has(l.source) && this.positions.has(l.target)) {
          seenLinks.add(l);
          placedLinks.push(l);
        }
    const parentOf = (n: LayoutNode) => (n.parentId ? this.positions.get(n.parentId) : undefined);
    const sameParent = batch.length > 1 && batch.every((n) => n.parentId && n.parentId === batch[0].parentId && parentOf(n));

    if (sameParent) {
      // Satellites of one node (a step's candidates): an arc in the parent's freest direction,
      // alternating two radii so that neighbouring labels do not collide.
      const parent = parentOf(batch[0])!;
      const pr = this.radii.get(batch[0].parentId!) ?? 20;
      const dist = pr + this.opts.linkDistance * 1.15;
      const centre = this.bestAngle(batch[0].parentId!, parent, dist, this.awayAngle(batch[0], byId), 8, placedLinks);
      const k = batch.length;
      const spread = Math.min(Math.PI * 1.4, (k - 1) * 0.5);
      batch.forEach((n, i) => {
        const reused = n.label ? freed.get(n.label) : undefined;
        if (reused) return void initial.set(n.id, { ...reused });
        const a = centre + (k === 1 ? 0 : -spread / 2 + (spread * i) / (k - 1));
        const d = dist + (i % 2) * 48;
        initial.set(n.id, { x: parent.x + d * Math.cos(a), y: parent.y + d * Math.sin(a) });
      });
    } else {
      for (const n of batch) {
        const reused = n.label ? freed.get(n.label) : undefined;
        if (reused) {
          initial.set(n.id, { ...reused });
          continue;
        }
        const parentPos = (n.parentId ? (this.positions.get(n.parentId) ?? initial.get(n.parentId)) : undefined) ?? null;
        if (!parentPos) {
          if (this.positions.size === 0 && initial.size === 0) {
            initial.set(n.id, { x: 0, y: 0 });
          } else {
            const c = this.centre();
            const far = Math.max(0, ...[...this.positions.values()].map((p) => Math.hypot(p.x - c.x, p.y - c.y)));
            const a = this.bestAngle(null, c, far + 2 * this.opts.linkDistance, 0, n.r, placedLinks);
            initial.set(n.id, { x: c.x + (far + 2 * this.opts.linkDistance) * Math.cos(a), y: c.y + (far + 2 * this.opts.linkDistance) * Math.sin(a) });
          }
          continue;
        }
        const pr = (n.parentId && this.radii.get(n.parentId)) || 20;
        const dist = pr + n.r + this.opts.linkDistance;
        const a = this.bestAngle(n.parentId, parentPos, dist, this.awayAngle(n, byId), n.r, placedLinks);
        initial.set(n.id, { x: parentPos.x + dist * Math.cos(a), y: parentPos.y + dist * Math.sin(a) });
      }
    }

    // Settle the batch among its fixed neighbourhood.
    const movers = batch.filter((n) => initial.has(n.id));

    const moverIds = new Set(movers.map((n) => n.id));
    const reach = this.opts.neighbourhood;
    const simNodes: SimNode[] = [];
    const candidates = new Set<string>();
    for (const m of movers) for (const id of this.near(initial.get(m.id)!, reach)) candidates.add(id);
    for (const id of candidates) {
      const p = this.positions.get(id)!;
      if (movers.some((m) => Math.hypot(initial.get(m.id)!.x - p.x, initial.get(m.id)!.y - p.y) < reach)) {
        simNodes.push({ id, r: this.radii.get(id) ?? 20, x: p.x, y: p.y, fx: p.x, fy: p.y });
      }
    }
    for (const n of movers) simNodes.push({ id: n.id, r: n.r, ...initial.get(n.id)! });
    const inSim = new Set(simNodes.map((s) => s.id));
    const simLinks = [...new Set(simNodes.flatMap((n) => this.incident.get(n.id) ?? []))]
      .filter((l) => inSim.has(l.source) && inSim.has(l.target) && (moverIds.has(l.source) || moverIds.has(l.target)))
      .map((l) => ({ source: l.source, target: l.target }));
    const small = (d: SimNode) => d.r < SMALL;
    const sim = forceSimulation<SimNode>(simNodes)
      .force(
        "link",
        forceLink<SimNode, { source: string | SimNode; target: string | SimNode }>(simLinks)
          .id((d) => d.id)
          .distance((l) => {
            const s = l.source as SimNode;
            const t = l.target as SimNode;
            return s.r + t.r + this.opts.linkDistance * (small(s) || small(t) ? 1.15 : 1);
          })
          .strength(0.5),
      )
      .force("charge", forceManyBody<SimNode>().strength((d) => (small(d) ? this.opts.charge / 3 : this.opts.charge)).distanceMax(380))
      // satellites get room for their labels, which are wider than their dots
      .force("collide", forceCollide<SimNode>((d) => d.r + (small(d) ? this.opts.padding * 1.7 : this.opts.padding)).strength(0.9).iterations(2))
      .alpha(0.6)
      .stop();
    const ticks = Math.round((movers.length > 1 ? this.opts.ticks * 2 : this.opts.ticks) / (this.bulk ? 4 : 1));
    for (let t = 0; t < ticks; t++) sim.tick();
    this.runs += 1;
    for (const s of simNodes) {
      if (!moverIds.has(s.id)) continue;
      const n = batch.find((b) => b.id === s.id)!;
      this.setPos(s.id, { x: s.x ?? 0, y: s.y ?? 0 });
      this.radii.set(s.id, n.r);
      if (n.label) this.labels.set(s.id, n.label);
    }
  }

  /** The centre of what is placed (kept as running sums would drift with removals: computed, but only for rootless nodes and roots). */
  private centre(): Point {
    return centroid([...this.positions.values()]);
  }

  /** The direction from the grandparent through the parent (the walk keeps going outward). */
  private awayAngle(n: LayoutNode, byId: Map<string, LayoutNode>): number {
    const parent = n.parentId ? this.positions.get(n.parentId) : undefined;
    if (!parent) return -Math.PI / 2;
    const gp = n.parentId ? byId.get(n.parentId)?.parentId : null;
    const from = (gp && this.positions.get(gp)) || this.centre();
    // A little meander (fixed per node, from its id) so a long walk does not run straight.
    const turn = ((hash(n.id) % 1000) / 1000 - 0.5) * 1.9;
    if (from.x === parent.x && from.y === parent.y) return -Math.PI / 2 + turn;
    return Math.atan2(parent.y - from.y, parent.x - from.x) + turn;
  }

  /** Of 36 directions around `at`, the one whose point `dist` away is clearest of other
   * nodes and whose segment from `at` crosses no drawn edge; ties go toward `prefer`. */
  private bestAngle(selfId: string | null, at: Point, dist: number, prefer: number, r: number, placedLinks: LayoutLink[]): number {
    let best = prefer;
    let bestScore = -Infinity;
    const others: [string, Point][] = this.near(at, dist + r + 420)
      .filter((id) => id !== selfId)
      .map((id) => [id, this.positions.get(id)!]);
    for (let k = 0; k < 36; k++) {
      const a = (k / 36) * 2 * Math.PI;
      const p = { x: at.x + dist * Math.cos(a), y: at.y + dist * Math.sin(a) };
      let clearance = 400;
      for (const [id, q] of others) {
        const c = Math.hypot(p.x - q.x, p.y - q.y) - (this.radii.get(id) ?? 20) - r;
        if (c < clearance) clearance = c;
      }
      let crossings = 0;
      for (const l of placedLinks) {
        if (l.source === selfId || l.target === selfId) continue;
        if (segmentsCross(at, p, this.positions.get(l.source)!, this.positions.get(l.target)!)) crossings++;
      }
      let diff = Math.abs(a - prefer) % (2 * Math.PI);
      if (diff > Math.PI) diff = 2 * Math.PI - diff;
      const score = Math.min(clearance, 260) - 220 * crossings - 40 * (diff / Math.PI);
      if (score > bestScore) {
        bestScore = score;
        best = a;
      }
    }
    return best;
  }
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

function segmentsCross(a: Point, b: Point, c: Point, d: Point): boolean {
  const o = (p: Point, q: Point, r: Point) => (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x);
  const d1 = o(c, d, a);
  const d2 = o(c, d, b);
  const d3 = o(a, b, c);
  const d4 = o(a, b, d);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

function centroid(points: Point[]): Point {
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
function orderBatches(batches: LayoutNode[][], byId: Map<string, LayoutNode>, placed: Map<string, Point>): LayoutNode[][] {
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
