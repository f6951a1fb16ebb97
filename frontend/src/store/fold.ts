// The fold: a session's events -> the graph (graph.ts). Pure and free of React, so replay,
// dedupe, live updates and the archive's state at a seq are one code path. Each subject that
// changes the graph has its own fold below; the others (fence approached, budget, projection,
// proposal events) pass through.
import type { BridgeLink, EventOut, LocusOut } from "../api/types.gen";
import { emptyGraph, HINT_DECAY_STEPS, type GraphState, type MapLocus, type MapSubwander, type PathEdge } from "./graph";

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

type Subject = EventOut["subject"];
type EventOf<S extends Subject> = Extract<EventOut, { subject: S }>;
type Fold<S extends Subject> = (g: GraphState, ev: EventOf<S>) => GraphState;

function sessionCreated(g: GraphState, ev: EventOf<"wander.session.created">): GraphState {
  const c = ev.payload;
  return {
    ...g,
    status: "active",
    name: g.name ?? c.name, // a REST view already read has the name now (a rename)
    seedConcept: c.seed_concept,
    attractor: c.attractor,
    // the limit the wander was created with: a REST view already read says the limit now
    // (an extend or a PATCH of max_steps raises it, and no event says so)
    maxSteps: g.maxSteps ?? c.max_steps,
  };
}

function locusPlanted(next: GraphState, ev: EventOf<"wander.locus.planted">): GraphState {
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
  return next;
}

function locusVisited(next: GraphState, ev: EventOf<"wander.locus.visited">): GraphState {
  const c = ev.payload;
  if (c.injected) {
    // a hint planted from outside: a locus the next steps may choose, not where the walk is
    next = upsertLocus(next, c.locus, next.currentLocusId, c.step_number);
    return { ...next, hints: { ...next.hints, [c.locus.id]: c.step_number } };
  }
  const parent = c.step_number > 0 && next.currentLocusId !== c.locus.id ? next.currentLocusId : null;
  next = upsertLocus(next, c.locus, parent, c.step_number);
  return { ...next, currentLocusId: c.locus.id };
}

/** The path with the step's edge in its place (steps sorted; a step already there stays). */
function withPathEdge(path: PathEdge[], edge: PathEdge): PathEdge[] {
  const lastEdge = path[path.length - 1];
  if (!lastEdge || lastEdge.step < edge.step) {
    // the usual case, steps in order: appended (the path is sorted, so it is not there yet)
    const out = mine(path, copyArray);
    out.push(edge);
    return out;
  }
  if (path.some((e) => e.id === edge.id)) return path;
  const out = [...path, edge].sort((a, b) => a.step - b.step);
  owned?.add(out);
  return out;
}

function stepCompleted(next: GraphState, ev: EventOf<"wander.step.completed">): GraphState {
  const c = ev.payload;
  next = upsertLocus(next, c.from_locus, null, Math.max(0, c.step_number - 1));
  next = upsertLocus(next, c.to_locus, c.from_locus.id, c.step_number);
  if (next.loci[c.to_locus.id].planted) {
    next = withEntry(next, "loci", c.to_locus.id, { ...next.loci[c.to_locus.id], planted: false });
  }
  const edge: PathEdge = {
    id: `path:${c.step_number}`,
    source: c.from_locus.id,
    target: c.to_locus.id,
    step: c.step_number,
    bridge: c.from_locus.domains.length > 0 && c.to_locus.domains.length > 0 && !c.from_locus.domains.some((d) => c.to_locus.domains.includes(d)),
  };
  const path = withPathEdge(next.path, edge);
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
  return withBridges(next, c.to_locus.id, c.from_locus.id, c.step_number, c.bridges ?? []);
}

function resonance(g: GraphState, ev: EventOf<"wander.resonance.detected" | "wander.resonance.strengthened" | "wander.resonance.confirmed">): GraphState {
  const r = ev.payload.resonance;
  const prev = g.resonances[r.id];
  return {
    ...g,
    resonances: { ...g.resonances, [r.id]: { ...r, loci: prev?.loci ?? [] } },
    stepResonances: g.stepping !== null && !g.stepResonances.includes(r.id) ? [...g.stepResonances, r.id] : g.stepResonances,
  };
}

