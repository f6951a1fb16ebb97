// The one store. The mind map is built from session events: `reduceEvent` folds an event
// into the graph and is pure, so replay, dedupe and live updates are one code path. The
// graph's nodes are of several kinds (locus, candidate, crystal, sub-wander; fractal nodes
// come from proposals), each record carrying its `kind`; `mapNodes` lists them all.
//
// The REST view fills in what this session's stream does not say: the fence a wander was
// created with (a sub-wander inherits its parent's; later changes arrive as
// wander.fence.added / wander.fence.removed and are folded), and the live progress of its
// sub-wanders. A sub-wander node is born of wander.subwander.spawned on this stream; its
// steps and status are on the child's own stream, which the map polls (api/children.ts).
import { create } from "zustand";
import type { ConnState } from "./api/ws";
import type {
  BridgeLink,
  CandidateOut,
  CrystalSummary,
  EventOut,
  FenceAnchorOut,
  FenceOut,
  LocusOut,
  ResidueOut,
  ResonanceSummary,
  SessionOut,
  SessionStatusName,
} from "./api/types.gen";

/** The kinds of node the map draws. "fractal" nodes are proposals (mindmap/fractals.ts). */
export type NodeKind = "locus" | "candidate" | "crystal" | "subwander" | "fractal";

/** A person-planted hint that no step has taken within this many steps has decayed: its
 * marker goes. The backend emits nothing when a planted locus stops being likely (it stays
 * in the distance band's reach for ever), but the band draws candidates around the current
 * locus, and ten steps on the walk has as a rule drifted away from where the hint was put. */
export const HINT_DECAY_STEPS = 10;

export interface MapLocus extends LocusOut {
  kind: "locus";
  /** The locus the walk came from when it first reached this one (null for the seed). */
  parentId: string | null;
  /** Step at which it first appeared (0 for the seed). */
  firstStep: number;
  /** Planted (a preset's other seed, an inject without a visit): on the map, never walked to yet. */
  planted?: boolean;
}

export interface PathEdge {
  id: string;
  source: string;
  target: string;
  step: number;
  /** The step crossed domains (the two loci share none). */
  bridge: boolean;
}

/** A bridge across domains between two loci off the path (from step.completed's `bridges`):
 * the locus the step reached bridges to an earlier one of other domains near it. */
export interface MapBridge {
  id: string;
  /** The earlier locus. */
  source: string;
  /** The locus the step reached. */
  target: string;
  bridgeType: string;
  strength: number;
  step: number;
}

export interface MapCrystal extends CrystalSummary {
  kind: "crystal";
  /** Seq of the event that formed it (the archive timeline places it there). */
  seq: number;
  validated: boolean;
  /** A person's verdict, once given (crystals kept for review). */
  review: "accept" | "reject" | null;
}

/** A sub-wander spawned from a locus of this wander: folded from wander.subwander.spawned.
 * Its progress (steps, status, running) is the child's, from the REST poll (see the top). */
export interface MapSubwander {
  kind: "subwander";
  /** The child session's id. */
  id: string;
  parent_locus_id: string;
  seed_concept: string;
  name: string;
  max_steps: number;
  budget_share: number;
  cloud_budget_cents: number;
  /** Seq of the event that spawned it. */
  seq: number;
  /** The child's progress as the poll last saw it: 0, null (not seen yet) and false until then. */
  step_count: number;
  status: SessionStatusName | null;
  running: boolean;
}

export interface MapResonance extends ResonanceSummary {
  /** Loci reached by the steps whose residue fed this resonance, in order. */
  loci: string[];
}

export interface Adjacency {
  step: number;
  fromId: string;
  candidates: CandidateOut[];
}

