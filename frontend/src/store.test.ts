// @vitest-environment node
import { beforeEach, describe, expect, it } from "vitest";
import { adjacencyView, emptyGraph, mapNodes, reduceEvent, reduceEvents, useWander } from "./store";
import { flowNodes } from "./mindmap/flow";
import { layoutInput } from "./mindmap/layoutInput";
import { candidate, ev, locus, residue, SID, walkEvents } from "./test/fixtures";
import type { SessionOut } from "./api/types.gen";

/** A session whose events up to step 2 are ingested: the live events follow from `cut`. */
const ingestedUpToStep2 = () => {
  const st = useWander.getState;
  st().openSession(SID);
  const events = walkEvents(3);
  const cut = events.findIndex((e) => e.subject === "wander.step.started" && (e.payload as { step_number: number }).step_number === 2);
  st().ingest(events.slice(0, cut));
  return { st, events, cut, before: st().graph };
};

describe("reduceEvent: the walk", () => {
  it("builds the walk from a replay: loci, path edges in step order, current locus", () => {
    const g = reduceEvents(emptyGraph(SID), walkEvents(3));
    expect(g.order).toEqual(["L0", "L1", "L2", "L3"]);
    expect(g.path.map((e) => [e.source, e.target, e.step])).toEqual([
      ["L0", "L1", 1],
      ["L1", "L2", 2],
      ["L2", "L3", 3],
    ]);
    expect(g.currentLocusId).toBe("L3");
    expect(g.stepCount).toBe(3);
    expect(g.status).toBe("active");
    expect(g.seedConcept).toBe("information asymmetry");
    expect(g.loci.L2.parentId).toBe("L1");
    expect(g.loci.L0.parentId).toBeNull();
    expect(g.arrivedBy.L2.connection).toBe("connection 2");
    expect(g.arrivedBy.L0).toBeUndefined();
    expect(g.lastSeq).toBe(2 + 3 * 4);
  });

  it("ignores events with seq <= last seq, so a replay after reconnect adds no duplicates", () => {
    const events = walkEvents(4);
    const once = reduceEvents(emptyGraph(SID), events);
    // A reconnect that replays an overlapping window, and the same frames in a burst again.
    const twice = reduceEvents(reduceEvents(once, events.slice(5)), events);
    expect(twice).toBe(once); // nothing applied: the very same state object
    expect(twice.order).toHaveLength(5);
    expect(twice.path).toHaveLength(4);
    expect(new Set(twice.path.map((e) => e.id)).size).toBe(4);
    // applying a suffix to a prefix gives the same graph as the whole stream
    const split = reduceEvents(reduceEvents(emptyGraph(SID), events.slice(0, 9)), events.slice(6));
    expect(split.order).toEqual(once.order);
    expect(split.path).toEqual(once.path);
    expect(split.lastSeq).toBe(once.lastSeq);
  });

  it("ignores other sessions' events", () => {
    const g = reduceEvent(emptyGraph(SID), ev(1, "wander.session.created", { name: "x", seed_concept: "x", attractor: null, max_steps: 3 }, "other"));
    expect(g.lastSeq).toBe(0);
    expect(g.name).toBeNull();
  });
});

