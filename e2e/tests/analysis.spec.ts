import { expect, shot, test } from "./helpers";

// The SANDWICH corpus dashboard: metrics table and recharts charts, fed by a forage run.
test("the analysis page shows the 8.1 metrics and charts after foraging", async ({ page }) => {
  const res = await page.request.post("/api/v1/sandwich/forage", { data: { patience: 3, max_attempts: 12, seed: 11 } });
  expect(res.status(), await res.text()).toBe(200);
  const run = await res.json();
  expect(run.attempts).toBeGreaterThanOrEqual(3);

  await page.goto("/analysis");
  await expect(page.getByRole("heading", { name: "Sandwich corpus" })).toBeVisible();
  const rows = page.getByTestId("metrics").locator("tbody tr");
  await expect(rows).toHaveCount(6);
  for (const name of ["sandwich_rate", "mean_validity", "ingredient_diversity", "structural_coverage",
    "cross_domain_rate", "novelty_stability"]) {
    await expect(page.locator(`tr[data-metric="${name}"]`)).toBeVisible();
  }
  const metrics = await (await page.request.get("/api/v1/sandwich/metrics")).json();
  await expect(page.getByTestId("counts")).toContainText(`${metrics.counts.attempts} attempts`);
  // recharts draws SVG: one bar per structural type, one per foraging run and series
  const typeBars = page.getByTestId("chart-types").locator(".recharts-bar-rectangle");
  await expect(typeBars).toHaveCount(metrics.type_distribution.length);
  await expect(page.getByTestId("chart-efficiency").locator(".recharts-bar-rectangle")).toHaveCount(
    2 * metrics.foraging_efficiency.length,
  );
  await expect(page.getByTestId("chart-validity").locator(".recharts-line")).toHaveCount(2);

  // foraging from the page adds a run and the charts follow
  await page.getByTestId("forage").click();
  await expect(page.getByTestId("chart-efficiency").locator(".recharts-bar-rectangle")).toHaveCount(
    2 * (metrics.foraging_efficiency.length + 1),
    { timeout: 90_000 },
  );
  await shot(page, "analysis-page");
});
