// Turns the store's graph (plus laid-out positions) into React Flow nodes and edges: one
// React Flow node per node of the graph, its type the node's `kind` ("candidate" is drawn
// by the "ghost" node type).
import { Position, type Edge, type Node, type NodeHandle } from "@xyflow/react";
import {
  anchorOf,
  eachMapNode,
  mapNodeId,
  resonanceLinks,
  type AdjacencyEdge as AdjEdge,
  type GhostNode as Ghost,
  type GraphState,
  type MapSubwander,
  type PathEdge,
} from "../store";
import { placedSince } from "./layout/growth";
import type { Point } from "./layout/types";
import { onlyGrew } from "./layoutInput";
import { CRYSTAL_SIZE, GHOST_RADIUS, locusRadius, SUB_H, SUB_W } from "./palette";
import type { AdjacencyEdgeData, BridgeEdgeData, LinkEdgeData, PathEdgeData, ResonanceEdgeData } from "./edges";
import type { CrystalNodeData, GhostNodeData, LocusNodeData, SubwanderNodeData } from "./nodes";

export const attractorUrl = (id: string) => `/api/v1/wander/crystals/${encodeURIComponent(id)}/attractor.png`;

/** What the map marks besides the graph: highlights and the open crystal and compare pair. */
export interface MapExtras {
  highlight: Set<string>;
  crystalId: string | null;
  compareId: string | null;
}

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
  /** The positions map they were made with. */
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
  // (positions that only grew since: the loci's points are the same, see growth.ts)
  const samePoints = rows.positions !== null && placedSince(rows.positions, positions) !== null;
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
  otherNodes(g, ghosts, positions, cache, gen, extras, out);
  prune(cache, gen, out.length - loci0);
  return out;
}

/** The nodes that are not loci (crystals, sub-wanders, candidates), appended to `out`. */
function otherNodes(g: GraphState, ghosts: Ghost[], positions: Map<string, Point>, cache: FlowCache | undefined, gen: number, extras: MapExtras, out: Node[]): void {
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
