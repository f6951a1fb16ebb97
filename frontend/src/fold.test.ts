// @vitest-environment node
import { describe, expect, it } from "vitest";
import type { EventOut, ResonanceSummary } from "./api/types.gen";
import type { SessionOut } from "./api/types.gen";
import { anchorOf, emptyGraph, foldEvents, HINT_DECAY_STEPS, mapNodeId, mapNodes, reduceEvent, reduceEvents, resonanceLinks, withSubwanders } from "./store";
import { ev, locus, SID, walkEvents } from "./test/fixtures";

/** A walk of 6 steps with a resonance confirmed over three steps, a crystal formed, validated
 * and another reviewed, a hint planted and then visited, and a step that crossed domains. */
function richLog(): EventOut[] {
  const base = walkEvents(6);
  const out: EventOut[] = [];
  let seq = 0;
  const push = (e: EventOut) => out.push({ ...e, seq: ++seq });
  const res = (status: ResonanceSummary["status"], occurrences: number): ResonanceSummary => ({
    id: "R1", themes: ["trust", "signal"], occurrences, strength: occurrences, status, session_id: SID,
  });
  // the walk reaches the hint "harbour" (another domain) at step 5 instead of "concept 5"
  const toHarbour = (e: EventOut): EventOut =>
    JSON.parse(
      JSON.stringify(e)
        .replace(/"id":"L5","concept":"concept 5","domains":\["cognition"\]/g, '"id":"H","concept":"harbour","domains":["location"]')
        .replace(/"from_locus_id":"L5"/g, '"from_locus_id":"H"'),
    ) as EventOut;
  for (const raw of base) {
    const e = toHarbour(raw);
    if (e.subject === "wander.step.completed") {
      const step = (e.payload as { step_number: number }).step_number;
      if (step === 2) push(ev(0, "wander.resonance.detected", { resonance: res("candidate", 1) }));
      if (step === 3) push(ev(0, "wander.resonance.strengthened", { resonance: res("candidate", 2), similarity: 0.8 }));
      if (step === 4) push(ev(0, "wander.resonance.confirmed", { resonance: res("confirmed", 3), similarity: 0.9 }));
      push(e);
      if (step === 3) {
        const crystal = (id: string, verdict: string) => ({ id, insight: `insight ${id}`, confidence: 0.6, structural_type: "bridge",
          status: "active", bread: ["L1", "L2"], domains: ["cognition"], V: verdict === "accepted" ? 0.75 : 0.6, verdict });
        push(ev(0, "wander.crystal.formed", { crystal: crystal("C1", "accepted") }));
        push(ev(0, "wander.crystal.validated", { crystal_id: "C1", V: 0.75 }));
        push(ev(0, "wander.crystal.formed", { crystal: crystal("C2", "review") }));
        push(ev(0, "wander.crystal.reviewed", { crystal_id: "C2", verdict: "reject", status: "invalidated" }));
        push(ev(0, "wander.locus.visited", { step_number: 3, locus: locus("H", "harbour", { domains: ["location"], source_type: "SERENDIPITOUS" }), new: true, injected: true }));
      }
      continue;
    }
    push(e);
  }
  return out;
}

