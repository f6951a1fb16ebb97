// Turns the store's graph (plus laid-out positions) into React Flow nodes and edges: one
// React Flow node per node of the graph, its type the node's `kind` ("candidate" is drawn
// by the "ghost" node type).
import { Position, type Edge, type Node, type NodeHandle } from "@xyflow/react";
import type { FenceOut, SessionOut } from "../api/types.gen";
import {
  anchorOf,
  eachMapNode,
  mapNodeId,
  resonanceLinks,
  type AdjacencyEdge as AdjEdge,
  type GhostNode as Ghost,
  type GraphState,
  type MapCrystal,
  type MapLocus,
  type MapSubwander,
  type PathEdge,
} from "../store";
import type { LayoutLink, LayoutNode, Point } from "./layout/force";
import { GHOST_RADIUS, locusRadius } from "./palette";
import type { AdjacencyEdgeData, BridgeEdgeData, LinkEdgeData, PathEdgeData, ResonanceEdgeData } from "./edges";
import type { CrystalNodeData, GhostNodeData, LocusNodeData, SubwanderNodeData } from "./nodes";

export const CRYSTAL_SIZE = 30;
export const SUB_W = 150;
export const SUB_H = 46;
export const attractorUrl = (id: string) => `/api/v1/wander/crystals/${encodeURIComponent(id)}/attractor.png`;

/** What the map marks besides the graph: highlights and the open crystal and compare pair.
 * `children` and `fences` are ignored: the graph has both (`subwanders`, `fences`); they stay
 * optional so that callers written before that still type-check. */
export interface MapExtras {
  children?: SessionOut[];
  fences?: FenceOut[];
  highlight: Set<string>;
  crystalId: string | null;
  compareId: string | null;
}

/** What `layoutInput` made last for one map, so that a live step goes over what is new:
 * the loci's layout nodes (in order) and the path's links, for the walk they were made for. */
export interface LayoutInputCache {
  sessionId: string | null;
  /** The loci's records the nodes were made from, and the nodes, in the graph's order. */
  recs: MapLocus[];
  nodes: LayoutNode[];
  /** The path edges the links were made from, and the links. */
  edges: PathEdge[];
  links: LayoutLink[];
}

export const layoutInputCache = (): LayoutInputCache => ({ sessionId: null, recs: [], nodes: [], edges: [], links: [] });

/** The layout's input: every node of the graph with the locus it hangs from. The third
 * argument is ignored (sub-wanders are in the graph); it stays for older callers. With a
 * `cache` (one per map), the loci and steps already seen are not made again: the graph's
 * order and path only grow while it is the same walk (a locus's record is replaced when it
 * changes, so a record compared by identity says whether its node still holds). */
export function layoutInput(g: GraphState, ghosts: Ghost[], _children?: SessionOut[], cache?: LayoutInputCache): { nodes: LayoutNode[]; links: LayoutLink[] } {
  let nodes: LayoutNode[] = [];
  let links: LayoutLink[];
  if (cache) {
    grow(cache, g);
    nodes = cache.nodes.slice();
    links = cache.links.slice();
  } else {
    links = g.path.map(pathLink);
    for (const id of g.order) {
      const l = g.loci[id];
      nodes.push(locusInput(l, l.parentId));
    }
  }
  eachMapNode(g, ghosts, (id, n) => {
    const parentId = anchorOf(g, n);
    switch (n.kind) {
      case "locus":
        break; // (above)
      case "candidate":
        nodes.push({ id, parentId, r: GHOST_RADIUS, label: n.concept.toLowerCase(), group: `candidates:${id.split(":")[1]}` });
        links.push({ source: n.parentId, target: id });
        break;
      case "crystal":
        nodes.push({ id, parentId, r: CRYSTAL_SIZE / 2 + 6 });
        for (const b of breadOnMap(g, n)) links.push({ source: b, target: id });
        break;
      case "subwander":
        nodes.push({ id, parentId, r: SUB_W / 2 });
        links.push({ source: parentId!, target: id });
        break;
    }
  }, false);
  return { nodes, links };
}

/** Whether `g` is still the walk `sessionId` and its order only grew past the `n` loci seen
 * last (the last of them `lastId`): then what was made for those still holds. */
