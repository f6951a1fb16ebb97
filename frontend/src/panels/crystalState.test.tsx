// A crystal shows one state, not "status: active", "gate: review" and "approved by a person" at once.
import { render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CrystalPanel } from "./CrystalPanel";
import { crystalState } from "./crystalState";
import { useWander } from "../store";
import { ev, SID, walkEvents } from "../test/fixtures";

describe("crystalState", () => {
  it("names the gate's verdict, or a person's on a crystal kept for review", () => {
    expect(crystalState({ verdict: "accepted", status: "active" }).text).toBe("accepted by the gate");
    expect(crystalState({ verdict: "rejected", status: "invalidated" }).text).toBe("rejected by the gate");
    expect(crystalState({ verdict: "review", status: "active", human_approved: false }).text).toBe("awaiting your review");
    expect(crystalState({ verdict: "review", status: "active", human_approved: true }).text).toBe("accepted by a person");
    expect(crystalState({ verdict: "review", status: "invalidated", human_approved: false }).text).toBe("rejected by a person");
    expect(crystalState({ verdict: "review", status: "active", review: "accept" }).text).toBe("accepted by a person");
    expect(crystalState({ verdict: "accepted", status: "acted_upon" }).text).toBe("accepted by the gate · acted upon");
  });
});

describe("CrystalPanel", () => {
  beforeEach(() => useWander.setState(useWander.getInitialState()));
  afterEach(() => vi.unstubAllGlobals());

  it("shows a crystal a person accepted with one state chip", async () => {
    const c = { id: "C1", insight: "signals bridge the gap", status: "active", human_approved: true, structural_type: "Temporal", confidence: 0.6,
      bread_a_locus_id: "L1", bread_b_locus_id: "L2", validity: { verdict: "review", V: 0.6 }, rumination: [], domains: [] };
    vi.stubGlobal("fetch", vi.fn(async () => new Response(JSON.stringify([c]), { status: 200, headers: { "Content-Type": "application/json" } })));
    const st = useWander.getState;
    st().openSession(SID);
    const walk = walkEvents(2);
    st().ingest([...walk, ev(walk.at(-1)!.seq + 1, "wander.crystal.formed", { crystal: { id: "C1", insight: "signals bridge the gap", confidence: 0.6,
      structural_type: "Temporal", status: "active", bread: ["L1", "L2"], domains: [], V: 0.6, verdict: "review" } })], true);
    st().openCrystal("C1");
    render(<CrystalPanel sessionId={SID} />);
    await waitFor(() => expect(screen.getByTestId("crystal-status").textContent).toBe("accepted by a person"));
    const panel = screen.getByTestId("crystal-panel").textContent!;
    expect(panel).not.toMatch(/status: active/);
    expect(panel).not.toMatch(/gate: review/);
  });
});