describe("foldEvents", () => {
  const log = richLog();

  it("folds crystals, resonances, hints and bridges into the graph", () => {
    const g = foldEvents(log);
    expect(g.crystalOrder).toEqual(["C1", "C2"]);
    expect(g.crystals.C1.validated).toBe(true);
    expect(g.crystals.C2).toMatchObject({ review: "reject", status: "invalidated", verdict: "review" });
    expect(g.resonances.R1.status).toBe("confirmed");
    expect(g.resonances.R1.loci).toEqual(["L2", "L3", "L4"]);
    expect(resonanceLinks(g).map((l) => [l.source, l.target])).toEqual([["L2", "L3"], ["L3", "L4"]]);
    expect(g.hints).toEqual({}); // planted at step 3, visited at step 5
    expect(g.path.filter((e) => e.bridge).map((e) => e.step)).toEqual([5, 6]); // into and out of "location"
    expect(g.order).toContain("H");
    expect(g.currentLocusId).toBe("L6");
  });

  it("event by event, in one batch, and in any split into batches: the same graph", () => {
    const whole = foldEvents(log);
    const oneByOne = log.reduce((g, e) => reduceEvent(g, e), emptyGraph(SID));
    expect(oneByOne).toEqual(whole);
    for (const cut of [1, 7, 13, 20, log.length - 1]) {
      const split = reduceEvents(reduceEvents(emptyGraph(SID), log.slice(0, cut)), log.slice(cut));
      expect(split).toEqual(whole);
    }
    // a replay overlapping what was applied changes nothing
    expect(reduceEvents(whole, log.slice(5))).toBe(whole);
  });

  it("a batch never writes into the graph it was given (it copies each record once, then fills the copy)", () => {
    const freeze = <T,>(x: T): T => {
      if (x && typeof x === "object" && !Object.isFrozen(x)) {
        Object.freeze(x);
        for (const v of Object.values(x)) freeze(v);
      }
      return x;
    };
    for (const cut of [1, 7, 13, 20]) {
      const before = freeze(reduceEvents(emptyGraph(SID), log.slice(0, cut)));
      const snapshot = JSON.stringify(before);
      expect(reduceEvents(before, log.slice(cut))).toEqual(foldEvents(log));
      expect(JSON.stringify(before)).toBe(snapshot);
    }
  });

  it("the state at seq N is the fold of the prefix up to N", () => {
    for (const n of [0, 3, 12, 17, 19, 24, log.length]) {
      const prefix = foldEvents(log.filter((e) => e.seq <= n), undefined, SID);
      expect(foldEvents(log, n, SID)).toEqual(prefix);
      expect(foldEvents(log, n, SID).lastSeq).toBe(Math.min(n, log.length));
    }
    const hintSeq = log.find((e) => (e.payload as { injected?: boolean }).injected)!.seq;
    expect(foldEvents(log, hintSeq).hints).toEqual({ H: 3 }); // still a hint at that point (planted at step 3)
    const crystalSeq = log.find((e) => e.subject === "wander.crystal.formed")!.seq;
    expect(foldEvents(log, crystalSeq - 1).crystalOrder).toEqual([]);
    expect(foldEvents(log, crystalSeq).crystalOrder).toEqual(["C1"]);
  });
});

describe("node kinds", () => {
  it("every node of the graph carries its kind, and mapNodes lists them by map id", () => {
    const g = foldEvents(richLog());
    expect(Object.values(g.loci).every((l) => l.kind === "locus")).toBe(true);
    expect(Object.values(g.crystals).map((c) => c.kind)).toEqual(["crystal", "crystal"]);
    const nodes = mapNodes(g);
    expect([...nodes.keys()]).toEqual([...g.order, "crystal:C1", "crystal:C2"]);
    for (const [id, n] of nodes) expect(mapNodeId(n)).toBe(id);
    expect([...nodes.values()].map((n) => n.kind)).toEqual([...g.order.map(() => "locus"), "crystal", "crystal"]);
  });
});

describe("fences in the fold", () => {
  it("fence.added and fence.removed set the whole fence; the state at a seq has the fence of that seq", () => {
    const log = walkEvents(2);
    let seq = log.at(-1)!.seq;
    log.push(ev(++seq, "wander.fence.added", { concept: "tide", action: "exclude", fence: [{ concept: "tide", action: "exclude" }] }));
    const added = seq;
    log.push(
      ev(++seq, "wander.fence.added", {
        concept: "harbour",
        action: "include",
        fence: [{ concept: "tide", action: "exclude" }, { concept: "harbour", action: "include" }],
      }),
    );
    log.push(ev(++seq, "wander.fence.removed", { concept: "tide", fence: [{ concept: "harbour", action: "include" }] }));
    expect(foldEvents(log, added - 1).fences).toEqual([]);
    expect(foldEvents(log, added - 1).fenceFromEvents).toBe(false);
    expect(foldEvents(log, added).fences).toEqual([{ concept: "tide", action: "exclude" }]);
    expect(foldEvents(log, added + 1).fences.map((f) => f.concept)).toEqual(["tide", "harbour"]);
    const g = foldEvents(log);
    expect(g.fences).toEqual([{ concept: "harbour", action: "include" }]);
    expect(g.fenceFromEvents).toBe(true);
    expect(g.lastSeq).toBe(seq);
  });
});

