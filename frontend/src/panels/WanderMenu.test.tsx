// Rename and delete a wander from its own page.
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SessionOut } from "../api/types.gen";
import { WanderMenu } from "./WanderMenu";
import { useWander } from "../store";
import { SID, walkEvents } from "../test/fixtures";

type Call = { url: string; method: string; body: unknown };
const sess = (over: Partial<SessionOut> = {}) =>
  ({ id: SID, name: "information asymmetry", status: "active", max_steps: 3, step_count: 3, last_event_seq: 14, running: false, ...over }) as SessionOut;

function mockFetch() {
  const calls: Call[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ url: String(url), method: init?.method ?? "GET", body });
      if (init?.method === "DELETE") return new Response(null, { status: 204 });
      return new Response(JSON.stringify(sess(body ?? {})), { status: 200, headers: { "Content-Type": "application/json" } });
    }),
  );
  return calls;
}

describe("WanderMenu", () => {
  beforeEach(() => {
    useWander.setState(useWander.getInitialState());
    window.history.replaceState(null, "", `/sessions/${SID}`);
  });
  afterEach(() => vi.unstubAllGlobals());

  it("renames the wander, and the new name wins over the one its created event carries", async () => {
    const calls = mockFetch();
    const st = useWander.getState;
    st().openSession(SID);
    st().ingest(walkEvents(3), true);
    render(<WanderMenu sessionId={SID} name="information asymmetry" />);
    fireEvent.click(screen.getByRole("button", { name: "Wander actions" }));
    fireEvent.click(screen.getByRole("button", { name: "Rename…" }));
    fireEvent.change(screen.getByLabelText("New name"), { target: { value: "signals" } });
    fireEvent.click(screen.getByRole("button", { name: "Rename" }));
    await waitFor(() => expect(st().session?.name).toBe("signals"));
    expect(calls.find((c) => c.method === "PATCH")!.body).toEqual({ name: "signals" });
    expect(st().graph.name).toBe("signals");
    // a replay of the created event (a reconnection from 0) does not bring the old name back
    st().openSession("other");
    st().openSession(SID);
    st().setSession(sess({ name: "signals" }));
    st().ingest(walkEvents(3), true);
    expect(st().graph.name).toBe("signals");
  });

  it("deletes the wander after asking, and goes back to the list", async () => {
    const calls = mockFetch();
    render(<WanderMenu sessionId={SID} name="information asymmetry" />);
    fireEvent.click(screen.getByRole("button", { name: "Wander actions" }));
    fireEvent.click(screen.getByRole("button", { name: "Delete…" }));
    expect(screen.getByTestId("wander-menu").textContent).toMatch(/cannot be undone/);
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    fireEvent.click(screen.getByRole("button", { name: "Delete for good" }));
    await waitFor(() => expect(window.location.pathname).toBe("/"));
    expect(calls.filter((c) => c.method === "DELETE").map((c) => c.url)).toEqual([`/api/v1/wander/sessions/${SID}`]);
  });

  it("offers a JSON snapshot of the wander as it stands (also while it walks)", () => {
    mockFetch();
    render(<WanderMenu sessionId={SID} name="information asymmetry" />);
    fireEvent.click(screen.getByRole("button", { name: "Wander actions" }));
    expect(screen.getByTestId("export-snapshot").getAttribute("href")).toBe(`/api/v1/wander/sessions/${SID}/archive.json?final=false`);
  });
});
