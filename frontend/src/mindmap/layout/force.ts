// Incremental force-directed layout. Nodes already placed never move: only new nodes do.
// New nodes are placed one batch at a time, in the order they appeared (a replay lays out
// like a live walk): each starts next to its parent in the freest direction (away from
// other nodes and without crossing drawn edges, placement.ts), then a short local
// simulation settles it among its fixed neighbours (settle.ts). A replay lays out exactly as
// the live walk did. Run it when the set of nodes changes, not on every render; on the page
// it runs in a worker (forceWorker.ts).
import { SpatialGrid, type Found } from "./grid";
import { bestAngle, centroid, hash, nearestFirst, orderBatches, type Placed } from "./placement";
import { settle, SMALL } from "./settle";
import type { LayoutLink, LayoutNode, LayoutOptions, Point, PositionChange } from "./types";

const DEFAULTS: LayoutOptions = { linkDistance: 120, charge: -300, padding: 24, ticks: 50, neighbourhood: 420, denseFrom: 5000 };
export class IncrementalLayout implements Placed {
  readonly positions = new Map<string, Point>();
  private readonly labels = new Map<string, string>();
  readonly radii = new Map<string, number>();
  private readonly opts: LayoutOptions;
  /** Where a person put a node: it stays there, and new nodes settle around it. */
  readonly pins = new Map<string, Point>();
  /** How many batches the simulation has settled (an update with nothing new runs none). */
  runs = 0;
  /** Placed node ids by grid cell, so that a placement costs the same at 50 or 5,000 nodes. */
  private readonly grid = new SpatialGrid();
  /** Links by node id (each list in the order of the links), for the links of the last update
   * that placed anything (`linked`, a copy): kept between updates and changed from the first
   * link that differs, as a live step adds a link or two to thousands. */
  readonly incident = new Map<string, LayoutLink[]>();
  private linked: LayoutLink[] = [];
  /** The nodes of the last update by id. */
  private readonly byId = new Map<string, LayoutNode>();
  /** Placed nodes that are not small (see LayoutOptions.denseFrom): the same count in a
   * replay as in the live walk, whose candidates came and went. */
  private solid = 0;

  private setPos(id: string, p: Point): void {
    this.positions.set(id, p);
    this.grid.put(id, p);
    this.touched.push(id);
  }

  /** The radius of a placed node (the grid keeps it too, for the placements near it). */
  private setRadius(id: string, r: number): void {
    this.radii.set(id, r);
    this.grid.setRadius(id, r);
  }

  private delPos(id: string): void {
    this.positions.delete(id);
    this.grid.remove(id);
    this.gone.push(id);
  }

  /** Placed nodes within about `radius` of `p` (whole grid cells: a superset). */
  near(p: Point, radius: number): string[] {
    return this.grid.near(p, radius);
  }

  /** near's ids with their positions. */
  nearAll(p: Point, radius: number): Found {
    return this.grid.nearAll(p, radius);
  }

  constructor(opts: Partial<LayoutOptions> = {}) {
    this.opts = { ...DEFAULTS, ...opts };
  }

  /**
   * A layout that goes on from where another left off: `positions` (in the order the other
   * placed them, as its handed-out positions hold them) of the last `nodes` and `links` it
   * was given, and its pins. The next update places new nodes as the other would have (so a
   * layout can move between a worker and the page). A pinned node that had moved is filed
   * last in its grid cell here: the one order the positions do not tell.
   */
  static adopt(nodes: LayoutNode[], links: LayoutLink[], positions: Map<string, Point>, pins: Record<string, Point>, opts: Partial<LayoutOptions> = {}): IncrementalLayout {
    const l = new IncrementalLayout(opts);
    for (const [id, p] of Object.entries(pins)) l.pins.set(id, { ...p });
    for (const n of nodes) l.byId.set(n.id, n);
    for (const [id, p] of positions) {
      const n = l.byId.get(id);
      if (!n) continue;
      l.setPos(id, p);
      l.setRadius(id, n.r);
      if (n.label) l.labels.set(id, n.label);
      if (n.r >= SMALL) l.solid++;
    }
    l.lastNodes = nodes.slice();
    l.link(links);
    l.out = new Map(l.positions);
    l.outStale = false;
    l.touched = [];
    return l;
  }