export interface GraphState {
  sessionId: string | null;
  /** Highest event seq applied; events with seq <= lastSeq are ignored. */
  lastSeq: number;
  loci: Record<string, MapLocus>;
  /** Locus ids in order of first appearance. */
  order: string[];
  /** Solid edges of the walk, in step order. */
  path: PathEdge[];
  /** Candidates of the latest step (dashed edges); replaced by every adjacencies.found. */
  adjacency: Adjacency | null;
  currentLocusId: string | null;
  stepCount: number;
  /** Step in progress (step.started seen, step.completed not yet), else null. */
  stepping: number | null;
  status: SessionStatusName | null;
  name: string | null;
  seedConcept: string | null;
  attractor: string | null;
  maxSteps: number | null;
  stoppedReason: string | null;
  /** Last circuit breaker that tripped. */
  tripped: { reason: string; detail: string } | null;
  /** Residue of the encounter that first reached each locus, from step.completed. */
  arrivedBy: Record<string, ResidueOut>;
  /** Events applied (not counting ignored duplicates). */
  applied: number;
  crystals: Record<string, MapCrystal>;
  crystalOrder: string[];
  resonances: Record<string, MapResonance>;
  /** Resonances touched by the step in progress (its events come before step.completed). */
  stepResonances: string[];
  /** Loci planted by a person (a hint, not forced), by the step they were planted at; a
   * hint goes when a step visits it or HINT_DECAY_STEPS steps pass without one. */
  hints: Record<string, number>;
  /** The fence as the latest fence event (or, before any, the REST view) left it. */
  fences: FenceAnchorOut[];
  /** A fence event has been folded: the REST view no longer sets the fence. */
  fenceFromEvents: boolean;
  /** Sub-wanders spawned from this wander's loci, in order of spawning. */
  subwanders: Record<string, MapSubwander>;
  subwanderOrder: string[];
  /** Bridges between loci off the path, by id (one per pair of loci, the latest learned). */
  bridges: Record<string, MapBridge>;
}

/** The step's bridges to loci off the path (the one to the locus it came from is its path edge). */
function withBridges(g: GraphState, to: string, from: string, step: number, links: BridgeLink[]): GraphState {
  const off = links.filter((b) => b.locus_id !== from && b.locus_id !== to && g.loci[b.locus_id]);
  if (!off.length) return g;
  const bridges = mine(g.bridges, copyRecord);
  for (const b of off) {
    const [a, z] = b.locus_id < to ? [b.locus_id, to] : [to, b.locus_id];
    const id = `br:${a}:${z}`;
    bridges[id] = { id, source: b.locus_id, target: to, bridgeType: b.bridge_type, strength: b.strength, step };
  }
  return { ...g, bridges };
}

export function emptyGraph(sessionId: string | null = null): GraphState {
  return {
    sessionId,
    lastSeq: 0,
    loci: {},
    order: [],
    path: [],
    adjacency: null,
    currentLocusId: null,
    stepCount: 0,
    stepping: null,
    status: null,
    name: null,
    seedConcept: null,
    attractor: null,
    maxSteps: null,
    stoppedReason: null,
    tripped: null,
    arrivedBy: {},
    applied: 0,
    crystals: {},
    crystalOrder: [],
    resonances: {},
    stepResonances: [],
    hints: {},
    fences: [],
    fenceFromEvents: false,
    subwanders: {},
    subwanderOrder: [],
    bridges: {},
  };
}

/** Containers made during the current batch (reduceEvents): no one else has seen them yet,
 * so the rest of the batch may write into them instead of copying them again for every
 * event. Outside a batch it is null and every write copies (reduceEvent stays pure). */
let owned: WeakSet<object> | null = null;

function mine<T extends object>(x: T, copy: (x: T) => T): T {
  if (owned?.has(x)) return x;
  const c = copy(x);
  owned?.add(c);
  return c;
}
const copyRecord = <T extends object>(x: T): T => ({ ...x });
const copyArray = <T,>(x: T[]): T[] => x.slice();

/** `g` with `rec[key] = value` written into a record of the graph (copied unless owned). */
function withEntry<K extends "loci" | "arrivedBy" | "hints", V extends GraphState[K][string]>(g: GraphState, field: K, key: string, value: V): GraphState {
  const rec = mine(g[field], copyRecord) as Record<string, V>;
  rec[key] = value;
  return { ...g, [field]: rec };
}

/** Does `prev` already say everything `locus` says? (Arrays compared item by item.) */
function holds(prev: MapLocus, locus: LocusOut): boolean {
  for (const [k, v] of Object.entries(locus)) {
    const p = (prev as unknown as Record<string, unknown>)[k];
    if (p === v) continue;
    if (!Array.isArray(p) || !Array.isArray(v) || p.length !== v.length || p.some((x, i) => x !== v[i])) return false;
  }
  return true;
}

