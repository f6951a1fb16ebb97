// A crystal a person accepts on the map is listed under Proposals at once (the panel reads
// the queue again when the review's event comes), not at the next reload.
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ProposalsPanel } from "./ProposalsPanel";
import { useWander } from "../store";
import { ev, SID, walkEvents } from "../test/fixtures";

describe("ProposalsPanel", () => {
  let accepted = false;
  beforeEach(() => {
    accepted = false;
    useWander.setState(useWander.getInitialState());
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        const u = String(url);
        if (u.includes("/proposals?session_id=")) return new Response("[]", { status: 200 });
        if (u.endsWith(`/sessions/${SID}/crystals`)) {
          const c = { id: "C1", insight: "signals bridge the gap", validity: { verdict: "review", V: 0.6 }, human_approved: accepted, status: "active" };
          return new Response(JSON.stringify([c]), { status: 200 });
        }
        return new Response("{}", { status: 404 });
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it("lists a crystal accepted on the page as soon as its review event comes", async () => {
    const st = useWander.getState;
    st().openSession(SID);
    const walk = walkEvents(2);
    act(() => st().ingest(walk, true));
    render(<ProposalsPanel sessionId={SID} />);
    fireEvent.click(screen.getByRole("button", { name: /Proposals/ }));
    await waitFor(() => expect(screen.getByText(/No accepted crystal yet/)).toBeTruthy());
    accepted = true; // a person accepts it (CrystalPanel); the event follows on the socket
    act(() => st().ingest([ev(walk.at(-1)!.seq + 1, "wander.crystal.reviewed", { crystal_id: "C1", verdict: "accept", status: "active", note: null })]));
    await waitFor(() => expect(screen.getByText(/signals bridge the gap/)).toBeTruthy());
  });

  it("offers Execute only on an approved proposal, with amounts in units, and shows the wallet", async () => {
    const proposal = (status: string) => ({ id: `P-${status}`, crystal_id: "C1", status, image_url: "/img.png", image_sha256: "a".repeat(64), decision: null,
      execution: null, evaluation: { action: `do ${status}`, expected_value_cents: 1234, cost_cents: 500, worst_case_loss_cents: 500, risk: 0.2, tractability: 0.5 } });
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        const u = String(url);
        if (u.includes("/proposals?session_id=")) return new Response(JSON.stringify([proposal("pending"), proposal("approved")]), { status: 200 });
        if (u.endsWith("/wallet"))
          return new Response(JSON.stringify({ wallet: "paper", balance_cents: 995000, breaker: null, limits: {}, positions: [{ asset: "data engineering", cost_cents: 5000, worst_case_loss_cents: 5000 }],
            ledger: [{ id: 1, asset: "data engineering", amount_cents: -5000, balance_after_cents: 995000, created_at: "2026-11-28T06:00:00Z" }] }), { status: 200 });
        if (u.endsWith("/img.png")) return new Response(new Uint8Array([1, 2, 3]), { status: 200 });
        return new Response("[]", { status: 200 });
      }),
    );
    useWander.getState().openSession(SID);
    render(<ProposalsPanel sessionId={SID} />);
    fireEvent.click(screen.getByRole("button", { name: /Proposals/ }));
    await waitFor(() => expect(screen.getAllByTestId("proposal")).toHaveLength(2));
    const [pending, approved] = screen.getAllByTestId("proposal");
    expect(pending.textContent).not.toMatch(/Execute/);
    expect(approved.textContent).toMatch(/Execute on paper/);
    expect(pending.textContent).toContain("12.34 ¤");
    await waitFor(() => expect(screen.getByTestId("wallet-balance").textContent).toBe("9950.00 ¤"));
    expect(screen.getByTestId("wallet-history").textContent).toContain("-50.00 ¤");
  });
});
