// Derived views of the graph (selectors): what the map draws, computed from the graph and
// never stored: its nodes of every kind in drawing order, the links of confirmed resonances,
// and the latest step's candidates as dashed edges and ghost nodes.
import type { GraphState, MapCrystal, MapLocus, MapSubwander } from "./graph";

/** Loci linked by confirmed resonances: consecutive loci of each theme's list. */
export function resonanceLinks(g: GraphState): { id: string; source: string; target: string; resonanceId: string }[] {
  const out: { id: string; source: string; target: string; resonanceId: string }[] = [];
  for (const r of Object.values(g.resonances)) {
    if (r.status !== "confirmed") continue;
    const loci = r.loci.filter((id) => g.loci[id]);
    for (let i = 1; i < loci.length; i++) out.push({ id: `res:${r.id}:${i}`, source: loci[i - 1], target: loci[i], resonanceId: r.id });
  }
  return out;
}

/** Any node of the graph, discriminated on `kind`. */
export type MapNode = MapLocus | MapCrystal | MapSubwander | GhostNode;

/** The id a node has on the map (loci keep theirs; the other kinds are prefixed). */
export function mapNodeId(n: MapNode): string {
  switch (n.kind) {
    case "locus":
    case "candidate":
      return n.id;
    case "crystal":
      return `crystal:${n.id}`;
    case "subwander":
      return `sub:${n.id}`;
  }
}

/** The locus a node hangs from on the map (null for a root locus or a node with none there). */
export function anchorOf(g: GraphState, n: MapNode): string | null {
  switch (n.kind) {
    case "locus":
      return n.parentId;
    case "candidate":
      return n.parentId;
    case "crystal":
      return n.bread.find((b): b is string => !!b && !!g.loci[b]) ?? null;
    case "subwander":
      return n.parent_locus_id && g.loci[n.parent_locus_id] ? n.parent_locus_id : null;
  }
}

/**
 * Every node the map draws, by map id, in drawing order: loci (in order of appearance),
 * crystals and sub-wanders attached to a locus on the map, then the latest step's candidates.
 */
export function mapNodes(g: GraphState, ghosts: GhostNode[] = []): Map<string, MapNode> {
  const out = new Map<string, MapNode>();
  eachMapNode(g, ghosts, (id, n) => out.set(id, n));
  return out;
}

/** The nodes `mapNodes` lists, in its order, handed to `f` one by one without building the map
 * (the map's ids are unique: a locus's own, the other kinds prefixed). A live step of a long
 * walk goes over them twice (layout input, React Flow nodes): no map of thousands each time.
 * `withLoci` false: all but the loci (a caller that keeps its own of those). */
export function eachMapNode(g: GraphState, ghosts: GhostNode[], f: (id: string, n: MapNode) => void, withLoci = true): void {
  if (withLoci) for (const id of g.order) f(id, g.loci[id]);
  for (const id of g.crystalOrder) {
    const c = g.crystals[id];
    if (anchorOf(g, c)) f(mapNodeId(c), c);
  }
  for (const id of g.subwanderOrder) {
    const c = g.subwanders[id];
    if (anchorOf(g, c)) f(mapNodeId(c), c);
  }
  for (const gh of ghosts) f(gh.id, gh);
}

// ---- derived view: dashed adjacency edges and ghost nodes ----------------------------

export interface GhostNode {
  kind: "candidate";
  id: string;
  concept: string;
  domains: string[];
  probability: number;
  strategy: string;
  reason: string;
  parentId: string;
}

export interface AdjacencyEdge {
  id: string;
  source: string;
  target: string;
  probability: number;
  ghost: boolean;
}

export const MAX_CANDIDATES_SHOWN = 8;

/** Loci by knowledge-base key (`k:`) and lower-cased concept (`c:`), the later locus winning.
 * Kept between calls and extended by the loci appended since (a locus's concept and key never
 * change), so a step of a long walk does not index thousands of loci again. */
let indexed: { sessionId: string | null; n: number; last: string | undefined; byKey: Map<string, string> } | null = null;

function lociIndex(g: GraphState): Map<string, string> {
  const c = indexed;
  // the same walk, grown (the log is folded in order: a longer order starts with the shorter)
  const grown = c && c.sessionId === g.sessionId && c.n > 0 && c.n <= g.order.length && g.order[c.n - 1] === c.last;
  const byKey = grown ? c.byKey : new Map<string, string>();
  for (let i = grown ? c.n : 0; i < g.order.length; i++) {
    const id = g.order[i];
    const l = g.loci[id];
    if (l.kb_key) byKey.set(`k:${l.kb_key}`, id);
    byKey.set(`c:${l.concept.toLowerCase()}`, id);
  }
  indexed = { sessionId: g.sessionId, n: g.order.length, last: g.order[g.order.length - 1], byKey };
  return byKey;
}

/**
 * The latest step's candidates as dashed edges: to the existing locus when the candidate
 * is one (by locus_id, or because the walk has since reached it), else to a ghost node.
 * Only the most probable `max` are shown; the edge the walk actually took is solid already.
 */
export function adjacencyView(g: GraphState, max = MAX_CANDIDATES_SHOWN): { ghosts: GhostNode[]; edges: AdjacencyEdge[] } {
  const adj = g.adjacency;
  if (!adj || !g.loci[adj.fromId]) return { ghosts: [], edges: [] };
  const byKey = lociIndex(g);
  const taken = new Set<string>();
  for (let k = g.path.length - 1; k >= 0 && g.path[k].step >= adj.step; k--) if (g.path[k].step === adj.step) taken.add(g.path[k].target);
  const ranked = adj.candidates
    .map((c, i) => ({ c, i }))
    .sort((a, b) => (b.c.probability ?? 0) - (a.c.probability ?? 0) || a.i - b.i);
  const ghosts: GhostNode[] = [];
  const edges: AdjacencyEdge[] = [];
  const seen = new Set<string>();
  for (const { c, i } of ranked) {
    if (edges.length >= max) break;
    const existing =
      (c.locus_id && g.loci[c.locus_id] ? c.locus_id : null) ??
      (c.kb_key ? byKey.get(`k:${c.kb_key}`) : undefined) ??
      byKey.get(`c:${c.concept.toLowerCase()}`) ??
      null;
    if (existing === adj.fromId) continue;
    if (existing) {
      if (taken.has(existing) || seen.has(existing)) continue;
      seen.add(existing);
      edges.push({ id: `adj:${adj.step}:${i}`, source: adj.fromId, target: existing, probability: c.probability ?? 0, ghost: false });
    } else {
      const id = `ghost:${adj.step}:${i}`;
      ghosts.push({
        kind: "candidate",
        id,
        concept: c.concept,
        domains: c.domains,
        probability: c.probability ?? 0,
        strategy: c.strategy,
        reason: c.reason,
        parentId: adj.fromId,
      });
      edges.push({ id: `adj:${adj.step}:${i}`, source: adj.fromId, target: id, probability: c.probability ?? 0, ghost: true });
    }
  }
  return { ghosts, edges };
}