  /** The nodes of the last update, in its order (the next one compares against them). */
  private lastNodes: LayoutNode[] = [];
  /** The positions last handed out, and whether a position in it has since moved or gone
   * (a pin, a removal): then the next update hands out a new map. */
  private out: Map<string, Point> | null = null;
  private outStale = true;
  /** Nodes placed since the positions were last handed out, in the order they were placed. */
  private placed: string[] = [];
  /** Nodes whose position was set (placed, moved) and nodes removed since then. */
  private touched: string[] = [];
  private gone: string[] = [];
  /** What the last update changed in the positions it handed out (for a copy of them kept
   * elsewhere, as the layout worker's client keeps). */
  lastChange: PositionChange = { fresh: true, gone: [], set: [] };

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
      if (this.positions.has(n.id)) this.setRadius(n.id, n.r);
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
    this.lastChange = { fresh: !this.out || this.outStale, gone: this.gone, set: this.touched };
    this.gone = [];
    this.touched = [];
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
    this.touched = [];
    this.gone = [];
    this.labels.clear();
    this.radii.clear();
    this.solid = 0;
  }

  /** Places one batch: a start for each node (a fan for a step's candidates), then settles them. */
  private placeBatch(batch: LayoutNode[], byId: Map<string, LayoutNode>, freed: Map<string, Point>): void {
    const dense = this.solid >= this.opts.denseFrom;
    const placedLinks = this.linksAround(dense ? [] : batch);
    const initial = this.ofOneParent(batch) ? this.fan(batch, byId, freed, placedLinks, dense) : this.startEach(batch, byId, freed, placedLinks, dense);
    // Settle the batch among its fixed neighbourhood.
    const movers = batch.filter((n) => initial.has(n.id));
    if (!dense) settle(this, this.opts, movers, initial);
    this.runs += 1;
    for (const n of movers) {
      this.setPos(n.id, initial.get(n.id)!);
      this.placed.push(n.id);
      if (n.r >= SMALL) this.solid++;
      this.setRadius(n.id, n.r);
      if (n.label) this.labels.set(n.id, n.label);
    }
  }

  /** Edges already drawn near the parents of `batch` (for the no-crossing rule), each once. */
  private linksAround(batch: LayoutNode[]): LayoutLink[] {
    const around = new Set<string>();
    for (const n of batch) {
      const at = (n.parentId && this.positions.get(n.parentId)) || null;
      if (!at) continue;
      const found: { id: string; d2: number }[] = [];
      const reach2 = (this.opts.linkDistance * 2.5) ** 2;
      const { ids, pts } = this.nearAll(at, this.opts.linkDistance * 2.5);
      for (let i = 0; i < ids.length; i++) {
        const q = pts[i];
        const d2 = (q.x - at.x) ** 2 + (q.y - at.y) ** 2;
        if (d2 <= 2 * reach2) found.push({ id: ids[i], d2 });
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
    return placedLinks;
  }

  /** Whether `batch` is satellites of one placed node (a step's candidates). */
  private ofOneParent(batch: LayoutNode[]): boolean {
    return batch.length > 1 && batch.every((n) => n.parentId && n.parentId === batch[0].parentId && this.positions.get(n.parentId));
  }

  /** Satellites of one node: an arc in the parent's freest direction, alternating two radii so
   * that neighbouring labels do not collide (a node whose label was freed takes that place). */
  private fan(batch: LayoutNode[], byId: Map<string, LayoutNode>, freed: Map<string, Point>, placedLinks: LayoutLink[], dense: boolean): Map<string, Point> {
    const initial = new Map<string, Point>();
    const parentId = batch[0].parentId!;
    const parent = this.positions.get(parentId)!;
    const pr = this.radii.get(parentId) ?? 20;
    const dist = pr + this.opts.linkDistance * 1.15;
    const centre = bestAngle(this, parentId, parent, dist, this.awayAngle(batch[0], byId), 8, placedLinks, dense);
    const k = batch.length;
    const spread = Math.min(Math.PI * 1.4, (k - 1) * 0.5);
    batch.forEach((n, i) => {
      const reused = n.label ? freed.get(n.label) : undefined;
      if (reused) return void initial.set(n.id, { ...reused });
      const a = centre + (k === 1 ? 0 : -spread / 2 + (spread * i) / (k - 1));
      const d = dist + (i % 2) * 48;
      initial.set(n.id, { x: parent.x + d * Math.cos(a), y: parent.y + d * Math.sin(a) });
    });
    return initial;
  }

  /** A start for each node on its own: a freed place of its label, else a link from its parent
   * (placed, or started earlier in this batch) in the freest direction, else out past the map. */
  private startEach(batch: LayoutNode[], byId: Map<string, LayoutNode>, freed: Map<string, Point>, placedLinks: LayoutLink[], dense: boolean): Map<string, Point> {
    const initial = new Map<string, Point>();
    for (const n of batch) {
      const reused = n.label ? freed.get(n.label) : undefined;
      if (reused) {
        initial.set(n.id, { ...reused });
        continue;
      }
      const parentPos = (n.parentId ? (this.positions.get(n.parentId) ?? initial.get(n.parentId)) : undefined) ?? null;
      if (!parentPos) {
        initial.set(n.id, this.outside(n, initial, placedLinks));
        continue;
      }
      const pr = (n.parentId && this.radii.get(n.parentId)) || 20;
      const dist = pr + n.r + this.opts.linkDistance;
      const a = bestAngle(this, n.parentId, parentPos, dist, this.awayAngle(n, byId), n.r, placedLinks, dense);
      initial.set(n.id, { x: parentPos.x + dist * Math.cos(a), y: parentPos.y + dist * Math.sin(a) });
    }
    return initial;
  }

  /** A start for a node without a placed parent: the origin on an empty map, else two links
   * beyond the farthest placed node, in the freest direction from the centre. */
  private outside(n: LayoutNode, initial: Map<string, Point>, placedLinks: LayoutLink[]): Point {
    if (this.positions.size === 0 && initial.size === 0) return { x: 0, y: 0 };
    const c = this.centre();
    const far = Math.max(0, ...[...this.positions.values()].map((p) => Math.hypot(p.x - c.x, p.y - c.y)));
    const a = bestAngle(this, null, c, far + 2 * this.opts.linkDistance, 0, n.r, placedLinks);
    return { x: c.x + (far + 2 * this.opts.linkDistance) * Math.cos(a), y: c.y + (far + 2 * this.opts.linkDistance) * Math.sin(a) };
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
}
