// Driving a wander from the browser: planting, resume/abandon state, controls that follow the
// state, sub-wanders under their parent, the create form's fields and failed start, sign-in.
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { api } from "./api/client";
import { useAuth } from "./api/auth";
import type { SessionOut } from "./api/types.gen";
import { Controls, stopHint } from "./panels/Controls";
import { CreateForm } from "./panels/CreateForm";
import { nestRows } from "./panels/SessionList";
import { StatusBar } from "./panels/StatusBar";
import { TokenPrompt } from "./panels/TokenPrompt";
import { emptyGraph, reduceEvent, reduceEvents, useWander } from "./store";
import { ev, locus, SID, walkEvents } from "./test/fixtures";

type Call = { url: string; method: string; body: unknown };

function mockFetch(handler: (c: Call) => { status: number; body?: unknown }) {
  const calls: Call[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      const c: Call = { url: String(url), method: init?.method ?? "GET", body: init?.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(c);
      const { status, body } = handler(c);
      return new Response(body === undefined ? null : JSON.stringify(body), {
        status,
        headers: { "Content-Type": status >= 400 ? "application/problem+json" : "application/json" },
      });
    }),
  );
  return calls;
}

const sess = (over: Partial<SessionOut> = {}) =>
  ({ id: SID, name: "w", status: "active", max_steps: 60, step_count: 50, last_event_seq: 1, running: false, parent_session_id: null, fence: [], ...over }) as SessionOut;

describe("the map's state", () => {
  it("draws a planted locus without moving current", () => {
    let g = reduceEvents(emptyGraph(SID), walkEvents(1));
    const seq = g.lastSeq;
    g = reduceEvent(g, ev(seq + 1, "wander.locus.planted", { step_number: 1, locus: locus("P", "harbour"), source: "inject" }));
    expect(g.currentLocusId).toBe("L1");
    expect(g.loci.P.planted).toBe(true);
    expect(g.order).toContain("P");
  });

  it("clears the tripped notice on resume and reads abandoned from the payload", () => {
    let g = reduceEvents(emptyGraph(SID), walkEvents(1));
    g = reduceEvent(g, ev(g.lastSeq + 1, "wander.circuit.tripped", { reason: "loop_detected", detail: "round and round" }));
    g = reduceEvent(g, ev(g.lastSeq + 1, "wander.session.paused", { status: "paused", reason: "loop_detected" }));
    expect(g.tripped?.reason).toBe("loop_detected");
    g = reduceEvent(g, ev(g.lastSeq + 1, "wander.session.resumed", { status: "active" }));
    expect(g.tripped).toBeNull();
    expect(g.stoppedReason).toBeNull();
    g = reduceEvent(g, ev(g.lastSeq + 1, "wander.session.completed", { status: "abandoned", reason: "abandoned" }));
    expect(g.status).toBe("abandoned");
  });
});

describe("Controls", () => {
  beforeEach(() => useWander.setState(useWander.getInitialState()));
  afterEach(() => vi.unstubAllGlobals());

  const load = (status: "active" | "paused" | "completed", reason: string | null, running: boolean) => {
    let g = reduceEvents(emptyGraph(SID), walkEvents(2));
    if (status === "paused") g = reduceEvent(g, ev(g.lastSeq + 1, "wander.session.paused", { status, reason }));
    if (status === "completed") g = reduceEvent(g, ev(g.lastSeq + 1, "wander.session.completed", { status, reason }));
    useWander.setState({ graph: g, session: sess({ status, running, stopped_reason: reason, last_event_seq: g.lastSeq }) });
  };
  const button = (name: RegExp) => screen.getByRole("button", { name }) as HTMLButtonElement;

  it("offers neither Step nor Run while a run is going", () => {
    mockFetch(() => ({ status: 200, body: sess({ running: true }) }));
    load("active", null, true);
    render(<Controls sessionId={SID} />);
    expect(button(/^step$/i).disabled).toBe(true);
    expect(button(/^run$/i).disabled).toBe(true);
    expect(button(/pause/i).disabled).toBe(false);
    expect(button(/continue/i).disabled).toBe(true);
  });

  it("explains a checkpoint and clears an error once the state moves on", async () => {
    mockFetch((c) => (c.url.endsWith("/stop") ? { status: 409, body: { title: "Conflict", status: 409, detail: "no stopping now" } } : { status: 200, body: sess({ status: "paused" }) }));
    load("paused", "checkpoint", false);
    render(
      <>
        <Controls sessionId={SID} />
        <StatusBar />
      </>,
    );
    expect(screen.getByTestId("control-hint").textContent).toMatch(/checkpoint after 2 steps/i);
    expect(button(/^step$/i).disabled).toBe(false); // one step from a paused wander
    fireEvent.click(button(/^stop$/i));
    fireEvent.click(button(/^stop it$/i));
    expect((await screen.findByRole("alert")).textContent).toBe("no stopping now");
    act(() => useWander.setState((s) => ({ graph: reduceEvent(s.graph, ev(s.graph.lastSeq + 1, "wander.session.resumed", {})) })));
    await waitFor(() => expect(screen.queryByRole("alert")).toBeNull());
  });

  it("extends a completed wander by N steps", async () => {
    const calls = mockFetch((c) => ({ status: c.url.endsWith("/wander") ? 202 : 200, body: sess({ status: "active", max_steps: 62 }) }));
    load("completed", "max_steps", false);
    useWander.setState((s) => ({ graph: { ...s.graph, maxSteps: 2 } }));
    render(<Controls sessionId={SID} />);
    fireEvent.change(screen.getByLabelText("steps to extend by"), { target: { value: "60" } });
    fireEvent.click(button(/extend by/i));
    await waitFor(() => expect(calls.some((c) => c.url.endsWith("/wander"))).toBe(true));
    const patch = calls.find((c) => c.method === "PATCH")!;
    expect(patch.body).toEqual({ max_steps: 62, status: "active" });
    expect(calls.find((c) => c.url.endsWith("/wander"))!.body).toEqual({ n_steps: 60 });
    expect(stopHint("completed", "stopped by request", 5, 9)).toMatch(/stopped after 5 steps: extend/i);
    expect(stopHint("completed", "drift_exceeded", 5, 9)).toBeNull();
  });
});