function onlyGrew(g: GraphState, sessionId: string | null, n: number, lastId: string | undefined): boolean {
  return sessionId === g.sessionId && n <= g.order.length && (n === 0 || g.order[n - 1] === lastId);
}

/** Brings the cache to `g`: the loci and path edges appended since are added, a locus whose
 * record was replaced gets its node again; a different walk (or one that did not only grow:
 * an archive scrubbed back) is made anew. */
function grow(c: LayoutInputCache, g: GraphState): void {
  const n = c.recs.length;
  const same = onlyGrew(g, c.sessionId, n, c.nodes[n - 1]?.id);
  if (!same) {
    c.sessionId = g.sessionId;
    c.recs = [];
    c.nodes = [];
  }
  const { recs, nodes } = c;
  const { order, loci } = g;
  for (let i = 0; i < recs.length; i++) {
    const l = loci[order[i]];
    if (l !== recs[i]) {
      recs[i] = l;
      nodes[i] = locusInput(l, l.parentId);
    }
  }
  for (let i = recs.length; i < order.length; i++) {
    const l = loci[order[i]];
    recs.push(l);
    nodes.push(locusInput(l, l.parentId));
  }
  const path = g.path;
  const e = c.edges.length;
  // (edges are never changed; a step that came late is inserted in order, which moves the
  // ones after it: then from the first that differs)
  let k = 0;
  if (same && e <= path.length) {
    if (e === 0 || path[e - 1] === c.edges[e - 1]) k = e;
    else while (k < e && path[k] === c.edges[k]) k++;
  }
  c.edges.length = k;
  c.links.length = k;
  for (let i = k; i < path.length; i++) {
    c.edges.push(path[i]);
    c.links.push(pathLink(path[i]));
  }
}

/** A locus's layout node and a step's link, made once per record (the store keeps a record
 * while it is unchanged): a live step at 5,000 loci no longer makes 5,000 of each, and the
 * layout sees the same links again (see IncrementalLayout.update). */
const locusInputs = new WeakMap<MapLocus, LayoutNode>();
const pathLinks = new WeakMap<PathEdge, LayoutLink>();

function locusInput(l: MapLocus, parentId: string | null): LayoutNode {
  let n = locusInputs.get(l);
  if (!n || n.parentId !== parentId) {
    n = { id: l.id, parentId, r: locusRadius(l.visit_count), label: l.concept.toLowerCase() };
    locusInputs.set(l, n);
  }
  return n;
}

function pathLink(e: PathEdge): LayoutLink {
  let l = pathLinks.get(e);
  if (!l || l.source !== e.source || l.target !== e.target) {
    l = { source: e.source, target: e.target };
    pathLinks.set(e, l);
  }
  return l;
}

const breadOnMap = (g: GraphState, c: MapCrystal) => c.bread.filter((b): b is string => !!b && !!g.loci[b]);

/** Node and edge objects from the previous render, reused when nothing about them changed,
 * so that React Flow only updates what did (a replay of hundreds of loci stays cheap). The
 * entries are updated in place (a live step at 5,000 loci allocates for what changed only). */
export type FlowCache = Map<string, FlowCacheEntry>;
type FlowCacheEntry = { key: Key; item: Node | Edge; gen?: number };
/** What an item is made of: a string, or values compared one by one (by identity: the
 * store's records and the layout's points keep theirs while unchanged, so a map of
 * thousands of loci is checked without building a string per locus). */
type Key = string | readonly unknown[];

