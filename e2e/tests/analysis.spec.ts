import type { Page } from "@playwright/test";
import { expect, shot, test } from "./helpers";

// The SANDWICH corpus dashboard: the metrics table, and 004 7.3's six pictures drawn by ECharts
// (as SVG), fed by forage runs.
const CHARTS = ["network", "treemap", "sunburst", "validity", "heatmap", "efficiency"] as const;

type Charts = {
  network: { nodes: unknown[] };
  ingredients: { children?: { children?: { children?: unknown[] }[] }[] };
  types: { value: number };
  validity: { scores: number };
  heatmap: { cells: unknown[] };
  efficiency: { run_id: string }[];
};

/** What each card counts (the marks it draws), from the API's data. */
function expectedCounts(c: Charts): Record<(typeof CHARTS)[number], number> {
  const tiles = (c.ingredients.children ?? []).flatMap((r) => (r.children ?? []).flatMap((d) => d.children ?? [])).length;
  return {
    network: c.network.nodes.length,
    treemap: tiles,
    sunburst: c.types.value,
    validity: c.validity.scores,
    heatmap: c.heatmap.cells.length,
    efficiency: c.efficiency.length,
  };
}

/** Each card says what it shows; a card with data holds an SVG chart with marks, one without says it is empty. */
async function expectCards(page: Page, counts: Record<string, number>) {
  for (const key of CHARTS) {
    const card = page.getByTestId(`chart-${key}`);
    await expect(card).toHaveAttribute("data-count", String(counts[key]));
    expect((await card.getByTestId("chart-help").textContent())?.length ?? 0, `${key} says what it shows`).toBeGreaterThan(80);
    if (counts[key] > 0) {
      await expect(card.getByTestId("chart-empty")).toHaveCount(0);
      const marks = card.locator("svg path");
      await expect.poll(() => marks.count(), { message: `${key} draws its marks` }).toBeGreaterThanOrEqual(Math.min(counts[key], 3));
    } else {
      await expect(card.getByTestId("chart-empty")).toBeVisible();
      await expect(card.locator("svg")).toHaveCount(0);
    }
  }
}
test("the analysis page shows the 8.1 metrics and charts after foraging", async ({ page }) => {
  // Two forage runs: seconds on a quiet machine, far longer beside pytest on two cores (the
  // request's own limit is 30 s unless told).
  test.setTimeout(300_000);
  const res = await page.request.post("/api/v1/sandwich/forage", {
    data: { patience: 3, max_attempts: 12, seed: 11 },
    timeout: 180_000,
  });
  expect(res.status(), await res.text()).toBe(200);
  const run = await res.json();
  expect(run.attempts).toBeGreaterThanOrEqual(3);

  // the pictures are checked against the very data the page drew (a wander of another test
  // may add its crystals to the corpus meanwhile)
  const isCharts = (r: { url(): string }) => r.url().includes("/api/v1/sandwich/charts");
  const [drawn] = await Promise.all([page.waitForResponse(isCharts), page.goto("/analysis")]);
  await expect(page.getByRole("heading", { name: "Sandwich corpus" })).toBeVisible();
  const rows = page.getByTestId("metrics").locator("tbody tr");
  await expect(rows).toHaveCount(6);
  for (const name of ["sandwich_rate", "mean_validity", "ingredient_diversity", "structural_coverage",
    "cross_domain_rate", "novelty_stability"]) {
    await expect(page.locator(`tr[data-metric="${name}"]`)).toBeVisible();
  }
  const metrics = await (await page.request.get("/api/v1/sandwich/metrics")).json();
  await expect(page.getByTestId("counts")).toContainText(`${metrics.counts.attempts} attempts`);
  // the six pictures, each as the API's data says (the network, treemap and sunburst hold the
  // sandwiches and ingredients the runs made; the timeline, each run)
  const charts = (await drawn.json()) as Charts;
  expect(charts.efficiency.length).toBeGreaterThanOrEqual(1);
  await expectCards(page, expectedCounts(charts));
  // hovering the timeline names what it plots
  const timeline = page.getByTestId("chart-efficiency").getByTestId("chart-body");
  await timeline.scrollIntoViewIfNeeded();
  const box = (await timeline.boundingBox())!;
  await timeline.hover({ position: { x: box.width * 0.5, y: box.height * 0.5 } });
  await expect(page.getByTestId("chart-efficiency").locator(".chart-tooltip")).toBeVisible();
  await expect(page.getByTestId("chart-efficiency").locator(".chart-tooltip")).toContainText("success rate");

  // foraging from the page adds a run and the charts follow (the chart lists the newest 50
  // runs, so the new one is told by its id, not by a longer list)
  type Run = { run_id: string; foraging_attempts: number; sandwiches_made: number };
  const metricsNow = async () => (await page.request.get("/api/v1/sandwich/metrics")).json();
  const earlier = new Set((metrics.foraging_efficiency as Run[]).map((r) => r.run_id));
  const fresh = (m: { foraging_efficiency: Run[] }) => m.foraging_efficiency.find((r) => !earlier.has(r.run_id));
  const redrawn = page.waitForResponse(isCharts, { timeout: 240_000 });
  await page.getByTestId("forage").click();
  // the run is listed once it has logged an attempt; the button is back once it is over
  await expect.poll(async () => fresh(await metricsNow())?.run_id ?? null, { timeout: 180_000 }).not.toBeNull();
  await expect(page.getByTestId("forage")).toHaveText(/Forage/, { timeout: 180_000 });
  const after = await metricsNow();
  const newest = fresh(after)!;
  expect(after.foraging_efficiency[0].run_id, "the newest run comes first").toBe(newest.run_id);
  // the run just made is shown attempt by attempt, as the foraging log has it
  const attempts = page.getByTestId("forage-attempt");
  await expect(attempts).toHaveCount(newest.foraging_attempts);
  const log = (await (await page.request.get(`/api/v1/sandwich/log?run_id=${newest.run_id}`)).json()) as { outcome: string }[];
  expect(log.length).toBe(newest.foraging_attempts);
  await expect(page.getByTestId("forage-run-summary")).toContainText(`${newest.foraging_attempts} attempts`);
  // the pictures were read again: the timeline holds the new run
  const chartsAfter = (await (await redrawn).json()) as Charts;
  expect(chartsAfter.efficiency.map((r) => r.run_id)).toContain(newest.run_id);
  await expectCards(page, expectedCounts(chartsAfter));
  await shot(page, "analysis-page");
  await shot(page, "analysis-page-full", { fullPage: true });
  for (const key of CHARTS) await shot(page.getByTestId(`chart-${key}`), `analysis-chart-${key}`);
});

test("each picture of an empty corpus says why it is empty and what fills it", async ({ page }) => {
  // the shared server's corpus is not empty once any test foraged: the page is handed an empty one
  await page.route("**/api/v1/sandwich/charts", (route) =>
    route.fulfill({
      json: {
        network: { nodes: [], edges: [], relation_types: [], total_sandwiches: 0 },
        ingredients: { name: "ingredients", value: 0, children: [] },
        types: { name: "structural types", value: 0, children: [] },
        type_parents: false,
        validity: { bin_edges: Array.from({ length: 20 }, (_, i) => i / 20), bin_width: 0.05, period: "day", periods: [], counts: [], accept: 0.7, review: 0.5, scores: 0 },
        heatmap: { domains: [], types: ["Bound"], cells: [] },
        efficiency: [],
      },
    }),
  );
  await page.goto("/analysis");
  await expectCards(page, Object.fromEntries(CHARTS.map((k) => [k, 0])));
  await expect(page.getByTestId("chart-network").getByTestId("chart-empty")).toContainText("No sandwiches yet");
  await expect(page.getByTestId("chart-efficiency").getByTestId("chart-empty")).toContainText("No foraging runs yet");
  await shot(page, "analysis-empty", { fullPage: true });
});