function crystalFormed(g: GraphState, ev: EventOf<"wander.crystal.formed">): GraphState {
  const c = ev.payload.crystal;
  if (g.crystals[c.id]) return g;
  return {
    ...g,
    crystals: { ...g.crystals, [c.id]: { ...c, kind: "crystal", seq: ev.seq, validated: false, review: null } },
    crystalOrder: [...g.crystalOrder, c.id],
  };
}

function subwanderSpawned(g: GraphState, ev: EventOf<"wander.subwander.spawned">): GraphState {
  const c = ev.payload;
  if (g.subwanders[c.child_session_id]) return g;
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
  return { ...g, subwanders: { ...g.subwanders, [sub.id]: sub }, subwanderOrder: [...g.subwanderOrder, sub.id] };
}

// each carries the whole fence after the change
const fenceChanged = (g: GraphState, ev: EventOf<"wander.fence.added" | "wander.fence.removed">): GraphState => ({
  ...g,
  fences: ev.payload.fence,
  fenceFromEvents: true,
});

/** The fold of each subject that changes the graph. wander.injection.queued is not here: a
 * forced visit queued for the next step is said by the command's notice ("The next step goes
 * to ..."); the map draws the visit when a step takes it (step.completed). */
const FOLDS: { [S in Subject]?: Fold<S> } = {
  "wander.session.created": sessionCreated,
  "wander.step.started": (g, ev) => ({ ...g, stepping: ev.payload.step_number }),
  "wander.adjacencies.found": (g, { payload: c }) => ({ ...g, adjacency: { step: c.step_number, fromId: c.from_locus_id, candidates: c.candidates ?? [] } }),
  "wander.locus.planted": locusPlanted,
  "wander.locus.visited": locusVisited,
  "wander.step.completed": stepCompleted,
  "wander.resonance.detected": resonance,
  "wander.resonance.strengthened": resonance,
  "wander.resonance.confirmed": resonance,
  "wander.crystal.formed": crystalFormed,
  "wander.crystal.validated": (g, { payload: c }) => {
    const prev = g.crystals[c.crystal_id];
    return prev ? { ...g, crystals: { ...g.crystals, [c.crystal_id]: { ...prev, validated: true } } } : g;
  },
  "wander.crystal.reviewed": (g, { payload: c }) => {
    const prev = g.crystals[c.crystal_id];
    return prev ? { ...g, crystals: { ...g.crystals, [c.crystal_id]: { ...prev, review: c.verdict, status: c.status } } } : g;
  },
  "wander.session.paused": (g, ev) => ({ ...g, status: "paused", stoppedReason: ev.payload.reason ?? null, stepping: null }),
  "wander.session.resumed": (g) => ({ ...g, status: "active", stoppedReason: null, tripped: null }),
  // also how an abandoned wander ends: the payload says which
  "wander.session.completed": (g, ev) => ({ ...g, status: ev.payload.status ?? "completed", stoppedReason: ev.payload.reason ?? null, stepping: null }),
  "wander.fence.added": fenceChanged,
  "wander.fence.removed": fenceChanged,
  "wander.subwander.spawned": subwanderSpawned,
  "wander.circuit.tripped": (g, { payload: c }) => ({ ...g, tripped: { reason: c.reason, detail: c.detail }, stoppedReason: c.reason }),
};

/** Folds one event into the graph. Pure: returns the same object when the event is ignored. */
export function reduceEvent(g: GraphState, ev: EventOut): GraphState {
  if (g.sessionId && ev.session_id && ev.session_id !== g.sessionId) return g;
  if (ev.seq <= g.lastSeq) return g; // replayed twice or stale: no duplicates
  const next: GraphState = { ...g, lastSeq: ev.seq, applied: g.applied + 1 };
  // `subject` discriminates the union: each fold gets the event of its own subject
  const fold = FOLDS[ev.subject] as ((g: GraphState, ev: EventOut) => GraphState) | undefined;
  return fold ? fold(next, ev) : next;
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

