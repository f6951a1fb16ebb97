// Incremental force-directed layout (d3-force). Nodes already placed never move: they
// enter the simulation with fixed x/y (fx/fy). Only new nodes move. New nodes are placed
// one batch at a time, in the order they appeared (a replay lays out like a live walk):
// each starts next to its parent in the freest direction (away from other nodes and
// without crossing drawn edges), then a short local simulation settles it among its fixed
// neighbours (the forces of d3-force, integrated for the new nodes only). A replay lays out
// exactly as the live walk did. Run it when the set of nodes changes, not on every render.

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

export interface LayoutOptions {
  linkDistance: number;
  charge: number;
  padding: number;
  /** Simulation ticks to settle one new node (a group gets twice as many). */
  ticks: number;
  /** Fixed nodes farther than this from every new node stay out of its simulation. */
  neighbourhood: number;
  /** From this many placed nodes (loci, crystals: not the small candidates, which come and
   * go) a new node is placed in its freest direction and stays there: no simulation, no
   * test against the edges drawn. Past this size the map is read from its overview and
   * its regions, and a catch-up of 20,000 loci spent most of its time settling each one. */
  denseFrom: number;
}

const DEFAULTS: LayoutOptions = { linkDistance: 120, charge: -300, padding: 24, ticks: 50, neighbourhood: 420, denseFrom: 5000 };
const SMALL = 10; // radius below which a node is a ghost-like satellite
const CELL = 240; // spatial grid cell (px): placement only looks at nodes and edges nearby
/** A grid cell's key: one number (a string per cell looked up cost more than the lookups). */
const cellKey = (x: number, y: number) => (x + 0x100000) * 0x200000 + (y + 0x100000);
/** The 36 directions bestAngle tries, with their cosines and sines (the same values as
 * computing them per call: it runs for every placed node). */
const ANGLES = Array.from({ length: 36 }, (_, k) => (k / 36) * 2 * Math.PI);
const COS = ANGLES.map((a) => Math.cos(a));
const SIN = ANGLES.map((a) => Math.sin(a));
/** At most this many placed nodes, the nearest, weigh in a placement (its freest direction,
 * the edges it must not cross, the simulation that settles it): in the dense middle of a
 * long walk (20,000 loci) hundreds lie within reach, and each new node cost them all (a
 * catch-up of 20,000 loci spent 20 s in the layout). A sparser map places as before. */
