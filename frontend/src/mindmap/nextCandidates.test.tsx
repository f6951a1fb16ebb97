// The dashed candidates of a live wander that can step are the next step's from the current
// locus (the engine's preview), not the last step's from the locus before it; an archive or a
// wander that is over keeps the last step's, named as such.
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ReactFlowProvider } from "@xyflow/react";
import { MindMap } from "./MindMap";
import { candidatesGraph, previewKey } from "./nextCandidates";
import { emptyGraph, foldEvents, useWander } from "../store";
import { candidate, ev, SID, walkEvents } from "../test/fixtures";

const PREVIEW = {
  session_id: SID,
  step_number: 4,
  from_locus_id: "L3",
  candidates: [candidate("next one", 0.5), candidate("next two", 0.3), candidate("next three", 0.2)],
};

describe("which candidates the map draws", () => {
  it("asks for a preview only of a live wander that can step", () => {
    const g = foldEvents(walkEvents(3), undefined, SID);
    expect(previewKey(g, "live", 10)).toBe(`${SID}|L3|10`);
    expect(previewKey(g, "idle", 10)).toBeNull(); // the archive has no socket
    expect(previewKey({ ...g, status: "paused" }, "live", 10)).not.toBeNull();
    expect(previewKey({ ...g, status: "completed" }, "live", 10)).toBeNull();
    expect(previewKey(emptyGraph(SID), "live", 0)).toBeNull();
  });

  it("draws the preview from the current locus, nothing while it is asked for, the last step's without one", () => {
    const g = foldEvents(walkEvents(3), undefined, SID);
    expect(g.adjacency?.fromId).toBe("L2"); // the last step's candidates leave the locus before
    const asked = candidatesGraph(g, true, null);
    expect(asked.graph.adjacency).toBeNull();
    const shown = candidatesGraph(g, true, { step: 4, fromId: "L3", candidates: PREVIEW.candidates });
    expect(shown).toMatchObject({ next: true, graph: { adjacency: { fromId: "L3", step: 4 } } });
    // a preview of a locus the walk has left is not drawn
    expect(candidatesGraph(g, true, { step: 3, fromId: "L2", candidates: [] }).graph.adjacency).toBeNull();
    expect(candidatesGraph(g, false, null)).toEqual({ graph: g, next: false });
  });
});

describe("the map's dashed candidates", () => {
  const fetched: string[] = [];
  beforeEach(() => {
    localStorage.clear();
    fetched.length = 0;
    useWander.setState(useWander.getInitialState());
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        if (url.endsWith("/next-candidates")) fetched.push(url); // (the attractor's mark asks too)
        return new Response(JSON.stringify(PREVIEW), { status: 200, headers: { "Content-Type": "application/json" } });
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it("on a paused live wander: the next step's, from the current locus, with the legend saying so", async () => {
    useWander.getState().openSession(SID);
    render(
      <div style={{ width: 800, height: 600 }}>
        <ReactFlowProvider>
          <MindMap />
        </ReactFlowProvider>
      </div>,
    );
    act(() => {
      useWander.getState().ingest([...walkEvents(3), ev(16, "wander.session.paused", { status: "paused", reason: "by a person" })]);
      useWander.getState().setConn("live");
    });
    await waitFor(() => expect(screen.getAllByTestId("ghost-node").map((n) => n.textContent)).toEqual(["next one", "next two", "next three"]), { timeout: 5_000 });
    expect(fetched).toEqual([`/api/v1/wander/sessions/${SID}/next-candidates`]);
    expect(document.querySelectorAll(".react-flow__edge-adjacency").length).toBe(3);
    fireEvent.click(screen.getByRole("button", { name: /legend/ }));
    expect(screen.getByTestId("legend").textContent).toContain("the next step's candidates (click: go here next)");
  });

  it("on a completed wander: the last step's, named as such, and nothing asked", async () => {
    useWander.getState().openSession(SID);
    render(
      <div style={{ width: 800, height: 600 }}>
        <ReactFlowProvider>
          <MindMap />
        </ReactFlowProvider>
      </div>,
    );
    act(() => {
      useWander.getState().ingest([...walkEvents(3), ev(16, "wander.session.completed", { status: "completed", reason: "max_steps" })]);
      useWander.getState().setConn("live");
    });
    await waitFor(() => expect(screen.getAllByTestId("ghost-node").length).toBeGreaterThan(0));
    expect(screen.getAllByTestId("ghost-node").map((n) => n.textContent)).toEqual(["alt 3a", "alt 3b"]);
    await new Promise((r) => setTimeout(r, 800));
    expect(fetched).toEqual([]);
    fireEvent.click(screen.getByRole("button", { name: /legend/ }));
    expect(screen.getByTestId("legend").textContent).toContain("the last step's other candidates");
  });
});
