// @vitest-environment node
import { describe, expect, it } from "vitest";
import { foldEvents, reduceEvent } from "./store";
import { ev, walkEvents } from "./test/fixtures";

describe("wander.injection.queued", () => {
  const walk = walkEvents(3);
  const last = walk[walk.length - 1].seq;
  const queued = (seq: number, concept: string, replaced: string | null = null) =>
    ev(seq, "wander.injection.queued", { concept, injection_id: `inj-${seq}`, replaced });

  it("is folded in seq order and leaves the graph as the walk made it", () => {
    const before = foldEvents(walk);
    const after = reduceEvent(before, queued(last + 1, "lighthouse"));
    expect(after).not.toBe(before);
    expect(after.lastSeq).toBe(last + 1);
    expect(after.applied).toBe(before.applied + 1);
    expect({ ...after, lastSeq: before.lastSeq, applied: before.applied }).toEqual(before);
  });

  it("does not stop the events after it from folding, and a replay of it is a no-op", () => {
    const step4 = walkEvents(4).slice(-4).map((e, i) => ({ ...e, seq: last + 3 + i }));
    const g = foldEvents([...walk, queued(last + 1, "tide"), queued(last + 2, "orchard", "tide"), ...step4]);
    expect(g.lastSeq).toBe(last + 6);
    expect(g.stepCount).toBe(4);
    expect(g.currentLocusId).toBe("L4");
    expect(reduceEvent(g, queued(last + 1, "tide"))).toBe(g);
  });
});
