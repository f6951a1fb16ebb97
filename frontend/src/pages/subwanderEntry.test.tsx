// Entering a sub-wander from its parent's page (an in-app move, the store still holding the
// parent): the child's page never asks the child for a locus of the parent.
import { act, render, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SessionPage } from "./SessionPage";
import { useWander } from "../store";
import { ev, locus, SID, walkEvents } from "../test/fixtures";
import type { SessionOut } from "../api/types.gen";

class FakeWebSocket {
  static all: FakeWebSocket[] = [];
  readyState = 0;
  onopen: ((e: Event) => void) | null = null;
  onclose: ((e: CloseEvent) => void) | null = null;
  onerror: ((e: Event) => void) | null = null;
  onmessage: ((e: MessageEvent) => void) | null = null;
  constructor(readonly url: string) {
    FakeWebSocket.all.push(this);
  }
  frame(f: object) {
    this.onmessage?.(new MessageEvent("message", { data: JSON.stringify(f) }));
  }
  close() {
    this.readyState = 3;
  }
}

const CHILD = "c-1";
const child = { id: CHILD, name: "w / concept 2", status: "active", seed_concept: "concept 2", attractor: null, max_steps: 20, step_count: 0,
  last_event_seq: 2, running: true, stopped_reason: null, parent_session_id: SID } as unknown as SessionOut;

describe("entering a sub-wander from its parent's page", () => {
  const urls: string[] = [];
  beforeEach(() => {
    urls.length = 0;
    FakeWebSocket.all = [];
    useWander.setState(useWander.getInitialState());
    vi.stubGlobal("WebSocket", FakeWebSocket);
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        const u = String(url);
        urls.push(u);
        if (u.endsWith(`/sessions/${CHILD}`)) return new Response(JSON.stringify(child), { status: 200 });
        if (u.endsWith(`/sessions/${CHILD}/children`)) return new Response("[]", { status: 200 });
        return new Response("{}", { status: 404 });
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it("does not ask the child for the parent's selected locus, and draws the child's seed", async () => {
    // the parent's page left its graph, a selected locus and the locus panel in the store
    const st = useWander.getState;
    st().openSession(SID);
    st().ingest(walkEvents(3), true);
    st().select("L2");
    expect(st().panel).toBe("locus");

    const { container } = render(<SessionPage key={CHILD} sessionId={CHILD} />);
    await waitFor(() => expect(FakeWebSocket.all).toHaveLength(1));
    const seed = locus("K0", "concept 2", { source_type: "SEED" });
    act(() => {
      FakeWebSocket.all[0].frame({ type: "events", events: [
        ev(1, "wander.session.created", { name: "w / concept 2", seed_concept: "concept 2", attractor: null, max_steps: 20 }, CHILD),
        ev(2, "wander.locus.visited", { step_number: 0, locus: seed, new: true }, CHILD),
      ] });
      FakeWebSocket.all[0].frame({ type: "caught_up", last_seq: 2 });
    });
    await waitFor(() => expect(container.querySelectorAll(".react-flow__node-locus")).toHaveLength(1));
    expect(urls.filter((u) => u.includes(`/sessions/${CHILD}/loci/`))).toEqual([]);
    expect(container.querySelector('[data-testid="locus-panel"]')).toBeNull();
  }, 20_000);
});
