// Turns the store's graph (plus laid-out positions) into React Flow nodes and edges.
import type { Edge, Node } from "@xyflow/react";
import type { FenceOut, SessionOut } from "../api/types.gen";
import { resonanceLinks, type AdjacencyEdge as AdjEdge, type GhostNode as Ghost, type GraphState } from "../store";
import type { LayoutLink, LayoutNode, Point } from "./layout/force";
import { GHOST_RADIUS, locusRadius } from "./palette";
import type { AdjacencyEdgeData, LinkEdgeData, PathEdgeData, ResonanceEdgeData } from "./edges";
import type { CrystalNodeData, GhostNodeData, LocusNodeData, SubwanderNodeData } from "./nodes";

export const CRYSTAL_SIZE = 30;
export const SUB_W = 150;
export const SUB_H = 46;
export const attractorUrl = (id: string) => `/api/v1/wander/crystals/${encodeURIComponent(id)}/attractor.png`;

/** What the map draws besides the walk's own events: sub-wanders, fences, pins, highlights. */
export interface MapExtras {
  children: SessionOut[];
  fences: FenceOut[];
  highlight: Set<string>;
  crystalId: string | null;
  compareId: string | null;
}

export function layoutInput(g: GraphState, ghosts: Ghost[], children: SessionOut[] = []): { nodes: LayoutNode[]; links: LayoutLink[] } {
  const nodes: LayoutNode[] = g.order.map((id) => {
    const l = g.loci[id];
    return { id, parentId: l.parentId, r: locusRadius(l.visit_count), label: l.concept.toLowerCase() };
  });
  for (const gh of ghosts)
    nodes.push({ id: gh.id, parentId: gh.parentId, r: GHOST_RADIUS, label: gh.concept.toLowerCase(), group: `candidates:${gh.id.split(":")[1]}` });
  const links: LayoutLink[] = g.path.map((e) => ({ source: e.source, target: e.target }));
  for (const gh of ghosts) links.push({ source: gh.parentId, target: gh.id });
  for (const id of g.crystalOrder) {
    const bread = g.crystals[id].bread.filter((b): b is string => !!b && !!g.loci[b]);
    if (!bread.length) continue;
    nodes.push({ id: `crystal:${id}`, parentId: bread[0], r: CRYSTAL_SIZE / 2 + 6 });
    for (const b of bread) links.push({ source: b, target: `crystal:${id}` });
  }
  for (const c of children) {
    if (!c.parent_locus_id || !g.loci[c.parent_locus_id]) continue;
    nodes.push({ id: `sub:${c.id}`, parentId: c.parent_locus_id, r: SUB_W / 2 });
    links.push({ source: c.parent_locus_id, target: `sub:${c.id}` });
  }
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
  extras: MapExtras = { children: [], fences: [], highlight: new Set(), crystalId: null, compareId: null },
): Node[] {
  const next: FlowCache | undefined = cache ? new Map() : undefined;
  const out: Node[] = [];
  const fenceBy = new Map(extras.fences.map((f) => [f.concept.toLowerCase(), f.action]));
  for (const id of g.order) {
    const l = g.loci[id];
    const p = positions.get(id);
    if (!p) continue;
    const r = locusRadius(l.visit_count);
    const current = id === g.currentLocusId;
    const marks: LocusMarks = {
      selected: id === selectedId || id === extras.compareId,
      hint: !!g.hints[id] || !!l.planted,
      fence: fenceBy.get(l.concept.toLowerCase()) ?? null,
      highlighted: extras.highlight.has(id),
    };
    const key = `${p.x},${p.y},${r},${l.visit_count},${current},${l.concept},${l.domains.join("|")},${l.source_type},${JSON.stringify(marks)}`;
    out.push(cached(cache, next, id, key, () => locusNode(id, l, p, r, current, marks)));
  }
  for (const cid of g.crystalOrder) {
    const c = g.crystals[cid];
    const p = positions.get(`crystal:${cid}`);
    if (!p) continue;
    const data: CrystalNodeData = {
      insight: c.insight,
      v: c.V ?? null,
      verdict: c.verdict ?? null,
      status: c.status,
      review: c.review,
      thumb: attractorUrl(cid),
      size: CRYSTAL_SIZE,
      selected: extras.crystalId === cid,
    };
    const key = `${p.x},${p.y},${JSON.stringify(data)}`;
    const id = `crystal:${cid}`;
    out.push(cached(cache, next, id, key, () => ({ id, type: "crystal", position: { x: p.x - CRYSTAL_SIZE / 2, y: p.y - CRYSTAL_SIZE / 2 },
      width: CRYSTAL_SIZE, height: CRYSTAL_SIZE, data, zIndex: 4, draggable: false, connectable: false })));
  }
  for (const c of extras.children) {
    const id = `sub:${c.id}`;
    const p = positions.get(id);
    if (!p) continue;
    const data: SubwanderNodeData = { seed: c.seed_concept, steps: c.step_count, maxSteps: c.max_steps, status: c.status, running: c.running, w: SUB_W, h: SUB_H };
    const key = `${p.x},${p.y},${JSON.stringify(data)}`;
    out.push(cached(cache, next, id, key, () => ({ id, type: "subwander", position: { x: p.x - SUB_W / 2, y: p.y - SUB_H / 2 },
      width: SUB_W, height: SUB_H, data, zIndex: 4, draggable: false, connectable: false })));
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

interface LocusMarks {
  selected: boolean;
  hint: boolean;
  fence: "include" | "exclude" | null;
  highlighted: boolean;
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
  };
  return {
    id,
    type: "locus",
    position: { x: p.x - r, y: p.y - r },
    width: 2 * r,
    height: 2 * r,
    data,
    zIndex: current ? 3 : 2,
    draggable: true,
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
    draggable: true,
    connectable: false,
    selectable: false,
  };
}

export function flowEdges(g: GraphState, adjEdges: AdjEdge[], cache?: FlowCache, extras?: MapExtras): Edge[] {
  const next: FlowCache | undefined = cache ? new Map() : undefined;
  const r = (id: string) => (g.loci[id] ? locusRadius(g.loci[id].visit_count) : GHOST_RADIUS);
  const last = g.path.length ? g.path[g.path.length - 1].id : null;
  const out: Edge[] = g.path.map((e) => {
    const data: PathEdgeData = { step: e.step, sr: r(e.source), tr: r(e.target), latest: e.id === last, bridge: e.bridge };
    const key = `${e.source},${e.target},${data.sr},${data.tr},${data.latest},${e.bridge}`;
    return cached(cache, next, e.id, key, () => ({ id: e.id, type: "path", source: e.source, target: e.target, data, zIndex: 1, selectable: false }));
  });
  for (const e of adjEdges) {
    const data: AdjacencyEdgeData = { probability: e.probability, sr: r(e.source), tr: r(e.target), ghost: e.ghost };
    const key = `${e.source},${e.target},${data.sr},${data.tr},${e.probability}`;
    out.push(cached(cache, next, e.id, key, () => ({ id: e.id, type: "adjacency", source: e.source, target: e.target, data, zIndex: 0, selectable: false })));
  }
  const hl = extras?.highlight ?? new Set<string>();
  for (const e of resonanceLinks(g)) {
    const data: ResonanceEdgeData = { sr: r(e.source), tr: r(e.target), highlighted: hl.has(e.source) && hl.has(e.target) };
    const key = `${data.sr},${data.tr},${data.highlighted}`;
    out.push(cached(cache, next, e.id, key, () => ({ id: e.id, type: "resonance", source: e.source, target: e.target, data, zIndex: 0, selectable: false })));
  }
  for (const cid of g.crystalOrder) {
    for (const [i, b] of g.crystals[cid].bread.entries()) {
      if (!b || !g.loci[b]) continue;
      const id = `cl:${cid}:${i}`;
      const data: LinkEdgeData = { sr: r(b), tr: CRYSTAL_SIZE / 2 + 2, kind: "crystal" };
      out.push(cached(cache, next, id, `${data.sr}`, () => ({ id, type: "link", source: b, target: `crystal:${cid}`, data, zIndex: 0, selectable: false })));
    }
  }
  for (const c of extras?.children ?? []) {
    if (!c.parent_locus_id || !g.loci[c.parent_locus_id]) continue;
    const id = `sl:${c.id}`;
    const data: LinkEdgeData = { sr: r(c.parent_locus_id), tr: SUB_H / 2, kind: "subwander" };
    out.push(cached(cache, next, id, `${data.sr}`, () => ({ id, type: "link", source: c.parent_locus_id!, target: `sub:${c.id}`, data, zIndex: 0, selectable: false })));
  }
  if (cache && next) {
    cache.clear();
    for (const [k, v] of next) cache.set(k, v);
  }
  return out;
}
