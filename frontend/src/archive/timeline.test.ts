// @vitest-environment node
import { describe, expect, it } from "vitest";
import { ev, SID, walkEvents } from "../test/fixtures";
import { crystalsAt, foldAt, resonancesAt, stepEnds, stepFromSearch } from "./timeline";

describe("archive timeline (fold at seq)", () => {
  const events = walkEvents(4);

  it("finds where each step ends and folds the graph at any step", () => {
    const ends = stepEnds(events);
    expect(ends).toHaveLength(5); // before step 1, then steps 1..4
    expect(ends.at(-1)).toBe(events.at(-1)!.seq);
    for (let n = 0; n <= 4; n++) {
      const g = foldAt(SID, events, ends[n]);
      expect(g.stepCount).toBe(n);
      expect(g.path).toHaveLength(n);
      expect(g.order).toHaveLength(n + 1); // the fixture walk never revisits: seed + one locus per step
    }
  });

  it("is the same graph as folding the whole log when scrubbed to the end, whatever the order", () => {
    const ends = stepEnds(events);
    const shuffled = [...events].reverse();
    const a = foldAt(SID, shuffled, ends.at(-1)!);
    const b = foldAt(SID, events, Number.MAX_SAFE_INTEGER);
    expect(a).toEqual(b);
    // scrubbing back and forth is pure: step 2 after step 4 equals step 2 at first
    expect(foldAt(SID, events, ends[2])).toEqual(foldAt(SID, shuffled, ends[2]));
  });

  it("reads ?step= from the URL, clamped", () => {
    expect(stepFromSearch("?step=3", 10)).toBe(3);
    expect(stepFromSearch("?step=99", 10)).toBe(10);
    expect(stepFromSearch("", 10)).toBe(10);
    expect(stepFromSearch("?step=-2", 10)).toBe(10);
    expect(stepFromSearch("?step=abc", 10)).toBe(10);
    expect(stepFromSearch("?step=0", 10)).toBe(0);
  });

  it("lists resonances as their latest event up to a seq left them, and the crystals formed by then", () => {
    const log = walkEvents(2);
    let seq = log.at(-1)!.seq;
    const res = (id: string, status: "candidate" | "confirmed", strength: number) => ({ id, themes: ["trust"], occurrences: strength, strength, status, session_id: SID });
    log.push(ev(++seq, "wander.resonance.detected", { resonance: res("R1", "candidate", 1) }));
    const detected = seq;
    log.push(ev(++seq, "wander.resonance.detected", { resonance: res("R2", "candidate", 2) }));
    log.push(ev(++seq, "wander.resonance.confirmed", { resonance: res("R1", "confirmed", 3), similarity: 0.9 }));
    log.push(ev(++seq, "wander.crystal.formed", { crystal: { id: "C1", insight: "i", confidence: 0.7, structural_type: "bridge", status: "active",
      bread: ["L1", "L2"], domains: [], V: 0.72, verdict: "accepted" } }));
    expect(resonancesAt(log, detected).map((r) => [r.id, r.status])).toEqual([["R1", "candidate"]]);
    expect(resonancesAt(log, seq).map((r) => [r.id, r.status, r.strength])).toEqual([["R1", "confirmed", 3], ["R2", "candidate", 2]]);
    expect(crystalsAt(log, seq - 1)).toEqual([]);
    expect(crystalsAt(log, seq).map((c) => [c.id, c.V, c.verdict])).toEqual([["C1", 0.72, "accepted"]]);
  });
});

describe("archive timeline: steps started twice or never completed", () => {
  /** A walk of `n` steps whose step `again` was started, cut short, and started anew. */
  function withRestart(n: number, again: number) {
    const out = [];
    let seq = 0;
    for (const e of walkEvents(n)) {
      if (e.subject === "wander.step.started" && e.payload.step_number === again) {
        out.push({ ...e, seq: ++seq });
      }
      out.push({ ...e, seq: ++seq });
    }
    return out;
  }

  it("counts a step started twice as one step, and places each step at its own end", () => {
    const events = withRestart(6, 3);
    const ends = stepEnds(events);
    expect(ends).toHaveLength(7); // before step 1, then steps 1..6: not "step 7 / 7"
    for (let n = 0; n <= 6; n++) {
      const g = foldAt(SID, events, ends[n]);
      expect(g.stepCount).toBe(n);
      expect(g.path).toHaveLength(n); // the trace at step n lists n steps
    }
  });

  it("does not count a step that started but never completed (stopped under it)", () => {
    const events = walkEvents(4);
    const last = events.at(-1)!.seq;
    const cut = [...events, ev(last + 1, "wander.step.started", { step_number: 5, from_locus_id: "L4" }),
      ev(last + 2, "wander.session.completed", { status: "completed", reason: "stopped by request", step_count: 4 })];
    const ends = stepEnds(cut);
    expect(ends).toHaveLength(5);
    expect(ends.at(-1)).toBe(last + 2);
    expect(foldAt(SID, cut, ends[4]).status).toBe("completed");
  });
});
