// The archive view of a wander with a sub-wander: the sub-wander's node says how the child
// ended (its steps and status come from the child, not from this wander's log).
import { render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ArchivePage } from "./ArchivePage";
import { useWander } from "../store";
import { ev, SID, walkEvents } from "../test/fixtures";
import type { SessionOut } from "../api/types.gen";

const walk = walkEvents(3);
const spawned = ev(walk.at(-1)!.seq + 1, "wander.subwander.spawned", { child_session_id: "c-1", parent_locus_id: "L2",
  seed_concept: "seaport", name: "w / seaport", max_steps: 20, budget_share: 0.25, cloud_budget_cents: 100 });
const doc = {
  format: "wander-archive", version: 1, final: true, fingerprint: "f",
  session: { id: SID, name: "n", seed_concept: "information asymmetry", attractor: null, status: "completed", step_count: 3 },
  events: [...walk, spawned],
};
const child = { id: "c-1", name: "w / seaport", seed_concept: "seaport", status: "completed", step_count: 20, max_steps: 20,
  running: false, parent_session_id: SID, last_event_seq: 90, stopped_reason: "max_steps" } as unknown as SessionOut;

describe("ArchivePage", () => {
  beforeEach(() => {
    useWander.setState(useWander.getInitialState());
    window.history.replaceState(null, "", `/sessions/${SID}/archive`);
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        const u = String(url);
        if (u.endsWith("/archive.json")) return new Response(JSON.stringify(doc), { status: 200 });
        if (u.endsWith(`/sessions/${SID}/children`)) return new Response(JSON.stringify([child]), { status: 200 });
        return new Response("{}", { status: 404 });
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it("shows a completed sub-wander as completed with its steps, not '0/20 · spawned'", async () => {
    render(<ArchivePage sessionId={SID} />);
    await waitFor(() => expect(screen.getByTestId("subwander-progress").textContent).toBe("20/20 · completed"));
  });
});
