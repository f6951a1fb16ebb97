import { act, render, screen, waitFor, fireEvent } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SessionPage } from "./SessionPage";
import { useWander } from "../store";
import { candidate, SID, walkEvents } from "../test/fixtures";
import type { EventOut, LocusDetail, SessionOut } from "../api/types.gen";

class FakeWebSocket {
  static all: FakeWebSocket[] = [];
  readyState = 0;
  onopen: ((e: Event) => void) | null = null;
  onclose: ((e: CloseEvent) => void) | null = null;
  onerror: ((e: Event) => void) | null = null;
  onmessage: ((e: MessageEvent) => void) | null = null;
  constructor(readonly url: string) {
    FakeWebSocket.all.push(this);
    setTimeout(() => {
      this.readyState = 1;
      this.onopen?.(new Event("open"));
    }, 0);
  }
  frame(f: object) {
    this.onmessage?.(new MessageEvent("message", { data: JSON.stringify(f) }));
  }
  events(evs: EventOut[]) {
    for (const event of evs) this.frame({ type: "event", event });
  }
  close() {
    this.readyState = 3;
    this.onclose?.(new CloseEvent("close", { code: 1006 }));
  }
}

const session = { id: SID, name: "information asymmetry", status: "active", seed_concept: "information asymmetry", attractor: "opportunity", max_steps: 4, step_count: 0, last_event_seq: 0, running: true, stopped_reason: null } as unknown as SessionOut;

describe("SessionPage (live map)", () => {
  beforeEach(() => {
    FakeWebSocket.all = [];
    useWander.setState(useWander.getInitialState());
    vi.stubGlobal("WebSocket", FakeWebSocket);
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        const u = String(url);
        if (u.endsWith(`/sessions/${SID}`)) return new Response(JSON.stringify(session), { status: 200 });
        // the next step's candidates from the current locus (the map's dashed ones)
        if (u.endsWith("/next-candidates"))
          return new Response(JSON.stringify({ session_id: SID, step_number: 2, from_locus_id: "L1", candidates: [candidate("next a", 0.6), candidate("next b", 0.4)] }), { status: 200 });
        if (u.includes("/loci/L2")) {
          const detail: Partial<LocusDetail> = { id: "L2", concept: "concept 2", domains: ["cognition"], source_type: "ADJACENT", visit_count: 1, interestingness: 0.9, novelty_score: 0.5, uncertainty: 0.2, actionability: 0.4, abstraction_level: 0.6, connections: [], arrived_by: { connection: "shared root", tension: "pulls apart", bridge: "via markets", surprise: "far but close", possibility: "a new market", themes: ["trust"], interestingness: 0.9, actionability: 0.4, model_used: "offline" } };
          return new Response(JSON.stringify(detail), { status: 200 });
        }
        return new Response("{}", { status: 404 });
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it("draws nodes as events arrive, catches up after a drop, and opens the locus panel", async () => {
    const events = walkEvents(4);
    const { container } = render(<SessionPage sessionId={SID} />);
    await waitFor(() => expect(FakeWebSocket.all).toHaveLength(1));
    const ws = FakeWebSocket.all[0];
    expect(ws.url).toMatch(new RegExp(`/ws/sessions/${SID}\\?batch=1&after_seq=0$`));
    expect(window.__wanderWs).toBeDefined();

    act(() => {
      ws.events(events.slice(0, 6)); // created, seed, step 1
      ws.frame({ type: "caught_up", last_seq: 6 });
    });
    await waitFor(() => expect(container.querySelectorAll(".react-flow__node-locus")).toHaveLength(2));
    expect(screen.getByTestId("conn-state").dataset.state).toBe("live");
    await waitFor(() => expect([...container.querySelectorAll(".react-flow__node-ghost")].map((n) => n.textContent)).toEqual(["next a", "next b"]));

    act(() => ws.events(events.slice(6, 10))); // step 2, live
    await waitFor(() => expect(container.querySelectorAll(".react-flow__node-locus")).toHaveLength(3));
    expect(container.querySelector(".locus.is-current")?.getAttribute("data-concept")).toBe("concept 2");

    // drop: the client reconnects from seq 10; the server replays from there
    act(() => ws.close());
    expect(screen.getByTestId("conn-state").dataset.state).toBe("reconnecting");
    await waitFor(() => expect(FakeWebSocket.all).toHaveLength(2), { timeout: 3000 });
    const ws2 = FakeWebSocket.all[1];
    expect(ws2.url).toMatch(/after_seq=10$/);
    act(() => {
      ws2.frame({ type: "events", events: events.slice(8) }); // an overlapping batched replay: seq 9.. must not duplicate
      ws2.frame({ type: "caught_up", last_seq: events.at(-1)!.seq });
    });
    await waitFor(() => expect(container.querySelectorAll(".react-flow__node-locus")).toHaveLength(5));
    const ids = [...container.querySelectorAll(".react-flow__node")].map((n) => n.getAttribute("data-id"));
    expect(new Set(ids).size).toBe(ids.length);
    expect(screen.getByTestId("status-steps").textContent).toContain("4");

    // click a node: the panel shows its concept and the five facets
    const node = container.querySelector('.react-flow__node[data-id="L2"]') as HTMLElement;
    fireEvent.click(node);
    const panel = await screen.findByTestId("locus-panel");
    expect(screen.getByTestId("locus-concept").textContent).toBe("concept 2");
    await waitFor(() => expect(panel.textContent).toContain("via markets"));
    for (const f of ["connection", "tension", "bridge", "surprise", "possibility"]) expect(panel.querySelector(`[data-facet="${f}"] dd`)?.textContent).toBeTruthy();
  }, 20_000); // a whole map in jsdom: over vitest's 5 s default on a loaded machine
});