describe("reduceEvent: the candidates", () => {
  it("replaces the candidate adjacencies at every step", () => {
    const events = walkEvents(2, {
      candidates: (s) => (s === 1 ? [candidate("concept 1", 0.5), candidate("apple", 0.3), candidate("pear", 0.2)] : [candidate("concept 2", 0.6), candidate("river", 0.4)]),
    });
    const afterStep1 = reduceEvents(emptyGraph(SID), events.slice(0, 6));
    const v1 = adjacencyView(afterStep1);
    // the chosen candidate became a locus and is drawn as the solid path edge, not dashed
    expect(v1.ghosts.map((g) => g.concept)).toEqual(["apple", "pear"]);
    expect(v1.edges.every((e) => e.source === "L0")).toBe(true);

    const afterStep2 = reduceEvents(afterStep1, events.slice(6));
    expect(afterStep2.adjacency?.step).toBe(2);
    const v2 = adjacencyView(afterStep2);
    expect(v2.ghosts.map((g) => g.concept)).toEqual(["river"]);
    expect(v2.edges).toHaveLength(1);
    expect(v2.edges[0]).toMatchObject({ source: "L1", ghost: true });
  });

  it("points a dashed edge at an existing locus instead of a ghost", () => {
    let g = reduceEvents(emptyGraph(SID), walkEvents(2));
    g = reduceEvent(g, ev(g.lastSeq + 1, "wander.step.started", { step_number: 3, from_locus_id: "L2" }));
    g = reduceEvent(
      g,
      ev(g.lastSeq + 1, "wander.adjacencies.found", {
        step_number: 3,
        from_locus_id: "L2",
        candidates: [candidate("information asymmetry", 0.5, "L0"), candidate("new idea", 0.3)],
      }),
    );
    const v = adjacencyView(g);
    expect(v.edges.map((e) => [e.source, e.target, e.ghost])).toEqual([
      ["L2", "L0", false],
      ["L2", "ghost:3:1", true],
    ]);
    expect(g.stepping).toBe(3);
  });

  it("finds a candidate's locus among loci reached after an earlier view (the index grows with the walk), and not after a scrub back", () => {
    const events = walkEvents(4);
    const early = reduceEvents(emptyGraph(SID), events.slice(0, 6));
    const late = reduceEvents(early, events.slice(6));
    const ask = (g: typeof late, step: number) =>
      adjacencyView(
        reduceEvent(g, ev(g.lastSeq + 1, "wander.adjacencies.found", { step_number: step, from_locus_id: g.currentLocusId!, candidates: [candidate("concept 3", 0.5), candidate("concept 1", 0.4)] })),
      ).edges.map((e) => [e.target, e.ghost]);
    ask(early, 2); // indexes the early walk
    expect(ask(late, 5)).toEqual([
      ["L3", false],
      ["L1", false],
    ]);
    // the early graph again (an archive scrubbed back): concept 3 is not on its map
    expect(ask(early, 2)[0]).toEqual(["ghost:2:0", true]);
  });

  it("caps the candidates shown to the most probable", () => {
    let g = reduceEvents(emptyGraph(SID), walkEvents(1));
    const many = Array.from({ length: 24 }, (_, i) => candidate(`c${i}`, (i + 1) / 100));
    g = reduceEvent(g, ev(g.lastSeq + 1, "wander.adjacencies.found", { step_number: 2, from_locus_id: "L1", candidates: many }));
    const v = adjacencyView(g, 5);
    expect(v.ghosts.map((x) => x.concept)).toEqual(["c23", "c22", "c21", "c20", "c19"]);
  });
});

describe("reduceEvent: a locus's record", () => {
  it("keeps the record of a step's unchanged from-locus, also for a single live event", () => {
    const events = walkEvents(3);
    const before = reduceEvents(emptyGraph(SID), events.slice(0, -1));
    const after = reduceEvents(before, events.slice(-1));
    const last = events[events.length - 1];
    expect(last.subject).toBe("wander.step.completed");
    // both ends were already on the map as they are (locus.visited came first): nothing copied
    expect(after.loci.L2).toBe(before.loci.L2);
    expect(after.loci).toBe(before.loci);
    expect(after.path).toHaveLength(before.path.length + 1);
    expect(before.path).toHaveLength(2); // the earlier state is left as it was
  });

  it("updates a revisited locus in place and follows status events", () => {
    let g = reduceEvents(emptyGraph(SID), walkEvents(2));
    const back = locus("L0", "information asymmetry", { visit_count: 2, source_type: "SEED" });
    const from = locus("L2", "concept 2");
    g = reduceEvents(g, [
      ev(g.lastSeq + 1, "wander.locus.visited", { step_number: 3, locus: back, new: false }),
      ev(g.lastSeq + 2, "wander.step.completed", { step_number: 3, from_locus: from, to_locus: back, trace_id: "t3", residue: residue("3"), selection_reason: "", resonances_detected: 0 }),
      ev(g.lastSeq + 3, "wander.session.paused", { reason: "checkpoint", step_count: 3 }),
    ]);
    expect(g.order).toHaveLength(3);
    expect(g.loci.L0.visit_count).toBe(2);
    expect(g.loci.L0.parentId).toBeNull();
    expect(g.currentLocusId).toBe("L0");
    expect(g.path.at(-1)).toMatchObject({ source: "L2", target: "L0", step: 3 });
    expect(g.status).toBe("paused");
    expect(g.stoppedReason).toBe("checkpoint");
    g = reduceEvent(g, ev(g.lastSeq + 1, "wander.session.resumed", {}));
    expect(g.status).toBe("active");
    g = reduceEvent(g, ev(g.lastSeq + 1, "wander.circuit.tripped", { reason: "loop", detail: "revisiting 3 loci" }));
    g = reduceEvent(g, ev(g.lastSeq + 1, "wander.session.completed", { reason: "loop" }));
    expect(g.status).toBe("completed");
    expect(g.tripped).toEqual({ reason: "loop", detail: "revisiting 3 loci" });
  });
});

