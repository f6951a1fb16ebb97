// The force layout's input from the store's graph: every node of the map with the locus it
// hangs from, and the links between them; made incrementally as a walk grows.
import { anchorOf, eachMapNode, type GhostNode as Ghost, type GraphState, type MapCrystal, type MapLocus, type PathEdge } from "../store";
import type { LayoutInput, LayoutLink, LayoutNode } from "./layout/types";
import { CRYSTAL_SIZE, GHOST_RADIUS, locusRadius, SUB_W } from "./palette";

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
  /** The input handed out last: handed out again while nothing in it changed. */
  last: LayoutInput | null;
}

export const layoutInputCache = (): LayoutInputCache => ({ sessionId: null, recs: [], nodes: [], edges: [], links: [], last: null });

/** The layout's input: every node of the graph with the locus it hangs from. With a
 * `cache` (one per map), the loci and steps already seen are not made again: the graph's
 * order and path only grow while it is the same walk (a locus's record is replaced when it
 * changes, so a record compared by identity says whether its node still holds); and the
 * input handed out last is handed out again while its nodes and links are the same (a
 * graph changed by a residue or a crystal's verdict is not laid out again). */
export function layoutInput(g: GraphState, ghosts: Ghost[], cache?: LayoutInputCache): LayoutInput {
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
  if (!cache) return { nodes, links };
  if (cache.last && sameItems(cache.last.nodes, nodes) && sameItems(cache.last.links, links)) return cache.last;
  return (cache.last = { nodes, links });
}

/** Whether `a` and `b` hold the same items (the same objects, or objects with the same fields). */
function sameItems<T extends object>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !sameFields(a[i], b[i])) return false;
  return true;
}

function sameFields(a: object, b: object): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if ((a as Record<string, unknown>)[k] !== (b as Record<string, unknown>)[k]) return false;
  return true;
}

/** Whether `g` is still the walk `sessionId` and its order only grew past the `n` loci seen
 * last (the last of them `lastId`): then what was made for those still holds. */
export function onlyGrew(g: GraphState, sessionId: string | null, n: number, lastId: string | undefined): boolean {
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
