// The status bar's figures: the step total after the limit was raised (an extend, a PATCH of
// max_steps) and the events/s, which counts live events only and is never negative.
import { act, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SessionOut } from "./api/types.gen";
import { StatusBar } from "./panels/StatusBar";
import { sampleRate } from "./panels/eventRate";
import { useWander } from "./store";
import { ev, SID, walkEvents } from "./test/fixtures";

const session = (extra: Partial<SessionOut>) =>
  ({ id: SID, name: "n", seed_concept: "information asymmetry", attractor: null, step_count: 3, max_steps: 3, stopped_reason: null,
    status: "active", last_event_seq: 14, running: false, ...extra }) as SessionOut;

describe("the step total", () => {
  beforeEach(() => useWander.setState(useWander.getInitialState()));

  it("keeps a raised max_steps when the replay of the created event comes after the REST view (a reload after an extend)", () => {
    const st = useWander.getState;
    st().openSession(SID);
    st().setSession(session({ max_steps: 53 })); // extended by 50 after 3 steps
    st().ingest(walkEvents(3), true); // the backlog: session.created says max_steps 3
    expect(st().graph.maxSteps).toBe(53);
  });

  it("takes a raised max_steps from a REST view that comes after the events", () => {
    const st = useWander.getState;
    st().openSession(SID);
    st().ingest(walkEvents(3), true);
    expect(st().graph.maxSteps).toBe(3);
    st().setSession(session({ max_steps: 700 }));
    expect(st().graph.maxSteps).toBe(700);
  });
});

describe("events/s", () => {
  beforeEach(() => useWander.setState(useWander.getInitialState()));
  afterEach(() => vi.useRealTimers());

  it("does not count a replayed backlog as received", () => {
    const st = useWander.getState;
    st().openSession(SID);
    st().ingest(walkEvents(3), true);
    expect(st().received).toBe(0);
    st().ingest([ev(15, "wander.step.started", { step_number: 4, from_locus_id: "L3" })]);
    expect(st().received).toBe(1);
  });

  it("is never negative when the count starts again (another wander opened in the page)", () => {
    const samples: { t: number; n: number }[] = [];
    expect(sampleRate(samples, { t: 0, n: 400 })).toBe(0);
    expect(sampleRate(samples, { t: 1000, n: 440 })).toBeCloseTo(40);
    expect(sampleRate(samples, { t: 2000, n: 0 })).toBe(0);
    expect(sampleRate(samples, { t: 3000, n: 5 })).toBeCloseTo(5);
  });

  it("shows 0.0 events/s, not a negative rate, after an in-app move to another wander", () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "performance"] });
    const st = useWander.getState;
    st().openSession(SID);
    useWander.setState({ received: 300 });
    render(<StatusBar />);
    act(() => void vi.advanceTimersByTime(1000));
    useWander.setState({ received: 420 });
    act(() => void vi.advanceTimersByTime(1000));
    act(() => st().openSession("s-2")); // the child's page: the count starts from 0
    act(() => void vi.advanceTimersByTime(1000));
    expect(screen.getByTestId("event-rate").textContent).toBe("0.0 events/s");
  });
});
