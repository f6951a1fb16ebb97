import { describe, expect, it } from "vitest";
import { SID, walkEvents } from "../test/fixtures";
import { foldAt, stepEnds, stepFromSearch } from "./timeline";

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
});
