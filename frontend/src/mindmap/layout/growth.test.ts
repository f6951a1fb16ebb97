// @vitest-environment node
import { describe, expect, it } from "vitest";
import { grew, placedSince } from "./growth";
import type { Point } from "./types";

describe("growth (which positions maps only grew from which)", () => {
  const step = (prev: Map<string, Point>, id: string) => {
    const next = new Map(prev);
    next.set(id, { x: next.size, y: 0 });
    grew(prev, next, [id]);
    return next;
  };

  it("names what was placed since a map a few changes back; none since itself; null for an unrelated map", () => {
    const a = new Map<string, Point>([["n0", { x: 0, y: 0 }]]);
    const b = step(a, "n1");
    const c = step(b, "n2");
    expect(placedSince(a, c)).toEqual(["n1", "n2"]);
    expect(placedSince(c, c)).toEqual([]);
    expect(placedSince(new Map(a), c)).toBeNull();
  });

  it("keeps only the last few maps behind the newest (the older ones can be collected): past them, null", () => {
    const first = new Map<string, Point>();
    let at = first;
    const maps = [first];
    for (let i = 0; i < 20; i++) maps.push((at = step(at, `n${i}`)));
    expect(placedSince(maps[12], at)).toEqual(["n12", "n13", "n14", "n15", "n16", "n17", "n18", "n19"]);
    expect(placedSince(first, at)).toBeNull();
  });
});
