// @vitest-environment node
import { describe, expect, it } from "vitest";
import { emptyGraph, type GraphState } from "../store";
import { ReplayHold } from "./replayHold";

const graph = (sessionId: string, n: number): GraphState => ({ ...emptyGraph(sessionId), order: Array.from({ length: n }, (_, i) => `l${i}`) });
const layout = (placed: number) => ({ positions: new Map(Array.from({ length: placed }, (_, i) => [`l${i}`, { x: i, y: 0 }])) });

describe("ReplayHold (a replaying map shows its graph now and then)", () => {
  it("shows the first placed graph at once, then the latest once an interval has passed and the loci placed have doubled, and all once the replay ends", () => {
    let t = 0;
    const hold = new ReplayHold<ReturnType<typeof layout>>(1000, () => t);
    const empty = { graph: graph("s", 10), layout: layout(0) };
    expect(hold.show(true, empty)).toBe(empty); // nothing placed yet: shown, and not held
    const first = { graph: graph("s", 20), layout: layout(10) };
    expect(hold.show(true, first)).toBe(first);
    t = 400;
    expect(hold.show(true, { graph: graph("s", 30), layout: layout(20) })).toBe(first); // held
    t = 1000;
    expect(hold.show(true, { graph: graph("s", 40), layout: layout(19) })).toBe(first); // not twice the loci placed
    const later = { graph: graph("s", 40), layout: layout(30) };
    expect(hold.show(true, later)).toBe(later); // the interval has passed, and they have doubled
    t = 1100;
    const end = { graph: graph("s", 50), layout: layout(40) };
    expect(hold.show(true, { graph: graph("s", 80), layout: layout(70) })).toBe(later); // doubled, too soon
    expect(hold.show(false, end)).toBe(end); // caught up: everything, at once
    const live = { graph: graph("s", 51), layout: layout(41) };
    expect(hold.show(false, live)).toBe(live);
  });

  it("shows another walk at once, and keeps the shown object while nothing changed", () => {
    let t = 0;
    const hold = new ReplayHold<ReturnType<typeof layout>>(1000, () => t);
    const a = { graph: graph("a", 20), layout: layout(10) };
    hold.show(true, a);
    t = 10;
    const b = { graph: graph("b", 5), layout: layout(5) };
    expect(hold.show(true, b)).toBe(b);
    t = 5000;
    expect(hold.show(false, { graph: b.graph, layout: b.layout })).toBe(b);
  });
});