describe("useWander store: ingesting", () => {
  beforeEach(() => useWander.setState(useWander.getInitialState()));

  it("ingests batches, counts received events and resets on another session", () => {
    const st = useWander.getState;
    st().openSession(SID);
    const events = walkEvents(2);
    st().ingest(events.slice(0, 4));
    st().ingest(events); // overlapping replay
    expect(st().graph.order).toEqual(["L0", "L1", "L2"]);
    expect(st().received).toBe(4 + events.length);
    st().select("L1");
    st().openSession(SID); // same session: kept
    expect(st().graph.order).toHaveLength(3);
    st().openSession("s-2");
    expect(st().graph.order).toHaveLength(0);
    expect(st().selectedId).toBeNull();
    expect(st().graph.sessionId).toBe("s-2");
  });

  it("adds a live step's residue to arrivedBy in place (no 5,000-key copy per event); a graph held from before reads the same residue for each locus it had reached", () => {
    const { st, events, cut, before } = ingestedUpToStep2();
    const fromBefore = { ...before.arrivedBy };
    for (const e of events.slice(cut)) st().ingest([e]);
    const after = st().graph;
    expect(after.arrivedBy).toBe(before.arrivedBy); // grown, not copied
    expect(after.arrivedBy.L3.connection).toBe("connection 3");
    for (const id of before.order) expect(before.arrivedBy[id]).toBe(fromBefore[id]);
    // the fold at any seq is still the fold up to it (foldEvents copies)
    const folded = reduceEvents(emptyGraph(SID), events.slice(0, cut));
    expect(Object.keys(folded.arrivedBy)).toEqual(Object.keys(fromBefore));
    expect(reduceEvents(folded, events.slice(cut)).arrivedBy).not.toBe(folded.arrivedBy);
    expect(Object.keys(folded.arrivedBy)).toEqual(Object.keys(fromBefore));
  });

  it("adds a live step's loci in place too; a graph held from before reads the same record for each locus of its order, and the fold still copies", () => {
    const { st, events, cut, before } = ingestedUpToStep2();
    const fromBefore = { ...before.loci };
    for (const e of events.slice(cut)) st().ingest([e]);
    const after = st().graph;
    expect(after.loci).toBe(before.loci); // grown, not copied
    expect(after.order).toEqual(["L0", "L1", "L2", "L3"]);
    expect(after.loci.L3.concept).toBe("concept 3");
    for (const id of before.order) expect(before.loci[id]).toBe(fromBefore[id]);
    const folded = reduceEvents(emptyGraph(SID), events.slice(0, cut));
    expect(reduceEvents(folded, events.slice(cut)).loci).not.toBe(folded.loci);
    expect(Object.keys(folded.loci)).toEqual(Object.keys(fromBefore));
  });
});

