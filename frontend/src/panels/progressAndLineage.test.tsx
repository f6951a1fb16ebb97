// Rendered: the "stepping N" badge, the locus panel back at its title when a connection is
// followed, sub-wanders under their parent with links both ways.
import { act, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SessionList as SessionListT, SessionOut } from "../api/types.gen";
import { Lineage } from "./Lineage";
import { LocusPanel } from "./LocusPanel";
import { SessionList } from "./SessionList";
import { StatusBar } from "./StatusBar";
import { emptyGraph, reduceEvent, reduceEvents, useWander } from "../store";
import { ev, SID, walkEvents } from "../test/fixtures";

function serve(routes: Record<string, unknown>) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      const path = new URL(String(url), "http://x").pathname;
      const body = routes[path];
      return body === undefined
        ? new Response(JSON.stringify({ title: "not found", status: 404 }), { status: 404, headers: { "Content-Type": "application/problem+json" } })
        : new Response(JSON.stringify(body), { status: 200, headers: { "Content-Type": "application/json" } });
    }),
  );
}

const sess = (id: string, name: string, over: Partial<SessionOut> = {}) =>
  ({ id, name, status: "paused", max_steps: 40, step_count: 5, last_event_seq: 9, running: false, parent_session_id: null, fence: [], ...over }) as SessionOut;

beforeEach(() => {
  useWander.setState(useWander.getInitialState());
  window.history.replaceState(null, "", "/");
});
afterEach(() => vi.unstubAllGlobals());

describe("the status bar", () => {
  it("says which step is in progress between step.started and step.completed", () => {
    const g = reduceEvents(emptyGraph(SID), walkEvents(2));
    useWander.setState({ graph: g });
    render(<StatusBar />);
    expect(screen.queryByText(/stepping/)).toBeNull();
    act(() => useWander.setState({ graph: reduceEvent(g, ev(g.lastSeq + 1, "wander.step.started", { step_number: 3, from_locus_id: "L2" })) }));
    expect(screen.getByText("stepping 3")).toBeTruthy();
    act(() => useWander.setState({ graph: reduceEvents(emptyGraph(SID), walkEvents(3)) }));
    expect(screen.queryByText(/stepping/)).toBeNull();
  });
});

describe("the locus panel", () => {
  it("opens a followed connection at its title, not mid-scroll", async () => {
    serve({});
    useWander.setState({ graph: reduceEvents(emptyGraph(SID), walkEvents(2)), selectedId: "L1" });
    render(<LocusPanel sessionId={SID} />);
    const panel = screen.getByTestId("locus-panel");
    expect(screen.getByTestId("locus-concept").textContent).toBe("concept 1");
    panel.scrollTop = 480;
    expect(panel.scrollTop).toBe(480);
    act(() => useWander.getState().select("L2"));
    await waitFor(() => expect(screen.getByTestId("locus-concept").textContent).toBe("concept 2"));
    expect(screen.getByTestId("locus-panel").scrollTop).toBe(0);
  });
});

describe("sub-wanders and their parent", () => {
  const parent = sess("p-1", "salt trade");
  const child = sess("c-1", "dealer", { parent_session_id: "p-1" });
  const grandchild = sess("g-1", "bargaining", { parent_session_id: "c-1" });

  it("lists each sub-wander under its parent, with its parent's link and the parent's children count", async () => {
    const list: SessionListT = { items: [grandchild, child, parent], total: 3, limit: 20, offset: 0 } as SessionListT;
    serve({ "/api/v1/wander/sessions": list });
    render(<SessionList />);
    await waitFor(() => expect(screen.getAllByTestId("session-row")).toHaveLength(3));
    const rows = screen.getAllByTestId("session-row");
    expect(rows.map((r) => r.getAttribute("data-depth"))).toEqual(["0", "1", "2"]);
    expect(rows[0].textContent).toContain("salt trade");
    expect(within(rows[0]).getByTestId("children-count").textContent).toBe("1 sub-wander");
    const up = within(rows[1]).getByRole("link", { name: "salt trade" });
    expect(up.getAttribute("href")).toBe("/sessions/p-1");
    expect(within(rows[2]).getByRole("link", { name: "dealer" }).getAttribute("href")).toBe("/sessions/c-1");
  });

  it("links a wander to its parent and to its own sub-wanders", async () => {
    serve({ "/api/v1/wander/sessions/c-1/children": [grandchild], "/api/v1/wander/sessions/p-1": parent });
    useWander.setState({ session: child });
    render(<Lineage sessionId="c-1" />);
    const lineage = await screen.findByTestId("lineage");
    await waitFor(() => expect(within(lineage).getByRole("link", { name: "salt trade" }).getAttribute("href")).toBe("/sessions/p-1"));
    await waitFor(() => expect(within(lineage).getByRole("link", { name: "bargaining" }).getAttribute("href")).toBe("/sessions/g-1"));
  });
});
