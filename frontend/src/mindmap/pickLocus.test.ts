// @vitest-environment node
import { describe, expect, it } from "vitest";
import type { GraphState } from "../store";
import { locusRadius } from "./palette";
import { pickLocus } from "./pickLocus";

const graph = (visits: Record<string, number>) =>
  ({
    order: Object.keys(visits),
    loci: Object.fromEntries(Object.entries(visits).map(([id, v]) => [id, { visit_count: v }])),
  }) as unknown as Pick<GraphState, "order" | "loci">;

describe("pickLocus", () => {
  const g = graph({ a: 1, b: 1, big: 9 });
  const at = new Map([
    ["a", { x: 0, y: 0 }],
    ["b", { x: 100, y: 0 }],
    ["big", { x: 0, y: 200 }],
  ]);
  const r1 = locusRadius(1);

  it("finds the locus whose disc holds the point", () => {
    expect(pickLocus(g, at, { x: 3, y: -4 }, 0)).toBe("a");
    expect(pickLocus(g, at, { x: 100 - r1 + 1, y: 0 }, 0)).toBe("b");
  });

  it("takes a bigger disc's larger radius into account", () => {
    const r = locusRadius(9);
    expect(r).toBeGreaterThan(r1);
    expect(pickLocus(g, at, { x: r - 1, y: 200 }, 0)).toBe("big");
  });

  it("allows `slack` past the rim, and no more", () => {
    expect(pickLocus(g, at, { x: r1 + 5, y: 0 }, 6)).toBe("a");
    expect(pickLocus(g, at, { x: r1 + 7, y: 0 }, 6)).toBeNull();
  });

  it("picks the nearer rim when two discs are within reach", () => {
    expect(pickLocus(g, at, { x: 40, y: 0 }, 30)).toBe("a");
    expect(pickLocus(g, at, { x: 60, y: 0 }, 30)).toBe("b");
  });

  it("skips loci with no position yet", () => {
    expect(pickLocus(g, new Map([["b", { x: 0, y: 0 }]]), { x: 0, y: 0 }, 0)).toBe("b");
    expect(pickLocus(g, new Map(), { x: 0, y: 0 }, 100)).toBeNull();
  });
});
