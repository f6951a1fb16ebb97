// What the REST view says and no event does, onto the graph the events made: the fence a
// wander was created with (a sub-wander inherits its parent's; later changes arrive as
// wander.fence.added / wander.fence.removed and are folded), a rename, a raised step limit,
// and the live progress of its sub-wanders. A sub-wander node is born of
// wander.subwander.spawned on this stream; its steps and status are on the child's own
// stream, which the map polls (api/children.ts).
import type { SessionOut } from "../api/types.gen";
import type { GraphState } from "./graph";

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


/** The graph with the session's REST view filled in. Events are the source of truth for the
 * map; the REST view fills what they have not said yet (status changes without events, step
 * count before replay). */
export function withSessionView(g: GraphState, s: SessionOut): GraphState {
  return {
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
}