const MAX_NEAR = 48;

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
  private readonly grid = new Map<number, Set<string>>();
  private readonly cellOf = new Map<string, number>();
  /** Links by node id (each list in the order of the links), for the links of the last update
   * that placed anything (`linked`, a copy): kept between updates and changed from the first
   * link that differs, as a live step adds a link or two to thousands. */
  private readonly incident = new Map<string, LayoutLink[]>();
  private linked: LayoutLink[] = [];
  /** The nodes of the last update by id. */
  private readonly byId = new Map<string, LayoutNode>();
  /** Placed nodes that are not small (see LayoutOptions.denseFrom): the same count in a
   * replay as in the live walk, whose candidates came and went. */
  private solid = 0;

  private setPos(id: string, p: Point): void {
    this.positions.set(id, p);
    const key = cellKey(Math.floor(p.x / CELL), Math.floor(p.y / CELL));
    const old = this.cellOf.get(id);
    if (old === key) return;
    if (old !== undefined) this.grid.get(old)?.delete(id);
    let cell = this.grid.get(key);
    if (!cell) this.grid.set(key, (cell = new Set()));
    cell.add(id);
    this.cellOf.set(id, key);
  }

  private delPos(id: string): void {
    this.positions.delete(id);
    const old = this.cellOf.get(id);
    if (old !== undefined) this.grid.get(old)?.delete(id);
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
        const cell = this.grid.get(cellKey(x, y));
        if (cell) for (const id of cell) out.push(id);
      }
    return out;
  }

  constructor(opts: Partial<LayoutOptions> = {}) {
    this.opts = { ...DEFAULTS, ...opts };
  }

  /** The nodes of the last update, in its order (the next one compares against them). */
  private lastNodes: LayoutNode[] = [];
  /** The positions last handed out, and whether a position in it has since moved or gone
   * (a pin, a removal): then the next update hands out a new map. */
  private out: Map<string, Point> | null = null;
  private outStale = true;
  /** Nodes placed since the positions were last handed out, in the order they were placed. */
  private placed: string[] = [];

  /**
   * Positions (centres) for every node in `nodes`. Existing positions are never changed.
   *
   * A live step hands the nodes of the last update again (the same objects, in the same
   * order) with a few more at the end: the shared prefix is known to be placed and is not
   * looked at again, and the map returned is the last one with the new positions added (the
   * same map: it only grows while nodes are only added; a new one once a position moves or
   * a node goes). A step at 5,000 loci no longer walks and copies every position.
   */
  update(nodes: LayoutNode[], links: LayoutLink[]): Map<string, Point> {
    const prev = this.lastNodes;
    let k = 0;
    const m = Math.min(prev.length, nodes.length);
    while (k < m && prev[k] === nodes[k]) k++;
    this.lastNodes = nodes.slice();
    const freed = new Map<string, Point>();
    if (k < prev.length) {
      // (node ids are unique: the nodes of the last update past the prefix that are not asked
      // for now are the ones that go; the placed nodes are those of the last update)
      const wanted = new Set<string>();
      for (let i = k; i < nodes.length; i++) wanted.add(nodes[i].id);
      const gone = new Set<string>();
      for (let i = k; i < prev.length; i++) if (!wanted.has(prev[i].id) && this.positions.has(prev[i].id)) gone.add(prev[i].id);
      if (gone.size) {
        // in the order they were placed (of two with one label, the later one's place is reused)
        const labelsGone = new Set<string>();
        let clash = false;
        for (const id of gone) {
          const label = this.labels.get(id);
          if (label && labelsGone.has(label)) clash = true;
          if (label) labelsGone.add(label);
        }
        const order = clash ? [...this.positions.keys()].filter((id) => gone.has(id)) : gone;
        for (const id of order) {
          const label = this.labels.get(id);
          if ((this.radii.get(id) ?? 0) >= SMALL) this.solid--;
          if (label) freed.set(label, this.positions.get(id)!);
          this.delPos(id);
          this.labels.delete(id);
          this.radii.delete(id);
          this.byId.delete(id);
        }
        this.outStale = true;
      }
    }
    for (let i = k; i < nodes.length; i++) {
      const n = nodes[i];
      const pinned = this.pins.get(n.id);
      if (pinned) {
        const at = this.positions.get(n.id);
        if (!at) {
          this.placed.push(n.id);
          if (n.r >= SMALL) this.solid++;
        }
        else if (at.x !== pinned.x || at.y !== pinned.y) this.outStale = true;
        this.setPos(n.id, { ...pinned });
      }
      if (this.positions.has(n.id)) this.radii.set(n.id, n.r);
      this.byId.set(n.id, n);
    }
    const fresh: LayoutNode[] = [];
    for (let i = k; i < nodes.length; i++) if (!this.positions.has(nodes[i].id)) fresh.push(nodes[i]);
    if (fresh.length === 0) return this.handOut();

    const byId = this.byId;
    this.link(links);
    const batches = new Map<string, LayoutNode[]>();
    for (const n of fresh) {
      const key = n.group ? `g:${n.group}` : `n:${n.id}`;
      const list = batches.get(key);
      if (list) list.push(n);
      else batches.set(key, [n]);
    }
    // Parents before children, whatever order the caller gave.
    const ordered = orderBatches([...batches.values()], byId, this.positions);
    for (const batch of ordered) this.placeBatch(batch, byId, freed);
    return this.handOut();
  }

  /** The positions to hand out: the last map, grown by what was placed since, or a new one. */
  private handOut(): Map<string, Point> {
    if (!this.out || this.outStale) {
      this.out = new Map(this.positions);
      this.outStale = false;
    } else for (const id of this.placed) this.out.set(id, this.positions.get(id)!);
    this.placed = [];
    return this.out;
  }

  /** Brings `incident` to `links`: the lists keep the links' order, as if built anew. */
  private link(links: LayoutLink[]): void {
    const prev = this.linked;
    let k = 0;
    while (k < prev.length && k < links.length && prev[k] === links[k]) k++;
    // the links from k on are the last in each of their ends' lists: taken off the end
    for (let i = prev.length - 1; i >= k; i--)
      for (const end of [prev[i].target, prev[i].source]) {
        const list = this.incident.get(end)!;
        list.pop();
        if (list.length === 0) this.incident.delete(end);
      }
    for (let i = k; i < links.length; i++)
      for (const end of [links[i].source, links[i].target]) {
        const list = this.incident.get(end);
        if (list) list.push(links[i]);
        else this.incident.set(end, [links[i]]);
      }
    this.linked = links.slice();
  }

  /** Pins a node at `p` (its position from now on, also when it is laid out again). */
  pin(id: string, p: Point): void {
    this.pins.set(id, { ...p });
    if (this.positions.has(id)) {
      this.setPos(id, { ...p });
      this.outStale = true;
    }
  }

  reset(): void {
    this.lastNodes = [];
    this.outStale = true;
    this.placed = [];
    this.positions.clear();
    this.byId.clear();
    this.grid.clear();
    this.cellOf.clear();
    this.labels.clear();
    this.radii.clear();
    this.solid = 0;
  }

  private placeBatch(batch: LayoutNode[], byId: Map<string, LayoutNode>, freed: Map<string, Point>): void {
    const initial = new Map<string, Point>();
    const dense = this.solid >= this.opts.denseFrom;
    // edges already drawn near this batch (for the no-crossing rule)
    const around = new Set<string>();
    for (const n of dense ? [] : batch) {
      const at = (n.parentId && this.positions.get(n.parentId)) || null;
      if (!at) continue;
      const found: { id: string; p: Point; d2: number }[] = [];
      const reach2 = (this.opts.linkDistance * 2.5) ** 2;
      for (const id of this.near(at, this.opts.linkDistance * 2.5)) {
        const q = this.positions.get(id)!;
        const d2 = (q.x - at.x) ** 2 + (q.y - at.y) ** 2;
        if (d2 <= 2 * reach2) found.push({ id, p: q, d2 });
      }
      for (const f of nearestFirst(found)) around.add(f.id);
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
      const centre = this.bestAngle(batch[0].parentId!, parent, dist, this.awayAngle(batch[0], byId), 8, placedLinks, dense);
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
        const a = this.bestAngle(n.parentId, parentPos, dist, this.awayAngle(n, byId), n.r, placedLinks, dense);
        initial.set(n.id, { x: parentPos.x + dist * Math.cos(a), y: parentPos.y + dist * Math.sin(a) });
      }
    }

    // Settle the batch among its fixed neighbourhood.
    const movers = batch.filter((n) => initial.has(n.id));
    if (!dense) this.settle(movers, initial);
    this.runs += 1;
    for (const n of movers) {
      this.setPos(n.id, initial.get(n.id)!);
      this.placed.push(n.id);
      if (n.r >= SMALL) this.solid++;
      this.radii.set(n.id, n.r);
      if (n.label) this.labels.set(n.id, n.label);
    }
  }

  /**
   * A short force simulation of the batch's nodes among their fixed neighbours (the forces of
   * d3-force's link, many-body and collide, with its velocity Verlet and alpha decay), in
   * place on `at`. Only the movers are integrated: the fixed nodes never move, so their
   * forces need not be computed, and a settling costs the same at 50 or 5,000 nodes (a d3
   * simulation per node spent most of a long walk's catch-up on the fixed nodes).
   */
  private settle(movers: LayoutNode[], at: Map<string, Point>): void {
    if (movers.length === 0) return;
    // The bodies as flat arrays, movers first (0 .. nm-1), then the fixed neighbours: the
    // same arithmetic in the same order as d3-force's objects, without their lookups.
    const reach = this.opts.neighbourhood;
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
    // the fixed nodes within reach of a mover, the MAX_NEAR nearest to one (by distance, then
    // in the order found: the same for a replay as for the live walk)
    const found: { id: string; p: Point; d2: number }[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < nm; i++)
      for (const id of this.near({ x: px[i], y: py[i] }, reach)) {
        if (index.has(id) || seen.has(id)) continue;
        seen.add(id);
        const p = this.positions.get(id)!;
        let d2 = Infinity;
        for (let j = 0; j < nm; j++) d2 = Math.min(d2, (px[j] - p.x) ** 2 + (py[j] - p.y) ** 2);
        if (d2 < reach * reach) found.push({ id, p, d2 });
      }
    for (const { id, p } of nearestFirst(found)) {
      index.set(id, ids.length);
      ids.push(id);
      rs.push(this.radii.get(id) ?? 20);
      px.push(p.x);
      py.push(p.y);
    }
    const n = ids.length;
    const X = Float64Array.from(px);
    const Y = Float64Array.from(py);
    const VX = new Float64Array(n);
    const VY = new Float64Array(n);
    const Q = new Float64Array(n);
    const CR = new Float64Array(n);
    const H = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const r = rs[i];
      Q[i] = r < SMALL ? this.opts.charge / 3 : this.opts.charge;
      // satellites get room for their labels, which are wider than their dots
      CR[i] = r + (r < SMALL ? this.opts.padding * 1.7 : this.opts.padding);
      H[i] = hash(ids[i]);
    }
    // links with a mover at one end and both ends in the simulation; d3's bias splits a
    // link's pull by the ends' degrees (counted over the simulation's links)
    const ls: number[] = [];
    const lt: number[] = [];
    const ld: number[] = [];
    const degree = new Map<number, number>();
    const linkSeen = new Set<LayoutLink>();
    for (let b = 0; b < n; b++)
      for (const l of this.incident.get(ids[b]) ?? []) {
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
        ld.push(rs[s] + rs[t] + this.opts.linkDistance * (small ? 1.15 : 1));
      }
    const nl = ls.length;
    const bias = ls.map((s, k) => degree.get(s)! / (degree.get(s)! + degree.get(lt[k])!));
    const maxD2 = 380 * 380;
    const ticks = movers.length > 1 ? this.opts.ticks * 2 : this.opts.ticks;
    const decay = 1 - Math.pow(0.001, 1 / 300);
    let alpha = 0.6;
    for (let t = 0; t < ticks; t++) {
      alpha += -alpha * decay;
      // link (strength 0.5)
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
      // many-body (exact, within distanceMax)
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
      // collide (strength 0.9, two iterations), on the positions the velocities lead to
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
      for (let i = 0; i < nm; i++) {
        X[i] += VX[i] *= 0.6;
        Y[i] += VY[i] *= 0.6;
      }
    }
    for (let i = 0; i < nm; i++) at.set(ids[i], { x: X[i], y: Y[i] });
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
  private bestAngle(selfId: string | null, at: Point, dist: number, prefer: number, r: number, placedLinks: LayoutLink[], dense = false): number {
    let best = prefer;
    let bestScore = -Infinity;
    // Only nodes that can come within 260 px (the most clearance counts) of a point on the
    // circle matter; flat arrays, as this runs 36 times per placed node.
    const ox: number[] = [];
    const oy: number[] = [];
    const orr: number[] = [];
    // (a dense map looks only at what is near the circle: there every direction is close to
    // something, and the hundreds of nodes farther out only cost the lookups)
    const reach = dist + r + (dense ? 80 : 260);
    const found: { id: string; p: Point; d2: number }[] = [];
    for (const id of this.near(at, reach + 80)) {
      if (id === selfId) continue;
      const q = this.positions.get(id)!;
      const rq = this.radii.get(id) ?? 20;
      const d = Math.hypot(q.x - at.x, q.y - at.y);
      if (d - rq > reach) continue;
      found.push({ id, p: q, d2: d * d });
    }
    for (const { id, p: q } of nearestFirst(found)) {
      ox.push(q.x);
      oy.push(q.y);
      orr.push((this.radii.get(id) ?? 20) + r);
    }
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
      const c = this.positions.get(l.source)!;
      const d = this.positions.get(l.target)!;
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
}

/** `found` as it is when it holds MAX_NEAR or fewer; else its MAX_NEAR nearest (least d2,
 * ties in the order found). */
function nearestFirst<T extends { d2: number }>(found: T[]): T[] {
  if (found.length <= MAX_NEAR) return found;
  // the MAX_NEAR-th least distance (a native numeric sort), then the nodes under it and as
  // many at it as there is room for, in the order found
  const d2s = Float64Array.from(found, (f) => f.d2).sort();
  const bound = d2s[MAX_NEAR - 1];
  let room = MAX_NEAR;
  for (const f of found) if (f.d2 < bound) room--;
  const out: T[] = [];
  for (const f of found)
    if (f.d2 < bound || (f.d2 === bound && room-- > 0)) out.push(f);
  return out;
}

/** A tiny deterministic nudge for coincident nodes (d3 uses Math.random), from the hash of
 * the node's id. */
function jiggleH(h: number, t: number): number {
  return (((h + t * 7919) % 1000) / 1000 - 0.5) * 1e-6;
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
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