describe("hint decay", () => {
  /** A walk of `n` steps with "harbour" planted by a person after step 2. */
  function hinted(n: number): EventOut[] {
    const base = walkEvents(n);
    const at = base.findIndex((e) => e.subject === "wander.step.started" && (e.payload as { step_number: number }).step_number === 3);
    const planted = ev(0, "wander.locus.planted", { step_number: 2, locus: locus("H", "harbour", { source_type: "SERENDIPITOUS" }), source: "inject" });
    return [...base.slice(0, at), planted, ...base.slice(at)].map((e, i) => ({ ...e, seq: i + 1 }));
  }

  it("marks a person's planted locus as a hint, and a preset's planted seed not", () => {
    let g = foldEvents(hinted(3));
    expect(g.hints).toEqual({ H: 2 });
    expect(g.loci.H.planted).toBe(true);
    expect(g.loci.H.parentId).toBe("L2"); // laid out beside where the walk was when it was planted
    g = reduceEvent(g, ev(g.lastSeq + 1, "wander.locus.planted", { step_number: 3, locus: locus("P", "pier"), source: "preset" }));
    expect(g.loci.P.planted).toBe(true);
    expect(g.hints.P).toBeUndefined();
    expect(g.loci.P.parentId).toBeNull();
  });

  it(`clears a hint no step took within ${HINT_DECAY_STEPS} steps`, () => {
    const log = hinted(2 + HINT_DECAY_STEPS);
    const endOf = (step: number) =>
      log.find((e) => e.subject === "wander.step.completed" && (e.payload as { step_number: number }).step_number === step)!.seq;
    // still a hint after the last step that could have taken it, gone after the next one
    expect(foldEvents(log, endOf(1 + HINT_DECAY_STEPS)).hints).toEqual({ H: 2 });
    expect(foldEvents(log, endOf(2 + HINT_DECAY_STEPS)).hints).toEqual({});
    // the locus itself stays on the map, planted and never walked to
    expect(foldEvents(log).loci.H).toMatchObject({ planted: true, kind: "locus" });
  });

  it("clears a hint as soon as a step visits it", () => {
    const log = hinted(3);
    const visit = log.map((e) =>
      e.subject === "wander.step.completed" && e.payload.step_number === 3
        ? ({ ...e, payload: { ...e.payload, to_locus: locus("H", "harbour", { source_type: "SERENDIPITOUS" }) } } as EventOut)
        : e,
    );
    const g = foldEvents(visit);
    expect(g.hints).toEqual({});
    expect(g.currentLocusId).toBe("H");
    expect(g.loci.H.planted).toBe(false);
  });
});

describe("sub-wanders in the fold", () => {
  /** A walk of 2 steps, then "go deeper" from L1. */
  function spawned(): EventOut[] {
    const log = walkEvents(2);
    const seq = log.at(-1)!.seq;
    log.push(
      ev(seq + 1, "wander.subwander.spawned", {
        child_session_id: "c-1", parent_locus_id: "L1", seed_concept: "concept 1", name: "w / concept 1",
        max_steps: 4, budget_share: 0.25, cloud_budget_cents: 125,
      }),
    );
    return log;
  }

  it("creates the sub-wander node from the spawn event alone", () => {
    const log = spawned();
    const g = foldEvents(log);
    expect(g.subwanderOrder).toEqual(["c-1"]);
    expect(g.subwanders["c-1"]).toEqual({
      kind: "subwander", id: "c-1", parent_locus_id: "L1", seed_concept: "concept 1", name: "w / concept 1",
      max_steps: 4, budget_share: 0.25, cloud_budget_cents: 125, seq: log.at(-1)!.seq, step_count: 0, status: null, running: false,
    });
    const node = mapNodes(g).get("sub:c-1")!;
    expect(node.kind).toBe("subwander");
    expect(anchorOf(g, node)).toBe("L1");
    // not there before its event; the same event replayed makes no second node
    expect(foldEvents(log, log.at(-1)!.seq - 1).subwanderOrder).toEqual([]);
    expect(reduceEvents(g, log.slice(-1))).toBe(g);
  });

  it("the poll adds only progress: to a node an event made, never a node of its own", () => {
    const g = foldEvents(spawned());
    const child = (id: string, over: Partial<SessionOut>) =>
      ({ id, seed_concept: "concept 1", status: "active", step_count: 2, max_steps: 4, running: true, parent_session_id: SID,
        parent_locus_id: "L1", ...over }) as SessionOut;
    const polled = withSubwanders(g, [child("c-1", {}), child("c-2", { parent_locus_id: "L2" })]);
    expect(polled.subwanderOrder).toEqual(["c-1"]);
    expect(polled.subwanders["c-1"]).toMatchObject({ step_count: 2, status: "active", running: true, seed_concept: "concept 1" });
    expect(withSubwanders(polled, [child("c-1", {})])).toBe(polled);
  });
});

describe("a hint of a locus the map has", () => {
  it("marks that locus as the hint: no second node, it stays where it is, still walked", () => {
    const log = walkEvents(3);
    const before = foldEvents(log);
    const l1 = before.loci.L1;
    const g = reduceEvent(before, ev(before.lastSeq + 1, "wander.locus.planted", { step_number: 3, locus: locus("L1", l1.concept, { visit_count: 1 }), source: "inject" }));
    expect(g.order).toEqual(before.order);
    expect(g.hints).toEqual({ L1: 3 });
    expect(g.loci.L1).toMatchObject({ parentId: l1.parentId, firstStep: l1.firstStep, planted: false, kind: "locus" });
    expect(g.currentLocusId).toBe(before.currentLocusId);
  });
});