function upsertLocus(g: GraphState, locus: LocusOut, parentId: string | null, step: number): GraphState {
  const prev = g.loci[locus.id];
  if (prev) {
    // a step's from-locus is as a rule unchanged: the record (and the map's node) stays
    if (holds(prev, locus)) return g;
    return withEntry(g, "loci", locus.id, { ...prev, ...locus, kind: "locus", parentId: prev.parentId, firstStep: prev.firstStep });
  }
  const order = mine(g.order, copyArray);
  order.push(locus.id);
  return { ...withEntry(g, "loci", locus.id, { ...locus, kind: "locus", parentId, firstStep: step }), order };
}

/** Folds one event into the graph. Pure: returns the same object when the event is ignored. */
export function reduceEvent(g: GraphState, ev: EventOut): GraphState {
  if (g.sessionId && ev.session_id && ev.session_id !== g.sessionId) return g;
  if (ev.seq <= g.lastSeq) return g; // replayed twice or stale: no duplicates
  let next: GraphState = { ...g, lastSeq: ev.seq, applied: g.applied + 1 };
  // `subject` discriminates the union: in each case `ev.payload` is that subject's payload.
  switch (ev.subject) {
    case "wander.session.created": {
      const c = ev.payload;
      next = {
        ...next,
        status: "active",
        name: next.name ?? c.name, // a REST view already read has the name now (a rename)
        seedConcept: c.seed_concept,
        attractor: c.attractor,
        // the limit the wander was created with: a REST view already read says the limit now
        // (an extend or a PATCH of max_steps raises it, and no event says so)
        maxSteps: next.maxSteps ?? c.max_steps,
      };
      break;
    }
    case "wander.step.started": {
      const c = ev.payload;
      next = { ...next, stepping: c.step_number };
      break;
    }
    case "wander.adjacencies.found": {
      const c = ev.payload;
      next = { ...next, adjacency: { step: c.step_number, fromId: c.from_locus_id, candidates: c.candidates ?? [] } };
      break;
    }
    case "wander.locus.planted": {
      // A hint on the map, not a move: "current" stays where the walk is.
      // A person's hint is placed beside the locus the walk was at (where it was dropped).
      // A hint of a concept the wander already has names that locus: it stays where it is, and
      // stays walked if it was.
      const c = ev.payload;
      const prev = next.loci[c.locus.id];
      next = upsertLocus(next, c.locus, c.source === "inject" ? next.currentLocusId : null, c.step_number);
      next = withEntry(next, "loci", c.locus.id, { ...next.loci[c.locus.id], planted: prev ? !!prev.planted : true });
      // a person's hint (not a preset's other seed): marked until visited or decayed
      if (c.source === "inject") next = { ...next, hints: { ...next.hints, [c.locus.id]: c.step_number } };
      break;
    }
    case "wander.locus.visited": {
      const c = ev.payload;
      if (c.injected) {
        // a hint planted from outside: a locus the next steps may choose, not where the walk is
        next = upsertLocus(next, c.locus, next.currentLocusId, c.step_number);
        next = { ...next, hints: { ...next.hints, [c.locus.id]: c.step_number } };
        break;
      }
      const parent = c.step_number > 0 && next.currentLocusId !== c.locus.id ? next.currentLocusId : null;
      next = upsertLocus(next, c.locus, parent, c.step_number);
      next = { ...next, currentLocusId: c.locus.id };
      break;
    }
    case "wander.step.completed": {
      const c = ev.payload;
      next = upsertLocus(next, c.from_locus, null, Math.max(0, c.step_number - 1));
      next = upsertLocus(next, c.to_locus, c.from_locus.id, c.step_number);
      if (next.loci[c.to_locus.id].planted) {
        next = withEntry(next, "loci", c.to_locus.id, { ...next.loci[c.to_locus.id], planted: false });
      }
      const id = `path:${c.step_number}`;
      const edge: PathEdge = {
        id,
        source: c.from_locus.id,
        target: c.to_locus.id,
        step: c.step_number,
        bridge: c.from_locus.domains.length > 0 && c.to_locus.domains.length > 0 && !c.from_locus.domains.some((d) => c.to_locus.domains.includes(d)),
      };
      const lastEdge = next.path[next.path.length - 1];
      let path: PathEdge[];
      if (!lastEdge || lastEdge.step < c.step_number) {
        // the usual case, steps in order: appended (the path is sorted, so it is not there yet)
        path = mine(next.path, copyArray);
        path.push(edge);
      } else if (next.path.some((e) => e.id === id)) path = next.path;
      else {
        path = [...next.path, edge].sort((a, b) => a.step - b.step);
        owned?.add(path);
      }
      const arrivedBy = next.arrivedBy[c.to_locus.id] ? next.arrivedBy : withEntry(next, "arrivedBy", c.to_locus.id, c.residue).arrivedBy;
      next = {
        ...next,
        path,
        arrivedBy,
        currentLocusId: c.to_locus.id,
        stepCount: Math.max(next.stepCount, c.step_number),
        stepping: null,
      };
      if (next.stepResonances.length) {
        const resonances = { ...next.resonances };
        for (const rid of next.stepResonances) {
          const r = resonances[rid];
          if (r && !r.loci.includes(c.to_locus.id)) resonances[rid] = { ...r, loci: [...r.loci, c.to_locus.id] };
        }
        next = { ...next, resonances, stepResonances: [] };
      }
      const hints = Object.entries(next.hints).filter(([id, at]) => id !== c.to_locus.id && c.step_number - at < HINT_DECAY_STEPS);
      if (hints.length !== Object.keys(next.hints).length) next = { ...next, hints: Object.fromEntries(hints) };
      next = withBridges(next, c.to_locus.id, c.from_locus.id, c.step_number, c.bridges ?? []);
      break;
    }
    case "wander.resonance.detected":
    case "wander.resonance.strengthened":
    case "wander.resonance.confirmed": {
      const r = ev.payload.resonance;
      const prev = next.resonances[r.id];
      next = {
        ...next,
        resonances: { ...next.resonances, [r.id]: { ...r, loci: prev?.loci ?? [] } },
        stepResonances: next.stepping !== null && !next.stepResonances.includes(r.id) ? [...next.stepResonances, r.id] : next.stepResonances,
      };
      break;
    }
    case "wander.crystal.formed": {
      const c = ev.payload.crystal;
      if (next.crystals[c.id]) break;
      next = {
        ...next,
        crystals: { ...next.crystals, [c.id]: { ...c, kind: "crystal", seq: ev.seq, validated: false, review: null } },
        crystalOrder: [...next.crystalOrder, c.id],
      };
      break;
    }
    case "wander.crystal.validated": {
      const c = ev.payload;
      const prev = next.crystals[c.crystal_id];
      if (prev) next = { ...next, crystals: { ...next.crystals, [c.crystal_id]: { ...prev, validated: true } } };
      break;
    }
    case "wander.crystal.reviewed": {
      const c = ev.payload;
      const prev = next.crystals[c.crystal_id];
      if (prev) next = { ...next, crystals: { ...next.crystals, [c.crystal_id]: { ...prev, review: c.verdict, status: c.status } } };
      break;
    }
    case "wander.session.paused": {
      const c = ev.payload;
      next = { ...next, status: "paused", stoppedReason: c.reason ?? null, stepping: null };
      break;
    }
    case "wander.session.resumed":
      next = { ...next, status: "active", stoppedReason: null, tripped: null };
      break;
    case "wander.session.completed": {
      // Also how an abandoned wander ends: the payload says which.
      const c = ev.payload;
      next = { ...next, status: c.status ?? "completed", stoppedReason: c.reason ?? null, stepping: null };
      break;
    }
    case "wander.fence.added":
    case "wander.fence.removed":
      // each carries the whole fence after the change
      next = { ...next, fences: ev.payload.fence, fenceFromEvents: true };
      break;
    case "wander.injection.queued":
      // A forced visit queued for the next step: the command's notice says so ("The next
      // step goes to ..."); the map draws the visit when a step takes it (step.completed).
      break;
    case "wander.subwander.spawned": {
      const c = ev.payload;
      if (next.subwanders[c.child_session_id]) break;
      const sub: MapSubwander = {
        kind: "subwander",
        id: c.child_session_id,
        parent_locus_id: c.parent_locus_id,
        seed_concept: c.seed_concept,
        name: c.name,
        max_steps: c.max_steps,
        budget_share: c.budget_share,
        cloud_budget_cents: c.cloud_budget_cents,
        seq: ev.seq,
        step_count: 0,
        status: null,
        running: false,
      };
      next = { ...next, subwanders: { ...next.subwanders, [sub.id]: sub }, subwanderOrder: [...next.subwanderOrder, sub.id] };
      break;
    }
    case "wander.circuit.tripped": {
      const c = ev.payload;
      next = { ...next, tripped: { reason: c.reason, detail: c.detail }, stoppedReason: c.reason };
      break;
    }
    default:
      break; // fence approached, budget, projection, proposal events: not part of the graph
  }
  return next;
}

