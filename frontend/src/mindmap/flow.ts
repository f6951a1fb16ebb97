// Turns the store's graph (plus laid-out positions) into React Flow nodes and edges.
import type { Edge, Node } from "@xyflow/react";
import type { AdjacencyEdge as AdjEdge, GhostNode as Ghost, GraphState } from "../store";
import type { LayoutLink, LayoutNode, Point } from "./layout/force";
import { GHOST_RADIUS, locusRadius } from "./palette";
import type { AdjacencyEdgeData, PathEdgeData } from "./edges";
import type { GhostNodeData, LocusNodeData } from "./nodes";

export function layoutInput(g: GraphState, ghosts: Ghost[]): { nodes: LayoutNode[]; links: LayoutLink[] } {
  const nodes: LayoutNode[] = g.order.map((id) => {
    const l = g.loci[id];
    return { id, parentId: l.parentId, r: locusRadius(l.visit_count), label: l.concept.toLowerCase() };
  });
  for (const gh of ghosts)
    nodes.push({ id: gh.id, parentId: gh.parentId, r: GHOST_RADIUS, label: gh.concept.toLowerCase(), group: `candidates:${gh.id.split(":")[1]}` });
  const links: LayoutLink[] = g.path.map((e) => ({ source: e.source, target: e.target }));
  for (const gh of ghosts) links.push({ source: gh.parentId, target: gh.id });
  return { nodes, links };
}

/** Node and edge objects from the previous render, reused when nothing about them changed,
 * so that React Flow only updates what did (a replay of hundreds of loci stays cheap). */
export type FlowCache = Map<string, { key: string; item: Node | Edge }>;

function cached<T extends Node | Edge>(cache: FlowCache | undefined, next: FlowCache | undefined, id: string, key: string, make: () => T): T {
  const hit = cache?.get(id);
  const item = hit && hit.key === key ? (hit.item as T) : make();
  next?.set(id, { key, item });
  return item;
}

export function flowNodes(
  g: GraphState,
  ghosts: Ghost[],
  positions: Map<string, Point>,
  selectedId: string | null,
  cache?: FlowCache,
): Node[] {
  const next: FlowCache | undefined = cache ? new Map() : undefined;
  const out: Node[] = [];
  for (const id of g.order) {
    const l = g.loci[id];
    const p = positions.get(id);
    if (!p) continue;
    const r = locusRadius(l.visit_count);
    const current = id === g.currentLocusId;
    const key = `${p.x},${p.y},${r},${l.visit_count},${current},${id === selectedId},${l.concept},${l.domains.join("|")},${l.source_type}`;
    out.push(cached(cache, next, id, key, () => locusNode(id, l, p, r, current, id === selectedId)));
  }
  for (const gh of ghosts) {
    const p = positions.get(gh.id);
    if (!p) continue;
    const key = `${p.x},${p.y},${gh.concept},${gh.probability}`;
    out.push(cached(cache, next, gh.id, key, () => ghostNode(gh, p)));
  }
  if (cache && next) {
    cache.clear();
    for (const [k, v] of next) cache.set(k, v);
  }
  return out;
}

function locusNode(id: string, l: GraphState["loci"][string], p: Point, r: number, current: boolean, selected: boolean): Node {
  const data: LocusNodeData = {
    concept: l.concept,
    domains: l.domains,
    visits: l.visit_count,
    r,
    current,
    seed: l.source_type === "SEED",
    planted: !!l.planted,
    selected,
    step: l.firstStep,
  };
  return {
    id,
    type: "locus",
    position: { x: p.x - r, y: p.y - r },
    width: 2 * r,
    height: 2 * r,
    data,
    zIndex: current ? 3 : 2,
    draggable: false,
    connectable: false,
  };
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
    draggable: false,
    connectable: false,
    selectable: false,
  };
}

export function flowEdges(g: GraphState, adjEdges: AdjEdge[], cache?: FlowCache): Edge[] {
  const next: FlowCache | undefined = cache ? new Map() : undefined;
  const r = (id: string) => (g.loci[id] ? locusRadius(g.loci[id].visit_count) : GHOST_RADIUS);
  const last = g.path.length ? g.path[g.path.length - 1].id : null;
  const out: Edge[] = g.path.map((e) => {
    const data: PathEdgeData = { step: e.step, sr: r(e.source), tr: r(e.target), latest: e.id === last };
    const key = `${e.source},${e.target},${data.sr},${data.tr},${data.latest}`;
    return cached(cache, next, e.id, key, () => ({ id: e.id, type: "path", source: e.source, target: e.target, data, zIndex: 1, selectable: false }));
  });
  for (const e of adjEdges) {
    const data: AdjacencyEdgeData = { probability: e.probability, sr: r(e.source), tr: r(e.target), ghost: e.ghost };
    const key = `${e.source},${e.target},${data.sr},${data.tr},${e.probability}`;
    out.push(cached(cache, next, e.id, key, () => ({ id: e.id, type: "adjacency", source: e.source, target: e.target, data, zIndex: 0, selectable: false })));
  }
  if (cache && next) {
    cache.clear();
    for (const [k, v] of next) cache.set(k, v);
  }
  return out;
}
