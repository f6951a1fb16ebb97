// The review queue as a person uses it: the counts by status, the pending list, one opened
// with V's parts, a decision that needs a reviewer, and the list and counts after it.
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SandwichReviewOut } from "../api/types.gen";
import { navigate } from "../router";
import { ReviewQueuePage } from "./ReviewQueuePage";

const row = (id: string, name: string, v: number): SandwichReviewOut => ({
  id, created_at: "2026-01-01T09:00:00+00:00", run_id: null, source_id: null, name, description: `${name}, described`,
  heuristic: "conceptual_opposition", structural_type: "Dialectic", validity_score: v,
  validity: { V: v, bread_compat: 0.6, containment: 0.55, non_triviality: 0.7, novelty: 0.5 },
  bread_top: "order", filling: "emergence", bread_bottom: "chaos",
  ingredient_domains: { bread_top: ["physics"], filling: [], bread_bottom: ["math"] },
  assembly_rationale: "conceptual opposition between order and chaos", status: "pending",
  decided_at: null, reviewer: null, note: null, sandwich_id: null,
});

let queue: SandwichReviewOut[];
let calls: { url: string; body: unknown }[];

beforeEach(() => {
  queue = [row("a", "The Edge of Order", 0.62), row("b", "Tidal Bargain", 0.55)];
  calls = [];
  localStorage.clear();
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      const u = String(url);
      const json = (b: unknown, status = 200) => new Response(JSON.stringify(b), { status });
      calls.push({ url: u, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (u.endsWith("/review-counts")) {
        const n = (s: string) => queue.filter((r) => r.status === s).length;
        return json({ pending: n("pending"), accepted: n("accepted"), rejected: n("rejected") });
      }
      const dec = /\/reviews\/(\w+)\/(accept|reject)$/.exec(u);
      if (dec) {
        const r = queue.find((x) => x.id === dec[1])!;
        if (r.status !== "pending") return json({ detail: `review ${r.id} was already ${r.status}` }, 409);
        const body = JSON.parse(String(init?.body));
        Object.assign(r, { status: dec[2] === "accept" ? "accepted" : "rejected", reviewer: body.reviewer, note: body.note || null, decided_at: "2026-01-02T10:00:00+00:00", sandwich_id: dec[2] === "accept" ? "S9" : null });
        return json(r);
      }
      const one = /\/reviews\/(\w+)$/.exec(u);
      if (one) return json(queue.find((x) => x.id === one[1]));
      const list = /\/reviews\?status=(\w+)/.exec(u);
      if (list) return json(queue.filter((r) => list[1] === "all" || r.status === list[1]));
      return new Response("{}", { status: 404 });
    }),
  );
  window.history.replaceState(null, "", "/reviews");
});
afterEach(() => vi.unstubAllGlobals());

describe("ReviewQueuePage", () => {
  it("lists the pending marginal sandwiches with the counts, and says when none waits", async () => {
    render(<ReviewQueuePage />);
    await waitFor(() => expect(screen.getAllByTestId("review-row")).toHaveLength(2));
    expect(screen.getByTestId("review-count-pending").textContent).toBe("2");
    expect(screen.getByTestId("review-count-all").textContent).toBe("2");
    expect(screen.getAllByTestId("review-row")[0].textContent).toMatch(/The Edge of Order.*order \| emergence \| chaos.*Dialectic.*0\.62/);
    expect(screen.getByTestId("review-none-open")).toBeTruthy();
    fireEvent.click(screen.getByTestId("review-filter-accepted"));
    await waitFor(() => expect(screen.getByTestId("review-empty").textContent).toMatch(/No accepted reviews yet/));
  });

  it("opens one with V's parts, needs a reviewer, accepts it once, and the list and counts follow", async () => {
    const { rerender } = render(<ReviewQueuePage openId="a" />);
    await waitFor(() => expect(screen.getByTestId("review-detail").getAttribute("data-id")).toBe("a"));
    expect(screen.getByTestId("review-v").textContent).toBe("0.620");
    expect(screen.getByTestId("review-validity").textContent).toMatch(/containment× 0\.350\.550/);
    expect(screen.getByTestId("review-rationale").textContent).toMatch(/conceptual opposition/);
    fireEvent.click(screen.getByTestId("review-accept"));
    expect(screen.getByTestId("review-error").textContent).toMatch(/reviewer/);
    expect(calls.some((c) => c.url.endsWith("/accept"))).toBe(false);
    fireEvent.change(screen.getByTestId("review-reviewer"), { target: { value: "ada" } });
    fireEvent.change(screen.getByTestId("review-note"), { target: { value: "a fair tension" } });
    fireEvent.click(screen.getByTestId("review-accept"));
    await waitFor(() => expect(screen.getByTestId("review-decision").textContent).toMatch(/accepted by ada.*a fair tension.*sandwich of the corpus/));
    expect(calls.find((c) => c.url.endsWith("/reviews/a/accept"))?.body).toEqual({ reviewer: "ada", note: "a fair tension" });
    await waitFor(() => expect(screen.getAllByTestId("review-row")).toHaveLength(1));
    expect(screen.getByTestId("review-count-pending").textContent).toBe("1");
    expect(screen.getByTestId("review-count-accepted").textContent).toBe("1");
    expect(localStorage.getItem("wander.reviewer")).toBe("ada"); // remembered for the next one
    // the next one opened: the reviewer is filled in; rejecting it works the same way
    rerender(<ReviewQueuePage openId="b" />);
    await waitFor(() => expect(screen.getByTestId("review-name").textContent).toBe("Tidal Bargain"));
    expect((screen.getByTestId("review-reviewer") as HTMLInputElement).value).toBe("ada");
    fireEvent.click(screen.getByTestId("review-reject"));
    await waitFor(() => expect(screen.getByTestId("review-decision").textContent).toMatch(/^rejected by ada on 2026-01-02 10:00\.$/));
    await waitFor(() => expect(screen.getByTestId("review-empty")).toBeTruthy());
    expect(screen.getByTestId("review-count-rejected").textContent).toBe("1");
  });

  it("opens a sandwich from the list by its address", async () => {
    render(<ReviewQueuePage />);
    await waitFor(() => expect(screen.getAllByTestId("review-row")).toHaveLength(2));
    fireEvent.click(screen.getAllByTestId("review-row")[1]);
    expect(window.location.pathname).toBe("/reviews/b");
    navigate("/reviews");
  });
});
