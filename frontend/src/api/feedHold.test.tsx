// While a person's hand is on the map (a pan), a run's live steps are gathered, not rendered
// one by one; they land when the hand lifts (or after a second).
import { act, render, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useSessionFeed } from "./feed";
import { handOnMap } from "../handOnMap";
import { useWander } from "../store";
import { SID, walkEvents } from "../test/fixtures";

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

function Feed() {
  useSessionFeed(SID);
  return null;
}

describe("the live feed while a hand is on the map", () => {
  beforeEach(() => {
    FakeWebSocket.all = [];
    useWander.setState(useWander.getInitialState());
    vi.stubGlobal("WebSocket", FakeWebSocket);
    const session = { id: SID, name: "n", status: "active", seed_concept: "information asymmetry", attractor: null, max_steps: 4, step_count: 0,
      last_event_seq: 0, running: true, stopped_reason: null };
    vi.stubGlobal("fetch", vi.fn(async () => new Response(JSON.stringify(session), { status: 200 })));
  });
  afterEach(() => {
    handOnMap.releaseAll();
    vi.unstubAllGlobals();
  });

  it("gathers the steps while the hand is down and applies them when it lifts", async () => {
    render(<Feed />);
    await waitFor(() => expect(FakeWebSocket.all).toHaveLength(1));
    const ws = FakeWebSocket.all[0];
    const events = walkEvents(4);
    act(() => {
      ws.frame({ type: "events", events: events.slice(0, 6) });
      ws.frame({ type: "caught_up", last_seq: 6 });
    });
    await waitFor(() => expect(useWander.getState().graph.stepCount).toBe(1));
    handOnMap.press(1);
    act(() => {
      for (const event of events.slice(6)) ws.frame({ type: "event", event });
    });
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(useWander.getState().graph.stepCount).toBe(1); // nothing rendered under the hand
    act(() => handOnMap.release(1));
    expect(useWander.getState().graph.stepCount).toBe(4); // all of it, at once
  });

  it("applies what it gathered after a second even if the hand stays", async () => {
    render(<Feed />);
    await waitFor(() => expect(FakeWebSocket.all).toHaveLength(1));
    const ws = FakeWebSocket.all[0];
    const events = walkEvents(2);
    act(() => {
      ws.frame({ type: "events", events: events.slice(0, 6) });
      ws.frame({ type: "caught_up", last_seq: 6 });
    });
    handOnMap.press(2);
    act(() => {
      for (const event of events.slice(6)) ws.frame({ type: "event", event });
    });
    await waitFor(() => expect(useWander.getState().graph.stepCount).toBe(2), { timeout: 2500 });
  });
});
