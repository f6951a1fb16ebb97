// A crystal's panel shows what else the gate weighed for it, and why it was turned down.
import { render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CrystalPanel } from "./CrystalPanel";
import { weighedOf } from "./crystalWeighed";
import { useWander } from "../store";
import { ev, SID, walkEvents } from "../test/fixtures";

const TASTED = {
  bread: ["hive", "swarm"],
  bread_ids: ["L3", "L4"],
  filling: "colony",
  V: 0.64,
  verdict: "review",
  hard_failures: [],
  reasons: ["V 0.64 below 0.7"],
};
const FIRST = { bread: ["hive", "honey"], filling: "bee", V: 0.81, verdict: "rejected", hard_failures: ["trivial: the filling is a broader concept of a bread"] };

describe("weighedOf", () => {
  it("reads the first try first, then the sandwiches tasted beside the crystal", () => {
    const w = weighedOf({ reworked_from: FIRST, also_weighed: [TASTED, { bread: ["only one"], filling: "x" }] });
    expect(w.map((x) => [x.filling, x.verdict, x.firstTry])).toEqual([
      ["bee", "rejected", true],
      ["colony", "review", false],
    ]);
    expect(w[0].why).toBe("trivial: the filling is a broader concept of a bread");
    expect(w[1].why).toBe("V 0.64 below 0.7");
    expect(weighedOf({ V: 0.7 })).toEqual([]);
  });
});

describe("CrystalPanel's weighed sandwiches", () => {
  beforeEach(() => useWander.setState(useWander.getInitialState()));
  afterEach(() => vi.unstubAllGlobals());

  it("lists them with their verdict, V and reasons", async () => {
    const c = { id: "C1", insight: "a hive and a swarm", status: "active", human_approved: false, structural_type: "Temporal", confidence: 0.75,
      bread_a_locus_id: "L1", bread_b_locus_id: "L2", validity: { verdict: "accepted", V: 0.75, filling: "apiary", also_weighed: [TASTED] }, rumination: [], domains: [] };
    vi.stubGlobal("fetch", vi.fn(async () => new Response(JSON.stringify([c]), { status: 200, headers: { "Content-Type": "application/json" } })));
    const st = useWander.getState;
    st().openSession(SID);
    const walk = walkEvents(2);
    st().ingest([...walk, ev(walk.at(-1)!.seq + 1, "wander.crystal.formed", { crystal: { id: "C1", insight: "a hive and a swarm", confidence: 0.75,
      structural_type: "Temporal", status: "active", bread: ["L1", "L2"], domains: [], V: 0.75, verdict: "accepted" } })], true);
    st().openCrystal("C1");
    render(<CrystalPanel sessionId={SID} />);
    await waitFor(() => expect(screen.getByTestId("crystal-weighed")).toBeTruthy());
    const text = screen.getByTestId("crystal-weighed").textContent!;
    expect(text).toContain("hive · colony · swarm");
    expect(text).toContain("review");
    expect(text).toContain("V 0.64");
    expect(text).toContain("V 0.64 below 0.7");
  });
});