describe("useWander store: the REST view and the sub-wanders", () => {
  beforeEach(() => useWander.setState(useWander.getInitialState()));

  it("takes status from the REST view only when it is newer than the events", () => {
    const st = useWander.getState;
    st().openSession(SID);
    st().ingest(walkEvents(1));
    const base = { id: SID, name: "n", seed_concept: "information asymmetry", attractor: null, step_count: 1, max_steps: 8, stopped_reason: null } as Partial<SessionOut>;
    st().setSession({ ...base, status: "paused", last_event_seq: 3 } as SessionOut);
    expect(st().graph.status).toBe("active"); // events are ahead of that snapshot
    st().setSession({ ...base, status: "paused", last_event_seq: 99 } as SessionOut);
    expect(st().graph.status).toBe("paused");
    expect(st().graph.maxSteps).toBe(8);
  });

  it("keeps the fence a wander began with (REST) until a fence event folds, then follows the events", () => {
    const st = useWander.getState;
    st().openSession(SID);
    st().ingest(walkEvents(1));
    const base = { id: SID, name: "n", seed_concept: "information asymmetry", attractor: null, step_count: 1, max_steps: 8, stopped_reason: null, status: "active", last_event_seq: 3 } as Partial<SessionOut>;
    st().setSession({ ...base, fence: [{ concept: "tide", action: "exclude" }] } as SessionOut);
    expect(st().graph.fences).toEqual([{ concept: "tide", action: "exclude" }]);
    const seq = st().graph.lastSeq;
    st().ingest([ev(seq + 1, "wander.fence.removed", { concept: "tide", fence: [] })]);
    expect(st().graph.fences).toEqual([]);
    // a REST view taken before that event no longer brings the old fence back
    st().setSession({ ...base, fence: [{ concept: "tide", action: "exclude" }] } as SessionOut);
    expect(st().graph.fences).toEqual([]);
  });

  it("makes sub-wander nodes from the spawn events, with the polled progress, attached to their locus", () => {
    const st = useWander.getState;
    st().openSession(SID);
    const walk = walkEvents(2);
    st().ingest(walk);
    const child = (over: Partial<SessionOut>) =>
      ({ id: "c-1", name: "w / concept 1", seed_concept: "concept 1", status: "active", step_count: 1, max_steps: 4, running: true,
        parent_session_id: SID, parent_locus_id: "L1", last_event_seq: 3, ...over }) as SessionOut;
    // the poll (or the command's answer) may come before the event: no node until the event,
    // then the node with the progress already seen
    st().setChildren([child({})]);
    expect(st().graph.subwanderOrder).toEqual([]);
    st().ingest([ev(walk.at(-1)!.seq + 1, "wander.subwander.spawned", { child_session_id: "c-1", parent_locus_id: "L1",
      seed_concept: "concept 1", name: "w / concept 1", max_steps: 4, budget_share: 0.25, cloud_budget_cents: 100 })]);
    const g = st().graph;
    expect(g.subwanderOrder).toEqual(["c-1"]);
    expect(g.subwanders["c-1"]).toMatchObject({ kind: "subwander", step_count: 1, parent_locus_id: "L1" });
    const nodes = mapNodes(g);
    expect(nodes.get("sub:c-1")?.kind).toBe("subwander");
    // the same poll again changes nothing; progress does
    st().setChildren([child({})]);
    expect(st().graph).toBe(g);
    st().setChildren([child({ step_count: 4, status: "completed", running: false })]);
    expect(st().graph.subwanders["c-1"]).toMatchObject({ step_count: 4, status: "completed" });
    // drawn with its own node type, hanging from its locus
    const gg = st().graph;
    const { nodes: laid } = layoutInput(gg, []);
    expect(laid.find((n) => n.id === "sub:c-1")?.parentId).toBe("L1");
    const positions = new Map(laid.map((n, i) => [n.id, { x: i * 10, y: 0 }]));
    const flow = flowNodes(gg, [], positions, null);
    expect(flow.map((n) => [n.id, n.type])).toEqual([["L0", "locus"], ["L1", "locus"], ["L2", "locus"], ["sub:c-1", "subwander"]]);
    expect(flow.at(-1)!.data).toMatchObject({ seed: "concept 1", steps: 4, status: "completed" });
  });
});
