// The analysis page as a person opens it: the app's header and a way back, what the corpus and
// its metrics are, 004 7.3's six pictures each with what it shows (an empty one says so), and
// the sandwiches a forage run made. ECharts needs a laid-out DOM jsdom has not: the chart is
// a stand-in that shows which series it was handed.
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SandwichCharts } from "../api/types.gen";
import { AnalysisPage } from "./AnalysisPage";
import { EMPTY, SAMPLE } from "./charts/fixtures";

vi.mock("./charts/EChart", () => ({
  EChart: ({ option }: { option: { series: { type: string }[] } }) => (
    <div data-testid="echart" data-series={option.series.map((s) => s.type).join(",")} />
  ),
}));

let charts: SandwichCharts = SAMPLE;

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
        if (u.endsWith("/charts")) return json(charts);
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
  afterEach(() => {
    vi.unstubAllGlobals();
    charts = SAMPLE;
  });

  it("has the app's header with a way back, and explains the corpus and each metric", async () => {
    render(<AnalysisPage />);
    expect(screen.getByRole("link", { name: /Wanders/ }).getAttribute("href")).toBe("/");
    expect(screen.getByText("VISLZR")).toBeTruthy(); // the app's brand
    expect(screen.getByTestId("analysis-intro").textContent).toMatch(/breads/);
    await waitFor(() => expect(screen.getByTestId("metrics").textContent).toMatch(/Share of foraging attempts that made a sandwich/));
  });

  it("draws the six pictures of 004 7.3, each with what it shows", async () => {
    render(<AnalysisPage />);
    await waitFor(() => expect(screen.getByTestId("corpus-charts")).toBeTruthy());
    const kinds = { network: "graph", treemap: "treemap", sunburst: "sunburst", validity: "bar,bar", heatmap: "heatmap", efficiency: "bar,bar,line" };
    for (const [key, series] of Object.entries(kinds)) {
      const card = screen.getByTestId(`chart-${key}`);
      expect(card.querySelector('[data-testid="chart-empty"]')).toBeNull();
      expect(card.querySelector('[data-testid="echart"]')?.getAttribute("data-series")).toBe(series);
      expect(card.querySelector('[data-testid="chart-help"]')?.textContent?.length).toBeGreaterThan(80);
    }
    expect(screen.getByTestId("chart-network").getAttribute("data-count")).toBe("3");
    expect(screen.getByTestId("reviews-link").getAttribute("href")).toBe("/reviews");
  });

  it("says of each empty picture why it is empty and what fills it", async () => {
    charts = EMPTY;
    render(<AnalysisPage />);
    await waitFor(() => expect(screen.getByTestId("corpus-charts")).toBeTruthy());
    expect(screen.queryAllByTestId("echart")).toHaveLength(0);
    const empties = screen.getAllByTestId("chart-empty").map((e) => e.textContent ?? "");
    expect(empties).toHaveLength(6);
    expect(empties.slice(0, 5).every((t) => /Forage/.test(t))).toBe(true);
    expect(empties[5]).toMatch(/No foraging runs yet/);
    expect(screen.getAllByTestId("chart-help")).toHaveLength(6); // the explanation stays beside the empty state
  });

  it("reads the pictures again after a forage run", async () => {
    charts = EMPTY;
    render(<AnalysisPage />);
    await waitFor(() => expect(screen.getAllByTestId("chart-empty")).toHaveLength(6));
    charts = SAMPLE;
    fireEvent.click(screen.getByTestId("forage"));
    await waitFor(() => expect(screen.getAllByTestId("echart")).toHaveLength(6));
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
