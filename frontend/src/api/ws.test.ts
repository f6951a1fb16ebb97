import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { WanderSocket, type ConnState, type SocketLike } from "./ws";
import type { EventOut } from "./types.gen";
import { walkEvents } from "../test/fixtures";

class FakeSocket implements SocketLike {
  static all: FakeSocket[] = [];
  readyState = 0;
  onopen: ((ev: Event) => void) | null = null;
  onclose: ((ev: CloseEvent) => void) | null = null;
  onerror: ((ev: Event) => void) | null = null;
  onmessage: ((ev: MessageEvent) => void) | null = null;
  closedByClient = false;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  open() {
    this.readyState = 1;
    this.onopen?.(new Event("open"));
  }
  send(frame: object) {
    this.onmessage?.(new MessageEvent("message", { data: JSON.stringify(frame) }));
  }
  replay(events: EventOut[], lastSeq = events.at(-1)?.seq ?? 0) {
    for (const event of events) this.send({ type: "event", event });
    this.send({ type: "caught_up", last_seq: lastSeq });
  }
  /** The server or network goes away. */
  serverDrop(code = 1006, reason = "") {
    this.readyState = 3;
    this.onclose?.(new CloseEvent("close", { code, reason }));
  }
  close() {
    this.closedByClient = true;
    this.serverDrop();
  }
}

beforeEach(() => {
  FakeSocket.all = [];
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

function client(initialSeq = 0) {
  const got: EventOut[] = [];
  const states: ConnState[] = [];
  const ws = new WanderSocket({
    url: (after) => `ws://x/ws/sessions/s-1?after_seq=${after}`,
    initialSeq,
    onEvent: (e) => got.push(e),
    onState: (s) => states.push(s),
    backoffMs: { initial: 100, max: 1000 },
    socketFactory: (url) => new FakeSocket(url),
    random: () => 0.5,
  });
  return { ws, got, states };
}

describe("WanderSocket: catching up", () => {
  it("reconnects after a drop with after_seq = last seq and delivers no duplicates", () => {
    const events = walkEvents(3); // seq 1..14
    const { ws, got, states } = client();
    ws.start();
    expect(FakeSocket.all[0].url).toMatch(/after_seq=0$/);
    FakeSocket.all[0].open();
    FakeSocket.all[0].replay(events.slice(0, 6));
    FakeSocket.all[0].send({ type: "event", event: events[6] }); // live
    expect(states).toEqual(["connecting", "live"]);
    expect(ws.lastSeq).toBe(7);

    FakeSocket.all[0].serverDrop();
    expect(states.at(-1)).toBe("reconnecting");
    expect(FakeSocket.all).toHaveLength(1); // waits for the backoff
    vi.advanceTimersByTime(99);
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(2);
    const second = FakeSocket.all[1];
    expect(second.url).toMatch(/after_seq=7$/);
    second.open();
    // a server that overlaps the window (seq 5..14) must not produce duplicates
    second.replay(events.slice(4));
    expect(states.at(-1)).toBe("live");
    expect(got.map((e) => e.seq)).toEqual(events.map((e) => e.seq));
    expect(ws.urls).toEqual(["ws://x/ws/sessions/s-1?after_seq=0", "ws://x/ws/sessions/s-1?after_seq=7"]);
  });

  it("takes a batched backlog (events frames) in order, dropping what it has seen, then live events", () => {
    const events = walkEvents(3); // seq 1..14
    const { ws, got, states } = client(3);
    ws.start();
    FakeSocket.all[0].open();
    // a batch that overlaps what was applied (seq 1..3), split over two frames
    FakeSocket.all[0].send({ type: "events", events: events.slice(0, 5) });
    FakeSocket.all[0].send({ type: "events", events: events.slice(4, 9) }); // seq 5 again
    expect(states).toEqual(["connecting"]); // still replaying
    FakeSocket.all[0].send({ type: "caught_up", last_seq: 9 });
    FakeSocket.all[0].send({ type: "event", event: events[9] });
    expect(states.at(-1)).toBe("live");
    expect(got.map((e) => e.seq)).toEqual(events.slice(3, 10).map((e) => e.seq));
    expect(ws.lastSeq).toBe(10);
  });

  it("reconnects when two heartbeats in a row show it is behind", () => {
    const { ws } = client();
    ws.start();
    FakeSocket.all[0].open();
    FakeSocket.all[0].replay(walkEvents(1).slice(0, 2)); // seq 1, 2
    FakeSocket.all[0].send({ type: "heartbeat", ts: "", last_seq: 2 });
    FakeSocket.all[0].send({ type: "heartbeat", ts: "", last_seq: 4 }); // event 3, 4 may be in flight
    expect(FakeSocket.all[0].closedByClient).toBe(false);
    FakeSocket.all[0].send({ type: "heartbeat", ts: "", last_seq: 4 }); // still missing: lost
    expect(FakeSocket.all[0].closedByClient).toBe(true);
    vi.advanceTimersByTime(200);
    expect(FakeSocket.all[1].url).toMatch(/after_seq=2$/);
  });
});

describe("WanderSocket: backing off, closing, giving up", () => {
  it("backs off exponentially up to the cap while the server is down", () => {
    const { ws } = client(3);
    ws.start();
    expect(FakeSocket.all[0].url).toMatch(/after_seq=3$/);
    const delays: number[] = [];
    for (let i = 0; i < 6; i++) {
      const n = FakeSocket.all.length;
      FakeSocket.all[n - 1].serverDrop();
      let waited = 0;
      while (FakeSocket.all.length === n) {
        vi.advanceTimersByTime(10);
        waited += 10;
      }
      delays.push(waited);
    }
    expect(delays).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(FakeSocket.all.every((s) => s.url.endsWith("after_seq=3"))).toBe(true);
  });

  it("does not reconnect after close(), and drop() triggers a reconnect", () => {
    const { ws, states } = client();
    ws.start();
    FakeSocket.all[0].open();
    FakeSocket.all[0].replay(walkEvents(1).slice(0, 2));
    ws.drop();
    vi.advanceTimersByTime(200);
    expect(FakeSocket.all).toHaveLength(2);
    expect(FakeSocket.all[1].url).toMatch(/after_seq=2$/);
    ws.close();
    expect(FakeSocket.all[1].closedByClient).toBe(true);
    vi.advanceTimersByTime(5000);
    expect(FakeSocket.all).toHaveLength(2);
    expect(states.at(-1)).toBe("closed");
  });

  it("gives up when the server refuses the socket for good (unknown session)", () => {
    const fatal: [number, string][] = [];
    const ws = new WanderSocket({
      url: (after) => `ws://x?after_seq=${after}`,
      onEvent: () => undefined,
      onFatal: (code, reason) => fatal.push([code, reason]),
      socketFactory: (url) => new FakeSocket(url),
    });
    ws.start();
    FakeSocket.all[0].serverDrop(4404, "session not found: s-1");
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(ws.state).toBe("closed");
    expect(fatal).toEqual([[4404, "session not found: s-1"]]);
  });
});