describe("sessions list", () => {
  it("puts sub-wanders right under their parent", () => {
    const rows = nestRows([
      sess({ id: "c2", name: "child 2", parent_session_id: "p" }),
      sess({ id: "x", name: "other" }),
      sess({ id: "g", name: "grandchild", parent_session_id: "c1" }),
      sess({ id: "c1", name: "child 1", parent_session_id: "p" }),
      sess({ id: "p", name: "parent" }),
      sess({ id: "o", name: "orphan", parent_session_id: "elsewhere" }),
    ]);
    expect(rows.map((r) => [r.s.id, r.depth])).toEqual([
      ["x", 0],
      ["p", 0],
      ["c2", 1],
      ["c1", 1],
      ["g", 2],
      ["o", 0],
    ]);
    expect(rows.find((r) => r.s.id === "p")!.children).toBe(2);
    expect(rows.find((r) => r.s.id === "c1")!.parentName).toBe("parent");
  });
});

describe("create form", () => {
  beforeEach(() => window.history.replaceState(null, "", "/"));
  afterEach(() => vi.unstubAllGlobals());

  it("sends budget, drift and checkpoints and shows a failed start inline", async () => {
    const calls = mockFetch((c) => {
      if (c.url.endsWith("/domains")) return { status: 200, body: [] };
      if (c.url.endsWith("/wander")) return { status: 409, body: { title: "Conflict", status: 409, detail: "cannot wander now" } };
      return { status: 201, body: sess({ id: "new", name: "tide", max_steps: 2000 }) };
    });
    render(<CreateForm />);
    fireEvent.change(screen.getByLabelText("Seed concept"), { target: { value: "tide" } });
    fireEvent.change(screen.getByLabelText("Steps"), { target: { value: "2000" } });
    fireEvent.change(screen.getByLabelText("Cloud budget (¢)"), { target: { value: "900" } });
    fireEvent.change(screen.getByLabelText("Max drift"), { target: { value: "1.1" } });
    fireEvent.change(screen.getByLabelText("Checkpoint every"), { target: { value: "0" } });
    fireEvent.click(screen.getByRole("button", { name: /start wandering/i }));
    const err = await screen.findByTestId("form-error");
    expect(err.textContent).toContain("could not start it: cannot wander now");
    expect(screen.getByRole("link", { name: "Open it" }).getAttribute("href")).toBe("/sessions/new");
    expect(calls.find((c) => c.method === "POST" && c.url.endsWith("/sessions"))!.body).toMatchObject({
      max_steps: 2000,
      cloud_budget_cents: 900,
      max_drift_distance: 1.1,
      human_checkpoint_frequency: 0,
    });
    expect(calls.find((c) => c.url.endsWith("/wander"))!.body).toEqual({ n_steps: 2000 });
    expect(window.location.pathname).toBe("/");
  });
});

describe("sign-in", () => {
  beforeEach(() => useAuth.setState({ needed: false, error: null }));
  afterEach(() => vi.unstubAllGlobals());

  it("asks for the token on a 401, signs in once and retries", async () => {
    let signedIn = false;
    const calls = mockFetch((c) => {
      if (c.url === "/api/v1/auth/session") {
        signedIn = (c.body as { token: string }).token === "s3cret";
        return { status: signedIn ? 204 : 401 };
      }
      return signedIn ? { status: 200, body: ["act"] } : { status: 401, body: { title: "Unauthorized", status: 401, detail: "token" } };
    });
    render(<TokenPrompt />);
    const domains = api.domains();
    const input = await screen.findByLabelText("API token");
    fireEvent.change(input, { target: { value: "wrong" } });
    fireEvent.click(screen.getByRole("button", { name: /sign in/i }));
    expect((await screen.findByRole("alert")).textContent).toMatch(/not accepted/);
    fireEvent.change(input, { target: { value: "s3cret" } });
    fireEvent.click(screen.getByRole("button", { name: /sign in/i }));
    expect(await domains).toEqual(["act"]);
    await waitFor(() => expect(screen.queryByLabelText("API token")).toBeNull());
    expect(calls.filter((c) => c.url.endsWith("/domains"))).toHaveLength(2);
  });
});
