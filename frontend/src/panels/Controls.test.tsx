// The toolbar as a person uses it day to day: one step from a paused wander, Stop that asks
// first, a stopped wander walked on with Extend, and a toolbar that keeps its buttons.
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SessionOut } from "../api/types.gen";
import { Controls } from "./Controls";
import { emptyGraph, reduceEvent, reduceEvents, useWander } from "../store";
import { ev, SID, walkEvents } from "../test/fixtures";

type Call = { url: string; method: string; body: unknown };

function mockFetch(handler: (c: Call) => { status: number; body?: unknown }) {
  const calls: Call[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      const c: Call = { url: String(url), method: init?.method ?? "GET", body: init?.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(c);
      const { status, body } = handler(c);
      return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
    }),
  );
  return calls;
}

const sess = (over: Partial<SessionOut> = {}) =>
  ({ id: SID, name: "w", status: "active", max_steps: 40, step_count: 2, last_event_seq: 1, running: false, parent_session_id: null, fence: [],
    human_checkpoint_frequency: 0, ...over }) as SessionOut;

function load(status: "active" | "paused" | "completed", reason: string | null) {
  let g = reduceEvents(emptyGraph(SID), walkEvents(2));
  if (status === "paused") g = reduceEvent(g, ev(g.lastSeq + 1, "wander.session.paused", { status, reason }));
  if (status === "completed") g = reduceEvent(g, ev(g.lastSeq + 1, "wander.session.completed", { status, reason }));
  useWander.setState({ graph: { ...g, maxSteps: 40 }, session: sess({ status, stopped_reason: reason, last_event_seq: g.lastSeq }) });
}
const button = (name: RegExp) => screen.getByRole("button", { name }) as HTMLButtonElement;

describe("Controls", () => {
  beforeEach(() => useWander.setState(useWander.getInitialState()));
  afterEach(() => vi.unstubAllGlobals());

  it("takes one step from a paused wander and leaves it paused (the run waits for Continue)", async () => {
    const calls = mockFetch((c) => ({ status: 200, body: c.url.endsWith("/step") ? { step_number: 3 } : sess({ status: "paused" }) }));
    load("paused", "checkpoint");
    render(<Controls sessionId={SID} />);
    expect(button(/^step$/i).disabled).toBe(false);
    fireEvent.click(button(/^step$/i));
    await waitFor(() => expect(calls.some((c) => c.url.endsWith("/pause"))).toBe(true));
    const writes = calls.filter((c) => c.method !== "GET").map((c) => [c.method, c.url.split(`/${SID}`)[1] || "/", c.body]);
    expect(writes).toEqual([
      ["PATCH", "/", { status: "active" }],
      ["POST", "/step", undefined],
      ["POST", "/pause", undefined],
    ]);
    expect(calls.some((c) => c.url.endsWith("/resume") || c.url.endsWith("/wander"))).toBe(false);
  });

  it("asks before it stops a wander; Keep going stops nothing", async () => {
    const calls = mockFetch(() => ({ status: 200, body: sess({ status: "completed", stopped_reason: "stopped by request" }) }));
    load("active", null);
    render(<Controls sessionId={SID} />);
    fireEvent.click(button(/^stop$/i));
    expect(screen.getByTestId("stop-confirm").textContent).toMatch(/Stop this wander\?/);
    fireEvent.click(button(/keep going/i));
    expect(screen.queryByTestId("stop-confirm")).toBeNull();
    expect(calls.some((c) => c.url.endsWith("/stop"))).toBe(false);
    fireEvent.click(button(/^stop$/i));
    fireEvent.click(button(/^stop it$/i));
    await waitFor(() => expect(calls.some((c) => c.method === "POST" && c.url.endsWith("/stop"))).toBe(true));
  });

  it("walks a stopped wander on with Extend: max_steps past its steps, active, and a run of N", async () => {
    const calls = mockFetch((c) => ({ status: c.url.endsWith("/wander") ? 202 : 200, body: sess({ status: "active", max_steps: 40 }) }));
    load("completed", "stopped by request");
    render(<Controls sessionId={SID} />);
    expect(button(/extend by/i).disabled).toBe(false);
    fireEvent.change(screen.getByLabelText("steps to extend by"), { target: { value: "5" } });
    fireEvent.click(button(/extend by/i));
    await waitFor(() => expect(calls.some((c) => c.url.endsWith("/wander"))).toBe(true));
    // stopped at 2 of 40: the limit stays 40, the run is 5 steps
    expect(calls.find((c) => c.method === "PATCH")!.body).toEqual({ max_steps: 40, status: "active" });
    expect(calls.find((c) => c.url.endsWith("/wander"))!.body).toEqual({ n_steps: 5 });
  });

  it("keeps every button in place whatever the state (Extend disabled, not gone)", () => {
    mockFetch(() => ({ status: 200, body: sess() }));
    load("active", null);
    const r = render(<Controls sessionId={SID} />);
    const names = () => [...r.container.querySelectorAll("button")].map((b) => b.textContent);
    const active = names();
    expect(button(/extend by/i).disabled).toBe(true);
    r.unmount();
    load("completed", "max_steps");
    const r2 = render(<Controls sessionId={SID} />);
    expect([...r2.container.querySelectorAll("button")].map((b) => b.textContent)).toEqual(active);
  });
});