/** Folds `events` in order. The same as reducing them one by one, but a batch (a replay of
 * thousands of steps) copies each record and list of the graph once, not once per event.
 * `grows`: containers of `g` the caller lets the batch add to in place instead of copying
 * (see `ingest`: the live graph's arrivedBy). */
export function reduceEvents(g: GraphState, events: readonly EventOut[], grows: readonly object[] = []): GraphState {
  // (a single event too: a step writes the loci record twice, and it is thousands of entries)
  if (events.length === 0 || owned) return events.reduce(reduceEvent, g);
  owned = new WeakSet(grows);
  try {
    return events.reduce(reduceEvent, g);
  } finally {
    owned = null;
  }
}

/** The graph as it stood at `uptoSeq` (all of it when omitted): the fold of the log up to
 * that seq. The live map, reconnect catch-up and the archive timeline all use this. */
export function foldEvents(events: EventOut[], uptoSeq?: number, sessionId: string | null = null): GraphState {
  const g = emptyGraph(sessionId ?? events[0]?.session_id ?? null);
  return reduceEvents(g, uptoSeq === undefined ? events : events.filter((e) => e.seq <= uptoSeq));
}

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

/** The children's live progress (steps, status, running, max_steps) from the REST view,
 * onto the sub-wander nodes the events made. A child no event has announced (yet) makes no
 * node. Returns the same graph when nothing changed. */
