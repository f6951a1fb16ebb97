// The analysis page as a person opens it: the app's header and a way back, what the corpus and
// its metrics are, an empty chart that says so, and the sandwiches a forage run made.
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AnalysisPage } from "./AnalysisPage";

const metrics = {
  metrics: { sandwich_rate: { value: 0.5, target: "> 0.3", met: true }, novelty_stability: { value: null, target: ">= 0.8", met: null } },
  counts: { attempts: 2, made: 1, sandwiches: 1 },
  outcomes: {},
  type_distribution: [{ structural_type: "Bridge", sandwich_count: 1, avg_validity: 0.7, min_validity: 0.7, max_validity: 0.7 }],
  ingredient_frequency: [],
  validity_over_time: [],
  foraging_efficiency: [],
  cross_domain_breads: [],
};

describe("AnalysisPage", () => {
  beforeEach(() => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        const u = String(url);
        const json = (b: unknown) => new Response(JSON.stringify(b), { status: 200 });
        if (u.endsWith("/metrics")) return json(metrics);
        if (u.endsWith("/forage")) return json({ run_id: "r1", mode: "autonomous", attempts: 2, made: 1, outcomes: { made: 1, no_match: 1 }, farewell: "Enough." });
        if (u.includes("/log?run_id=r1"))
          return json([
            { id: "a2", ts: "t", run_id: "r1", source_ref: null, source_kind: null, source_title: null, curiosity_prompt: "what binds tides?", outcome: "made", outcome_rationale: "V 0.71", sandwich_id: "S1" },
            { id: "a1", ts: "t", run_id: "r1", source_ref: null, source_kind: null, source_title: null, curiosity_prompt: "why salt?", outcome: "no_match", outcome_rationale: "no filling", sandwich_id: null },
          ]);
        if (u.includes("/sandwiches"))
          return json([{ id: "S1", name: "tide / moon", bread_top: "tide", filling: "gravity", bread_bottom: "moon", structural_type: "Bridge", validity_score: 0.71 }]);
        return new Response("{}", { status: 404 });
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it("has the app's header with a way back, explains the corpus and each metric, and says when a chart is empty", async () => {
    render(<AnalysisPage />);
    expect(screen.getByRole("link", { name: /Wanders/ }).getAttribute("href")).toBe("/");
    expect(screen.getByText("VISLZR")).toBeTruthy(); // the app's brand
    expect(screen.getByTestId("analysis-intro").textContent).toMatch(/breads/);
    await waitFor(() => expect(screen.getByTestId("metrics").textContent).toMatch(/Share of foraging attempts that made a sandwich/));
    expect(screen.getByTestId("chart-ingredients").querySelector('[data-testid="chart-empty"]')).not.toBeNull();
    expect(screen.getByTestId("chart-types").querySelector('[data-testid="chart-empty"]')).toBeNull();
  });

  it("shows the sandwich each attempt of a forage run made", async () => {
    render(<AnalysisPage />);
    await waitFor(() => expect(screen.getByTestId("metrics")).toBeTruthy());
    fireEvent.click(screen.getByTestId("forage"));
    await waitFor(() => expect(screen.getAllByTestId("forage-attempt")).toHaveLength(2));
    const made = screen.getAllByTestId("forage-sandwich").map((c) => c.textContent);
    expect(made[0]).toBe("–"); // the run's first attempt (the log comes newest first)
    expect(made[1]).toMatch(/tide \| gravity \| moon/);
  });
});
