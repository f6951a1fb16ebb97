// Following mode moves the view only when the current locus changes, and never
// under a person's hand (a click during a glide missed its node).
import { act, fireEvent, render, waitFor } from "@testing-library/react";
import { useMemo } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ReactFlowProvider } from "@xyflow/react";
import { MindMap } from "./MindMap";
import { ViewHold } from "./viewHold";
import { FOLLOW_ZOOM, keepsView } from "./followSlack";
import { useWander } from "../store";
import { candidate, ev, locus, residue, walkEvents } from "../test/fixtures";

/** The view moves following asked React Flow for (setViewport, setCenter, fitView). */
const moves: string[] = [];

vi.mock("@xyflow/react", async (importOriginal) => {
  const mod = await importOriginal<typeof import("@xyflow/react")>();
  return {
    ...mod,
    useReactFlow: () => {
      const rf = mod.useReactFlow();
      return useMemo(
        () => ({
          ...rf,
          setViewport: (...a: Parameters<typeof rf.setViewport>) => {
            moves.push("setViewport");
            return rf.setViewport(...a);
          },
          setCenter: (...a: Parameters<typeof rf.setCenter>) => {
            moves.push("setCenter");
            return rf.setCenter(...a);
          },
          fitView: (...a: Parameters<typeof rf.fitView>) => {
            moves.push("fitView");
            return rf.fitView(...a);
          },
        }),
        [rf],
      );
    },
  };
});

const sleep = (ms: number) => act(() => new Promise<void>((r) => setTimeout(r, ms)));

/** Events of one more step of the walk (from `from`, to a new locus `id`). */
function stepEvents(seq: number, step: number, from: string, id: string) {
  const to = locus(id, `concept ${id}`);
  const fromL = locus(from, useWander.getState().graph.loci[from].concept);
  return [
    ev(seq + 1, "wander.locus.visited", { step_number: step, locus: to, new: true }),
    ev(seq + 2, "wander.step.completed", { step_number: step, from_locus: fromL, to_locus: to, trace_id: `t${step}`,
      residue: residue(String(step)), selection_reason: "rank 1", resonances_detected: 0 }),
  ] as ReturnType<typeof walkEvents>;
}

function mount() {
  useWander.getState().openSession("s-1");
  const r = render(
    <div style={{ width: 800, height: 600 }}>
      <ReactFlowProvider>
        <MindMap />
      </ReactFlowProvider>
    </div>,
  );
  return r;
}

describe("following mode", () => {
  beforeEach(() => {
    moves.length = 0;
    useWander.setState(useWander.getInitialState());
  });
  afterEach(() => vi.useRealTimers());

  it("moves the view for a new current locus, not for candidates or a crystal that leave it where it is", async () => {
    mount();
    act(() => useWander.getState().ingest(walkEvents(3)));
    await waitFor(() => expect(moves.length).toBeGreaterThan(0));
    await sleep(100); // (a move asked for is made)
    moves.length = 0;
    const g = useWander.getState().graph;
    expect(g.currentLocusId).toBe("L3");
    // candidates found around the current locus, and a crystal between two loci
    act(() =>
      useWander.getState().ingest([
        ev(g.lastSeq + 1, "wander.step.started", { step_number: 4, from_locus_id: "L3" }),
        ev(g.lastSeq + 2, "wander.adjacencies.found", { step_number: 4, from_locus_id: "L3", candidates: [candidate("alt 4a", 0.5), candidate("alt 4b", 0.3)] }),
        ev(g.lastSeq + 3, "wander.crystal.formed", { crystal: { id: "C1", insight: "an insight", confidence: 0.6, structural_type: "bridge", status: "pending",
          bread: ["L1", "L2"], domains: ["cognition"], V: null, verdict: null } }),
      ]),
    );
    expect(useWander.getState().graph.crystalOrder).toEqual(["C1"]);
    await sleep(150);
    expect(moves).toEqual([]);
    // the next step moves it
    act(() => useWander.getState().ingest(stepEvents(useWander.getState().graph.lastSeq, 4, "L3", "L4")));
    await waitFor(() => expect(moves.length).toBeGreaterThan(0));
  });

  it("holds the view while a pointer is down on the map, and moves once it is free", async () => {
    const { container } = mount();
    act(() => useWander.getState().ingest(walkEvents(2)));
    await waitFor(() => expect(moves.length).toBeGreaterThan(0));
    await sleep(450); // (a press during a glide stops it: let this one end)
    moves.length = 0;
    const pane = container.querySelector(".react-flow__pane")!;
    expect(pane).not.toBeNull();
    fireEvent.pointerDown(pane, { pointerId: 1 });
    act(() => useWander.getState().ingest(stepEvents(useWander.getState().graph.lastSeq, 3, "L2", "L3")));
    await sleep(150);
    expect(moves).toEqual([]); // a step came, the pointer is still down
    fireEvent.pointerUp(window, { pointerId: 1 });
    await sleep(100);
    expect(moves).toEqual([]); // just released: a click may be on its way
    await waitFor(() => expect(moves.length).toBe(1), { timeout: 2000 });
  });
});

describe("ViewHold", () => {
  it("runs a move at once when free; while pressed and just after, keeps the latest for later", () => {
    vi.useFakeTimers();
    let t = 0;
    const hold = new ViewHold(() => t, 600);
    const ran: string[] = [];
    hold.run(() => ran.push("a"));
    expect(ran).toEqual(["a"]);
    hold.press(7);
    hold.run(() => ran.push("b"));
    hold.run(() => ran.push("c"));
    t += 5000;
    vi.advanceTimersByTime(5000);
    expect(ran).toEqual(["a"]); // still pressed
    hold.release(7);
    t += 300;
    vi.advanceTimersByTime(300);
    expect(ran).toEqual(["a"]);
    t += 300;
    vi.advanceTimersByTime(300);
    expect(ran).toEqual(["a", "c"]);
    expect(hold.held).toBe(false);
    // a pointer that never comes up (the window lost focus) does not hold forever
    hold.press(8);
    hold.run(() => ran.push("d"));
    hold.releaseAll();
    t += 600;
    vi.advanceTimersByTime(600);
    expect(ran).toEqual(["a", "c", "d"]);
    // cancel forgets the kept move
    hold.press(9);
    hold.run(() => ran.push("e"));
    hold.cancel();
    hold.release(9);
    t += 1000;
    vi.advanceTimersByTime(1000);
    expect(ran).toEqual(["a", "c", "d"]);
  });
});

describe("keepsView (following a large map)", () => {
  const view = { x: -100, y: -50, zoom: FOLLOW_ZOOM }; // map (0, 0) is at pane (-100, -50)
  const at = (sx: number, sy: number) => ({ x: (sx - view.x) / view.zoom, y: (sy - view.y) / view.zoom });
  it("keeps the view while the point is in the middle 60% of an 800 x 600 pane", () => {
    expect(keepsView(at(400, 300), view, 800, 600)).toBe(true);
    expect(keepsView(at(161, 121), view, 800, 600)).toBe(true);
    expect(keepsView(at(639, 479), view, 800, 600)).toBe(true);
  });
  it("moves it once the point nears an edge, at another zoom, or before the pane is measured", () => {
    expect(keepsView(at(150, 300), view, 800, 600)).toBe(false);
    expect(keepsView(at(400, 520), view, 800, 600)).toBe(false);
    expect(keepsView(at(400, 300), { ...view, zoom: 0.3 }, 800, 600)).toBe(false);
    expect(keepsView(at(400, 300), view, 0, 0)).toBe(false);
  });
});