function sameKey(a: Key, b: Key): boolean {
  if (typeof a === "string" || typeof b === "string") return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

let generation = 0;

/** Stores `item` made for `key` (in `hit`, the entry found for `id`, when there was one). */
function store<T extends Node | Edge>(cache: FlowCache | undefined, gen: number, id: string, hit: FlowCacheEntry | undefined, key: Key, item: T): T {
  if (hit) {
    hit.key = key;
    hit.item = item;
    hit.gen = gen;
  } else cache?.set(id, { key, item, gen });
  return item;
}

function cached<T extends Node | Edge>(cache: FlowCache | undefined, gen: number, id: string, key: Key, make: () => T): T {
  const hit = cache?.get(id);
  if (hit && sameKey(hit.key, key)) {
    hit.gen = gen;
    return hit.item as T;
  }
  return store(cache, gen, id, hit, key, make());
}

/** Drops the entries of items no longer drawn (those not stamped with `gen`). */
function prune(cache: FlowCache | undefined, gen: number, drawn: number): void {
  if (!cache || cache.size <= drawn) return;
  for (const [id, e] of cache) if (e.gen !== gen) cache.delete(id);
}

/** The loci's React Flow nodes of one cache, in the graph's order: a live step compares each
 * locus's record, position and marks with those its node was made for, by index, without a
 * lookup in a map of thousands per locus. */
interface LociRows {
  sessionId: string | null;
  ids: string[];
  /** The positions map they were made with (a map handed again has only grown: its points
   * for these loci are the same, see IncrementalLayout.update). */
  positions: Map<string, Point> | null;
  points: (Point | undefined)[];
  items: (Node | null)[];
  keys: (readonly unknown[] | null)[];
}
const lociRows = new WeakMap<FlowCache, LociRows>();

function rowsFor(cache: FlowCache, g: GraphState, positions: Map<string, Point>): { rows: LociRows; n0: number; samePoints: boolean } {
  let rows = lociRows.get(cache);
  const n = rows?.ids.length ?? 0;
  if (!rows || !onlyGrew(g, rows.sessionId, n, rows.ids[n - 1])) {
    rows = { sessionId: g.sessionId, ids: [], positions: null, points: [], items: [], keys: [] };
    lociRows.set(cache, rows);
  }
  const samePoints = rows.positions === positions;
  rows.positions = positions;
  return { rows, n0: rows.ids.length, samePoints };
}

export function flowNodes(
  g: GraphState,
  ghosts: Ghost[],
  positions: Map<string, Point>,
  selectedId: string | null,
  cache?: FlowCache,
  extras: MapExtras = { highlight: new Set(), crystalId: null, compareId: null },
): Node[] {
  const gen = ++generation;
  const out: Node[] = [];
  const fenceBy = new Map(g.fences.map((f) => [f.concept.toLowerCase(), f.action]));
  const { rows, n0, samePoints } = cache ? rowsFor(cache, g, positions) : { rows: null, n0: 0, samePoints: false };
  let hints = false;
  for (const _ in g.hints) {
    hints = true;
    break;
  }
  const hl = extras.highlight.size > 0;
  const { order, loci } = g;
  for (let i = 0; i < order.length; i++) {
    const id = order[i];
    const n = loci[id];
    const p = (samePoints && i < n0 && rows!.points[i]) || positions.get(id);
    if (rows && i >= n0) rows.ids.push(id);
    if (rows) rows.points[i] = p;
    if (!p) {
      if (rows) {
        rows.items[i] = null;
        rows.keys[i] = null;
      }
      continue;
    }
    const current = id === g.currentLocusId;
    const selected = id === selectedId || id === extras.compareId;
    const hint = hints && g.hints[id] !== undefined;
    const fence = fenceBy.size ? (fenceBy.get(n.concept.toLowerCase()) ?? null) : null;
    const highlighted = hl && extras.highlight.has(id);
    const fresh = n.firstStep >= g.stepCount - 1;
    // (compared field by field: the usual case, nothing changed, builds nothing)
    const k = rows && i < n0 ? rows.keys[i] : null;
    if (k && k[0] === p.x && k[1] === p.y && k[2] === n && k[3] === current && k[4] === selected && k[5] === hint && k[6] === highlighted && k[7] === fresh && k[8] === fence) {
      out.push(rows!.items[i]!);
      continue;
    }
    const item = locusNode(id, n, p, locusRadius(n.visit_count), current, { selected, hint, fence, highlighted, fresh });
    if (rows) {
      rows.items[i] = item;
      rows.keys[i] = [p.x, p.y, n, current, selected, hint, highlighted, fresh, fence];
    }
    out.push(item);
  }
  const loci0 = out.length;
  eachMapNode(g, ghosts, (id, n) => {
    const p = positions.get(id);
    if (!p) return;
    switch (n.kind) {
      case "locus":
        break; // (above)
      case "crystal": {
        const data: CrystalNodeData = {
          insight: n.insight,
          v: n.V ?? null,
          verdict: n.verdict ?? null,
          status: n.status,
          review: n.review,
          thumb: attractorUrl(n.id),
          size: CRYSTAL_SIZE,
          selected: extras.crystalId === n.id,
        };
        out.push(cached(cache, gen, id, `${p.x},${p.y},${JSON.stringify(data)}`, () => ({ id, type: "crystal", position: { x: p.x - CRYSTAL_SIZE / 2, y: p.y - CRYSTAL_SIZE / 2 },
          width: CRYSTAL_SIZE, height: CRYSTAL_SIZE, data, zIndex: 4, draggable: false, connectable: false })));
        break;
      }
      case "subwander": {
        const data: SubwanderNodeData = { seed: n.seed_concept, steps: n.step_count, maxSteps: n.max_steps, status: n.status ?? "spawned", running: n.running, w: SUB_W, h: SUB_H };
        out.push(cached(cache, gen, id, `${p.x},${p.y},${JSON.stringify(data)}`, () => ({ id, type: "subwander", position: { x: p.x - SUB_W / 2, y: p.y - SUB_H / 2 },
          width: SUB_W, height: SUB_H, data, zIndex: 4, draggable: false, connectable: false })));
        break;
      }
      case "candidate":
        out.push(cached(cache, gen, id, `${p.x},${p.y},${n.concept},${n.probability}`, () => ghostNode(n, p)));
        break;
    }
  }, false);
  prune(cache, gen, out.length - loci0);
  return out;
}

interface LocusMarks {
  selected: boolean;
  hint: boolean;
  fence: "include" | "exclude" | null;
  highlighted: boolean;
  fresh: boolean;
}

function locusNode(id: string, l: GraphState["loci"][string], p: Point, r: number, current: boolean, m: LocusMarks): Node {
  const data: LocusNodeData = {
    concept: l.concept,
    domains: l.domains,
    visits: l.visit_count,
    r,
    current,
    seed: l.source_type === "SEED",
    planted: !!l.planted,
    selected: m.selected,
    step: l.firstStep,
    hint: m.hint,
    fence: m.fence,
    highlighted: m.highlighted,
    fresh: m.fresh,
  };
  return {
    id,
    type: "locus",
    position: { x: p.x - r, y: p.y - r },
    width: 2 * r,
    height: 2 * r,
    handles: locusHandles(r),
    data,
    zIndex: current ? 3 : 2,
    draggable: true,
    connectable: false,
  };
}

const handlesByRadius = new Map<number, NodeHandle[]>();
/** Where LocusNode's hidden 1 px handle sits (at the centre), known up front: React Flow
 * then need not mount a locus outside the view once just to measure it (with
 * onlyRenderVisibleElements it renders every node whose handles it has not measured yet, so
 * a view jumping to a new area of a large map mounted thousands of loci). One handle serves
 * the edges at both ends (the map's connection mode is loose). */
function locusHandles(r: number): NodeHandle[] {
  let hs = handlesByRadius.get(r);
  if (!hs) {
    const at = { x: r - 0.5, y: r - 0.5, width: 1, height: 1 };
    hs = [{ id: null, type: "source", position: Position.Bottom, ...at }];
    handlesByRadius.set(r, hs);
  }
  return hs;
}

function ghostNode(gh: Ghost, p: Point): Node {
  const data: GhostNodeData = {
    concept: gh.concept,
    domains: gh.domains,
    probability: gh.probability,
    reason: gh.reason,
    strategy: gh.strategy,
    r: GHOST_RADIUS,
  };
  return {
    id: gh.id,
    type: "ghost",
    position: { x: p.x - GHOST_RADIUS, y: p.y - GHOST_RADIUS },
    width: 2 * GHOST_RADIUS,
    height: 2 * GHOST_RADIUS,
    data,
    zIndex: 1,
    draggable: true,
    connectable: false,
    selectable: false,
  };
}

/** The path's React Flow edges of one cache, in the path's order (as LociRows for loci). */
interface PathRows {
  sessionId: string | null;
  edges: PathEdge[];
  items: Edge[];
  keys: [number, number, boolean][];
}
const pathRows = new WeakMap<FlowCache, PathRows>();

export function flowEdges(g: GraphState, adjEdges: AdjEdge[], cache?: FlowCache, extras?: MapExtras): Edge[] {
  const gen = ++generation;
  const r = (id: string) => (g.loci[id] ? locusRadius(g.loci[id].visit_count) : GHOST_RADIUS);
  const path = g.path;
  const last = path.length ? path[path.length - 1].id : null;
  let rows = cache ? pathRows.get(cache) : undefined;
  if (cache && (!rows || rows.sessionId !== g.sessionId)) pathRows.set(cache, (rows = { sessionId: g.sessionId, edges: [], items: [], keys: [] }));
  // the rows still of the path (edges are never changed; one that came late is inserted)
  let same = 0;
  if (rows) {
    const e0 = rows.edges.length;
    if (e0 <= path.length && (e0 === 0 || path[e0 - 1] === rows.edges[e0 - 1])) same = e0;
    else while (same < e0 && same < path.length && path[same] === rows.edges[same]) same++;
    rows.edges.length = same;
    rows.items.length = same;
    rows.keys.length = same;
  }
  const out: Edge[] = [];
  for (let i = 0; i < path.length; i++) {
    const e = path[i];
    const sr = r(e.source);
    const tr = r(e.target);
    const latest = e.id === last;
    const k = i < same ? rows!.keys[i] : null;
    if (k && k[0] === sr && k[1] === tr && k[2] === latest) {
      out.push(rows!.items[i]);
      continue;
    }
    const data: PathEdgeData = { step: e.step, sr, tr, latest, bridge: e.bridge };
    const item: Edge = { id: e.id, type: "path", source: e.source, target: e.target, data, zIndex: 1, selectable: false };
    if (rows) {
      rows.edges[i] = e;
      rows.items[i] = item;
      rows.keys[i] = [sr, tr, latest];
    }
    out.push(item);
  }
  const path0 = out.length;
  for (const e of adjEdges) {
    const data: AdjacencyEdgeData = { probability: e.probability, sr: r(e.source), tr: r(e.target), ghost: e.ghost };
    const key = `${e.source},${e.target},${data.sr},${data.tr},${e.probability}`;
    out.push(cached(cache, gen, e.id, key, () => ({ id: e.id, type: "adjacency", source: e.source, target: e.target, data, zIndex: 0, selectable: false })));
  }
  const hl = extras?.highlight ?? new Set<string>();
  for (const e of resonanceLinks(g)) {
    const data: ResonanceEdgeData = { sr: r(e.source), tr: r(e.target), highlighted: hl.has(e.source) && hl.has(e.target) };
    const key = `${data.sr},${data.tr},${data.highlighted}`;
    out.push(cached(cache, gen, e.id, key, () => ({ id: e.id, type: "resonance", source: e.source, target: e.target, data, zIndex: 0, selectable: false })));
  }
  for (const b of Object.values(g.bridges ?? {})) {
    if (!g.loci[b.source] || !g.loci[b.target]) continue;
    const data: BridgeEdgeData = { sr: r(b.source), tr: r(b.target), bridgeType: b.bridgeType, strength: b.strength };
    out.push(cached(cache, gen, b.id, `${data.sr},${data.tr}`, () => ({ id: b.id, type: "bridge", source: b.source, target: b.target, data, zIndex: 0, selectable: false })));
  }
  for (const cid of g.crystalOrder) {
    for (const [i, b] of g.crystals[cid].bread.entries()) {
      if (!b || !g.loci[b]) continue;
      const id = `cl:${cid}:${i}`;
      const data: LinkEdgeData = { sr: r(b), tr: CRYSTAL_SIZE / 2 + 2, kind: "crystal" };
      out.push(cached(cache, gen, id, `${data.sr}`, () => ({ id, type: "link", source: b, target: `crystal:${cid}`, data, zIndex: 0, selectable: false })));
    }
  }
  for (const sid of g.subwanderOrder) {
    const c: MapSubwander = g.subwanders[sid];
    const parent = anchorOf(g, c);
    if (!parent) continue;
    const id = `sl:${c.id}`;
    const data: LinkEdgeData = { sr: r(parent), tr: SUB_H / 2, kind: "subwander" };
    out.push(cached(cache, gen, id, `${data.sr}`, () => ({ id, type: "link", source: parent, target: mapNodeId(c), data, zIndex: 0, selectable: false })));
  }
  prune(cache, gen, out.length - path0);
  return out;
}
