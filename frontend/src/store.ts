// The one store. The mind map is built from session events only: `reduceEvent` folds an
// event into the graph and is pure, so replay, dedupe and live updates are one code path.
import { create } from "zustand";
import type { ConnState } from "./api/ws";
import type { CandidateOut, EventOut, LocusOut, ResidueOut, SessionOut, SessionStatusName } from "./api/types.gen";

export interface MapLocus extends LocusOut {
  /** The locus the walk came from when it first reached this one (null for the seed). */
  parentId: string | null;
  /** Step at which it first appeared (0 for the seed). */
  firstStep: number;
}

export interface PathEdge {
  id: string;
  source: string;
  target: string;
  step: number;
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
  };
}

function upsertLocus(g: GraphState, locus: LocusOut, parentId: string | null, step: number): GraphState {
  const prev = g.loci[locus.id];
  if (prev) {
    return { ...g, loci: { ...g.loci, [locus.id]: { ...prev, ...locus, parentId: prev.parentId, firstStep: prev.firstStep } } };
  }
  return {
    ...g,
    loci: { ...g.loci, [locus.id]: { ...locus, parentId, firstStep: step } },
    order: [...g.order, locus.id],
  };
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
        name: c.name,
        seedConcept: c.seed_concept,
        attractor: c.attractor,
        maxSteps: c.max_steps,
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
    case "wander.locus.visited": {
      const c = ev.payload;
      const parent = c.step_number > 0 && next.currentLocusId !== c.locus.id ? next.currentLocusId : null;
      next = upsertLocus(next, c.locus, parent, c.step_number);
      next = { ...next, currentLocusId: c.locus.id };
      break;
    }
    case "wander.step.completed": {
      const c = ev.payload;
      next = upsertLocus(next, c.from_locus, null, Math.max(0, c.step_number - 1));
      next = upsertLocus(next, c.to_locus, c.from_locus.id, c.step_number);
      const id = `path:${c.step_number}`;
      const path = next.path.some((e) => e.id === id)
        ? next.path
        : [...next.path, { id, source: c.from_locus.id, target: c.to_locus.id, step: c.step_number }].sort(
            (a, b) => a.step - b.step,
          );
      const arrivedBy = next.arrivedBy[c.to_locus.id]
        ? next.arrivedBy
        : { ...next.arrivedBy, [c.to_locus.id]: c.residue };
      next = {
        ...next,
        path,
        arrivedBy,
        currentLocusId: c.to_locus.id,
        stepCount: Math.max(next.stepCount, c.step_number),
        stepping: null,
      };
      break;
    }
    case "wander.session.paused": {
      const c = ev.payload;
      next = { ...next, status: "paused", stoppedReason: c.reason ?? null, stepping: null };
      break;
    }
    case "wander.session.resumed":
      next = { ...next, status: "active", stoppedReason: null };
      break;
    case "wander.session.completed": {
      const c = ev.payload;
      next = { ...next, status: "completed", stoppedReason: c.reason ?? null, stepping: null };
      break;
    }
    case "wander.circuit.tripped": {
      const c = ev.payload;
      next = { ...next, tripped: { reason: c.reason, detail: c.detail }, stoppedReason: c.reason };
      break;
    }
    default:
      break; // resonance, crystal, fence, budget events: not drawn yet
  }
  return next;
}

export function reduceEvents(g: GraphState, events: EventOut[]): GraphState {
  return events.reduce(reduceEvent, g);
}

// ---- derived view: dashed adjacency edges and ghost nodes ----------------------------

export interface GhostNode {
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

/**
 * The latest step's candidates as dashed edges: to the existing locus when the candidate
 * is one (by locus_id, or because the walk has since reached it), else to a ghost node.
 * Only the most probable `max` are shown; the edge the walk actually took is solid already.
 */
export function adjacencyView(g: GraphState, max = MAX_CANDIDATES_SHOWN): { ghosts: GhostNode[]; edges: AdjacencyEdge[] } {
  const adj = g.adjacency;
  if (!adj || !g.loci[adj.fromId]) return { ghosts: [], edges: [] };
  const byKey = new Map<string, string>();
  for (const id of g.order) {
    const l = g.loci[id];
    if (l.kb_key) byKey.set(`k:${l.kb_key}`, id);
    byKey.set(`c:${l.concept.toLowerCase()}`, id);
  }
  const taken = new Set(g.path.filter((e) => e.step === adj.step).map((e) => e.target));
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

export interface WanderStore {
  graph: GraphState;
  session: SessionOut | null;
  conn: ConnState;
  /** Events received over the socket (for the events/s counter). */
  received: number;
  selectedId: string | null;
  openSession(id: string): void;
  ingest(events: EventOut[]): void;
  setSession(s: SessionOut): void;
  setConn(c: ConnState): void;
  select(id: string | null): void;
}

export const useWander = create<WanderStore>((set) => ({
  graph: emptyGraph(),
  session: null,
  conn: "idle",
  received: 0,
  selectedId: null,
  openSession: (id) =>
    set((st) =>
      st.graph.sessionId === id
        ? st
        : { graph: emptyGraph(id), session: null, conn: "idle", received: 0, selectedId: null },
    ),
  ingest: (events) =>
    set((st) => {
      const graph = reduceEvents(st.graph, events);
      return graph === st.graph ? { received: st.received + events.length } : { graph, received: st.received + events.length };
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
        name: g.name ?? s.name,
        seedConcept: g.seedConcept ?? s.seed_concept,
        attractor: g.attractor ?? s.attractor,
        maxSteps: s.max_steps,
        stoppedReason: g.stoppedReason ?? s.stopped_reason,
      };
      return { session: s, graph };
    }),
  setConn: (conn) => set({ conn }),
  select: (selectedId) => set({ selectedId }),
}));
