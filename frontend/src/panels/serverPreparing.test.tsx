// A first start's remaining work is shown on the status bar while the server reports it, and
// goes away once the server is ready; a server that does not say (or cannot be reached, or
// asks for a token) shows nothing.
import { render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fetchPreparing, useServerPreparing } from "./serverPreparing";

function Probe() {
  const what = useServerPreparing(10);
  return <span data-testid="probe">{what ?? "ready"}</span>;
}

function health(answers: Array<{ status: number; body?: unknown }>) {
  let i = 0;
  const fn = vi.fn(async () => {
    const a = answers[Math.min(i++, answers.length - 1)];
    return new Response(a.body === undefined ? null : JSON.stringify(a.body), { status: a.status });
  });
  vi.stubGlobal("fetch", fn);
  return fn;
}

afterEach(() => vi.unstubAllGlobals());

describe("server preparing", () => {
  it("names the work while the server reports it, then nothing", async () => {
    const fn = health([
      { status: 200, body: { status: "ok", preparing: "loading the CA kernel" } },
      { status: 200, body: { status: "ok", preparing: "loading the CA kernel" } },
      { status: 200, body: { status: "ok", preparing: null } },
    ]);
    render(<Probe />);
    await waitFor(() => expect(screen.getByTestId("probe").textContent).toBe("loading the CA kernel"));
    await waitFor(() => expect(screen.getByTestId("probe").textContent).toBe("ready"));
    const calls = fn.mock.calls.length;
    await new Promise((r) => setTimeout(r, 50));
    expect(fn.mock.calls.length).toBe(calls); // ready: no more asking
  });

  it("shows nothing for a server that does not say, refuses, or is away", async () => {
    health([{ status: 200, body: { status: "ok" } }]);
    expect(await fetchPreparing()).toBeNull();
    health([{ status: 401, body: { status: 401, title: "Unauthorized" } }]);
    expect(await fetchPreparing()).toBeNull();
    vi.stubGlobal("fetch", vi.fn(async () => Promise.reject(new TypeError("offline"))));
    expect(await fetchPreparing()).toBeNull();
  });
});
