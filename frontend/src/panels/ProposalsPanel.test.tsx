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
});
