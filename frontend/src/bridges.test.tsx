// A locus's connections on the map and in its panel: step.completed's bridges to loci off the
// path become Bridge edges between them (001), and the locus panel lists what the locus
// bridges to and contradicts.
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { EventOut, LocusDetail } from "./api/types.gen";
import { flowEdges } from "./mindmap/flow";
import { LocusPanel } from "./panels/LocusPanel";
import { emptyGraph, reduceEvents, useWander } from "./store";
import { locus, SID, walkEvents } from "./test/fixtures";

/** walkEvents(4), step 4 (L3 -> L4) learning a bridge to L1 (off the path) and one to L3 (its own step). */
function withBridges(): EventOut[] {
  return walkEvents(4).map((e) => {
    if (e.subject !== "wander.step.completed" || e.payload.step_number !== 4) return e;
    const link = (id: string, concept: string, bridge_type: string) => ({ locus_id: id, concept, bridge_type, strength: 0.61, domains: ["act", "cognition"] });
    return { ...e, payload: { ...e.payload, bridges: [link("L3", "concept 3", "domain crossing"), link("L1", "concept 1", "near across domains")] } };
  });
}

beforeEach(() => useWander.setState(useWander.getInitialState()));
afterEach(() => vi.unstubAllGlobals());

describe("bridges between loci", () => {
  it("fold into the graph, one per pair, and are drawn as bridge edges off the path", () => {
    const g = reduceEvents(emptyGraph(SID), withBridges());
    expect(Object.values(g.bridges)).toEqual([
      { id: "br:L1:L4", source: "L1", target: "L4", bridgeType: "near across domains", strength: 0.61, step: 4 },
    ]);
    const edges = flowEdges(g, []);
    const bridges = edges.filter((e) => e.type === "bridge");
    expect(bridges.map((e) => [e.source, e.target])).toEqual([["L1", "L4"]]);
    expect(edges.filter((e) => e.type === "path").map((e) => [e.source, e.target])).toContainEqual(["L3", "L4"]);
    // without the event's bridges: no bridge edge
    expect(flowEdges(reduceEvents(emptyGraph(SID), walkEvents(4)), []).some((e) => e.type === "bridge")).toBe(false);
  });
});

describe("the locus panel", () => {
  it("lists what the locus bridges to and contradicts", async () => {
    const detail: LocusDetail = {
      ...locus("L4", "concept 4"),
      session_id: SID,
      first_encountered: null,
      last_visited: null,
      adjacent_to: [],
      connections: [],
      arrived_by: null,
      bridges_to: [{ locus_id: "L1", concept: "concept 1", bridge_type: "near across domains", strength: 0.61, domains: ["act", "cognition"] }],
      contradicts: [{ locus_id: "L2", concept: "concept 2", tension_description: "'concept 4' and 'concept 2' are opposites in the corpus" }],
    };
    vi.stubGlobal("fetch", vi.fn(async () => new Response(JSON.stringify(detail), { status: 200, headers: { "Content-Type": "application/json" } })));
    useWander.setState({ graph: reduceEvents(emptyGraph(SID), walkEvents(4)), selectedId: "L4" });
    render(<LocusPanel sessionId={SID} />);
    await waitFor(() => expect(screen.getByTestId("locus-bridges")).toBeTruthy());
    const bridges = screen.getByTestId("locus-bridges");
    expect(bridges.textContent).toContain("concept 1");
    expect(bridges.textContent).toContain("near across domains (act / cognition), strength 0.61");
    const contra = screen.getByTestId("locus-contradicts");
    expect(contra.textContent).toContain("'concept 4' and 'concept 2' are opposites in the corpus");
    fireEvent.click(within(contra).getByRole("button", { name: "concept 2" }));
    expect(useWander.getState().selectedId).toBe("L2");
  });
});
