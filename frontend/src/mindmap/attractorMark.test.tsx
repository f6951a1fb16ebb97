// The attractor is marked on the map among the loci nearest it, weighted toward the nearest.
import { act, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ReactFlowProvider } from "@xyflow/react";
import { MindMap } from "./MindMap";
import { attractorPlace } from "./attractorMark";
import { useWander } from "../store";
import { SID, walkEvents } from "../test/fixtures";

const at = (entries: [string, number, number][]) => new Map(entries.map(([id, x, y]) => [id, { x, y }]));

describe("where the attractor's mark goes", () => {
  it("among the nearest loci, pulled toward the nearest", () => {
    const out = { attractor: "epidemiology", nearest: [{ locus_id: "a", similarity: 0.6 }, { locus_id: "b", similarity: 0.5 }], seed_similarity: 0.1 };
    const p = attractorPlace(out, at([["a", 0, 0], ["b", 100, 0]]))!;
    expect(p.nearestId).toBe("a");
    expect(p.at.y).toBe(0);
    expect(p.at.x).toBeGreaterThan(0);
    expect(p.at.x).toBeLessThan(10); // 0.1 nearer weighs e^(0.1/0.03), about 28 times more
    expect(p.count).toBe(2);
  });

  it("only over loci the map has (an archive at an early step), and nowhere without an attractor or any", () => {
    const out = { attractor: "epidemiology", nearest: [{ locus_id: "later", similarity: 0.7 }, { locus_id: "b", similarity: 0.5 }], seed_similarity: null };
    expect(attractorPlace(out, at([["b", 5, 7]]))).toMatchObject({ at: { x: 5, y: 7 }, nearestId: "b", count: 1 });
    expect(attractorPlace(out, at([]))).toBeNull();
    expect(attractorPlace({ attractor: null, nearest: [], seed_similarity: null }, at([["b", 5, 7]]))).toBeNull();
    expect(attractorPlace(null, at([["b", 5, 7]]))).toBeNull();
  });
});

describe("the attractor's mark on the map", () => {
  beforeEach(() => {
    localStorage.clear();
    useWander.setState(useWander.getInitialState());
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        const body = url.endsWith("/attractor")
          ? { attractor: "opportunity", nearest: [{ locus_id: "L2", similarity: 0.55 }, { locus_id: "L1", similarity: 0.41 }], seed_similarity: 0.2 }
          : { session_id: SID, step_number: 4, from_locus_id: "L3", candidates: [] };
        return new Response(JSON.stringify(body), { status: 200, headers: { "Content-Type": "application/json" } });
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it("names the attractor beside a mark among the loci nearest it", async () => {
    useWander.getState().openSession(SID);
    render(
      <div style={{ width: 800, height: 600 }}>
        <ReactFlowProvider>
          <MindMap />
        </ReactFlowProvider>
      </div>,
    );
    act(() => useWander.getState().ingest(walkEvents(3)));
    const mark = await waitFor(() => screen.getByTestId("attractor-mark"), { timeout: 5_000 });
    expect(mark.textContent).toBe("attractor · opportunity");
    expect(mark.dataset.nearest).toBe("L2");
    expect(mark.getAttribute("title")).toContain("“concept 2”");
  });
});