export function withSubwanders(g: GraphState, children: SessionOut[]): GraphState {
  let subwanders = g.subwanders;
  for (const c of children) {
    const p = subwanders[c.id];
    if (!p) continue;
    if (p.step_count === c.step_count && p.status === c.status && p.running === c.running && p.max_steps === c.max_steps) continue;
    if (subwanders === g.subwanders) subwanders = { ...subwanders };
    subwanders[c.id] = { ...p, step_count: c.step_count, status: c.status, running: c.running, max_steps: c.max_steps };
  }
  return subwanders === g.subwanders ? g : { ...g, subwanders };
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

// ---- the store -----------------------------------------------------------------------

export type Notice = { kind: "ok" | "error"; text: string; at: number };
export type SidePanel = "locus" | "crystal" | "compare" | "trace" | "resonances" | "fences";

export interface WanderStore {
  graph: GraphState;
  /** Every event applied, in seq order: the log the graph is the fold of. */
  log: EventOut[];
  session: SessionOut | null;
  conn: ConnState;
  /** Live events received over the socket (for the events/s counter): a replayed backlog
   * is not counted. */
  received: number;
  selectedId: string | null;
  /** A second locus picked with shift-click: the compare panel shows the pair. */
  compareId: string | null;
  crystalId: string | null;
  panel: SidePanel | null;
  /** The same list as `graph.fences` (kept for readers of the store's top level). */
  fences: FenceOut[];
  /** The sub-wanders as the REST view last listed them (their progress goes onto the nodes
   * `graph.subwanders`, which the spawn events make). */
  children: SessionOut[];
  /** The last command's outcome, shown on the map. */
  notice: Notice | null;
  /** Loci to highlight (a resonance hovered in its panel). */
  highlight: string[];
  /** A locus to centre the view on (search, trace row); `n` changes on every request. */
  focus: { id: string; n: number } | null;
  /** The open context menu of a locus (right click, or the locus panel's button). */
  menu: { locusId: string; x: number; y: number } | null;
  openMenu(m: { locusId: string; x: number; y: number } | null): void;
  openSession(id: string): void;
  /** `replay`: the events are a backlog caught up on, not live (not counted as received). */
  ingest(events: EventOut[], replay?: boolean): void;
  setSession(s: SessionOut): void;
  setConn(c: ConnState): void;
  select(id: string | null): void;
  /** Shift-click: compare this locus with the selected one. */
  selectSecond(id: string): void;
  openCrystal(id: string | null): void;
  openPanel(p: SidePanel | null): void;
  /** The fence as a command's answer gives it, until the fence event arrives. */
  setFences(f: FenceOut[]): void;
  /** The sub-wanders from the REST poll: their progress onto the graph's sub-wander nodes. */
  setChildren(c: SessionOut[]): void;
  say(kind: Notice["kind"], text: string): void;
  setHighlight(ids: string[]): void;
  focusOn(id: string): void;
}

const blank = { log: [] as EventOut[], session: null, conn: "idle" as ConnState, received: 0, selectedId: null, compareId: null,
  crystalId: null, panel: null, fences: [] as FenceOut[], children: [] as SessionOut[], notice: null, highlight: [] as string[], focus: null, menu: null };

export const useWander = create<WanderStore>((set) => ({
  graph: emptyGraph(),
  ...blank,
  openSession: (id) => set((st) => (st.graph.sessionId === id ? st : { graph: emptyGraph(id), ...blank })),
  ingest: (events, replay = false) =>
    set((st) => {
      // The live graph's arrivedBy grows in place: a step at 5,000 loci no longer copies a
      // 5,000-key record (about 1.5 ms and as much garbage per event). An entry is written
      // once, at a step's completion, and never changed or removed, and it is only read by
      // locus id (LocusPanel, of the current graph): a graph the store held before reads the
      // same residue for every locus whose step it had seen complete (it may also see the
      // residue of a step that completed later). So do its loci: a locus's record is replaced
      // (never changed) when the locus changes, and never removed; the map reads it by id
      // from the graph's order, and the readers of the record as a whole (search, compare,
      // crystal panels) read a concept, which a locus never changes. reduceEvent and
      // foldEvents (the archive's state at a seq) still copy: their fold semantics are unchanged.
      let graph = reduceEvents(st.graph, events, [st.graph.arrivedBy, st.graph.loci]);
      // a sub-wander the poll saw before its spawn event came: its progress at once
      if (graph.subwanderOrder !== st.graph.subwanderOrder) graph = withSubwanders(graph, st.children);
      const received = replay ? st.received : st.received + events.length;
      if (graph === st.graph) return { received };
      const fresh = events.filter((e) => e.seq > st.graph.lastSeq && e.seq <= graph.lastSeq && (!graph.sessionId || e.session_id === graph.sessionId));
      return { graph, received, log: st.log.concat(fresh), ...(graph.fences !== st.graph.fences ? { fences: graph.fences } : {}) };
    }),
  setSession: (s) =>
    set((st) => {
      if (st.graph.sessionId && st.graph.sessionId !== s.id) return st;
      const g = st.graph;
      // Events are the source of truth for the map; the REST view fills what they have
      // not said yet (status changes without events, step count before replay).
      const graph: GraphState = {
        ...g,
        sessionId: s.id,
        status: g.lastSeq >= s.last_event_seq && g.status ? g.status : s.status,
        stepCount: Math.max(g.stepCount, s.step_count),
        name: s.name, // (renamed: no event says so)
        seedConcept: g.seedConcept ?? s.seed_concept,
        attractor: g.attractor ?? s.attractor,
        maxSteps: s.max_steps,
        stoppedReason: g.stoppedReason ?? s.stopped_reason,
        // the fence it was created with (no event says it); fence events take over once seen
        fences: g.fenceFromEvents ? g.fences : (s.fence ?? g.fences),
      };
      return { session: s, graph, fences: graph.fences };
    }),
  setConn: (conn) => set({ conn }),
  select: (selectedId) => set({ selectedId, compareId: null, crystalId: null, panel: selectedId ? "locus" : null }),
  selectSecond: (id) =>
    set((st) =>
      st.selectedId && st.selectedId !== id ? { compareId: id, crystalId: null, panel: "compare" } : { selectedId: id, compareId: null, panel: "locus" },
    ),
  openCrystal: (crystalId) => set({ crystalId, panel: crystalId ? "crystal" : null }),
  openPanel: (panel) => set({ panel }),
  setFences: (fences) => set((st) => ({ fences, graph: { ...st.graph, fences } })),
  setChildren: (children) => set((st) => ({ children, graph: withSubwanders(st.graph, children) })),
  say: (kind, text) => set({ notice: { kind, text, at: Date.now() } }),
  setHighlight: (highlight) => set({ highlight }),
  openMenu: (menu) => set({ menu }),
  focusOn: (id) => set((st) => ({ focus: { id, n: (st.focus?.n ?? 0) + 1 } })),
}));
