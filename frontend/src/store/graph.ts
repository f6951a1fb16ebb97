// The mind map's graph: what a session's events say, as records the map draws from. The
// graph's nodes are of several kinds (locus, candidate, crystal, sub-wander; fractal nodes
// come from proposals), each record carrying its `kind`. fold.ts builds it from events,
// restView.ts fills in what the REST view says and no event does, view.ts derives what the
// map draws.
import type { CandidateOut, CrystalSummary, FenceAnchorOut, LocusOut, ResidueOut, ResonanceSummary, SessionStatusName } from "../api/types.gen";

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
