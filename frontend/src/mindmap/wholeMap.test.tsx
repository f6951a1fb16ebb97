// "Whole map" keeps the whole map in view as it changes (a step; the archive's timeline), and
// the semantic (UMAP) picture is fitted to the view when it comes, whatever the view was doing.
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { useMemo } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ReactFlowProvider } from "@xyflow/react";
import { MindMap } from "./MindMap";
import { useWander } from "../store";
import { ev, locus, residue, walkEvents } from "../test/fixtures";

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
        }),
        [rf],
      );
    },
  };
});

const sleep = (ms: number) => act(() => new Promise<void>((r) => setTimeout(r, ms)));

function nextStep(step: number, from: string, id: string) {
  const seq = useWander.getState().graph.lastSeq;
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
  return render(
    <div style={{ width: 800, height: 600 }}>
      <ReactFlowProvider>
        <MindMap />
      </ReactFlowProvider>
    </div>,
  );
}

// (a whole map in jsdom: over vitest's 5 s default on a loaded machine)
describe("Whole map and the semantic fit", { timeout: 20_000 }, () => {
  beforeEach(() => {
    moves.length = 0;
    localStorage.clear();
    useWander.setState(useWander.getInitialState());
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        if (String(url).endsWith("/projection")) {
          const points = useWander.getState().graph.order.map((id, i) => ({ locus_id: id, x: (i % 3) / 2 - 0.5, y: Math.floor(i / 3) / 2 - 0.5, fitted: true }));
          return new Response(JSON.stringify({ session_id: "s-1", fit_id: "f1", method: "pca", points }), { status: 200 });
        }
        return new Response("{}", { status: 404 });
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it("stays on after a step (or a move of the timeline) and fits the map again", async () => {
    mount();
    act(() => useWander.getState().ingest(walkEvents(3)));
    await waitFor(() => expect(moves.length).toBeGreaterThan(0));
    const whole = screen.getByRole("button", { name: "Whole map" });
    fireEvent.click(whole);
    expect(whole.getAttribute("aria-pressed")).toBe("true");
    await sleep(450);
    moves.length = 0;
    act(() => useWander.getState().ingest(nextStep(4, "L3", "L4")));
    await waitFor(() => expect(moves).toContain("setViewport"));
    expect(moves).not.toContain("setCenter");
    expect(screen.getByRole("button", { name: "Whole map" }).getAttribute("aria-pressed")).toBe("true");
  });

  it("fits the semantic picture when it comes, though the view had stopped following", async () => {
    mount();
    act(() => useWander.getState().ingest(walkEvents(4)));
    await waitFor(() => expect(moves.length).toBeGreaterThan(0));
    act(() => useWander.getState().focusOn("L1")); // a search's focus: following stops
    await sleep(500);
    moves.length = 0;
    fireEvent.click(screen.getByRole("button", { name: "Semantic (UMAP)" }));
    await waitFor(() => expect(screen.getByTestId("mindmap").dataset.layout).toBe("semantic"), { timeout: 3000 });
    await waitFor(() => expect(moves).toContain("setViewport"), { timeout: 2000 });
  });

  it("pans, not pins, from a drag on the current locus while following (it is not draggable then)", async () => {
    const { container } = mount();
    act(() => useWander.getState().ingest(walkEvents(2)));
    await waitFor(() => expect(container.querySelector('.react-flow__node[data-id="L2"]')).not.toBeNull());
    const cur = () => container.querySelector('.react-flow__node[data-id="L2"]')!.classList;
    expect(cur().contains("nopan")).toBe(false); // a drag on it reaches the pane: a pan
    expect(container.querySelector('.react-flow__node[data-id="L1"]')!.classList.contains("nopan")).toBe(true);
    act(() => useWander.getState().focusOn("L1")); // following off: the current locus can be pinned again
    await waitFor(() => expect(cur().contains("nopan")).toBe(true));
  });
});
