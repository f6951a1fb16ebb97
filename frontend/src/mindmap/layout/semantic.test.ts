import { describe, expect, it } from "vitest";
import { semanticScale, semanticTargets } from "./semantic";

describe("semantic (UMAP) layout targets", () => {
  it("puts loci at their projected point and keeps others by their parent", () => {
    const force = new Map([
      ["a", { x: 0, y: 0 }],
      ["b", { x: 100, y: 0 }],
      ["ghost", { x: 100, y: 40 }],
      ["new", { x: 0, y: 90 }],
    ]);
    const projection = new Map([
      ["a", { x: -1, y: 1 }],
      ["b", { x: 0.5, y: 0 }],
    ]);
    const s = semanticScale(2);
    const t = semanticTargets(force, projection, { a: null, b: "a", ghost: "b", new: "a" });
    expect(t.get("a")).toEqual({ x: -s, y: -s }); // screen y grows downwards
    expect(t.get("b")).toEqual({ x: 0.5 * s, y: -0 });
    expect(t.get("ghost")).toEqual({ x: 0.5 * s, y: 20 }); // half its offset from b
    expect(t.get("new")).toEqual({ x: -s, y: -s + 45 });
    expect(t.size).toBe(4);
  });
});
