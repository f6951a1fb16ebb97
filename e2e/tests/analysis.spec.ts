import { expect, shot, test } from "./helpers";

// The SANDWICH corpus dashboard: metrics table and recharts charts, fed by a forage run.
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
  // recharts draws no rectangle for a zero-height bar (a run that made nothing)
  const bars = (runs: { foraging_attempts: number; sandwiches_made: number }[]) =>
    runs.reduce((n, r) => n + (r.foraging_attempts > 0 ? 1 : 0) + (r.sandwiches_made > 0 ? 1 : 0), 0);
  const efficiency = page.getByTestId("chart-efficiency").locator(".recharts-bar-rectangle");
  await expect(efficiency).toHaveCount(bars(metrics.foraging_efficiency));
  await expect(page.getByTestId("chart-validity").locator(".recharts-line")).toHaveCount(2);

  // foraging from the page adds a run and the charts follow (the chart lists the newest 50
  // runs, so the new one is told by its id, not by a longer list)
  type Run = { run_id: string; foraging_attempts: number; sandwiches_made: number };
  const metricsNow = async () => (await page.request.get("/api/v1/sandwich/metrics")).json();
  const earlier = new Set((metrics.foraging_efficiency as Run[]).map((r) => r.run_id));
  const fresh = (m: { foraging_efficiency: Run[] }) => m.foraging_efficiency.find((r) => !earlier.has(r.run_id));
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
  await expect(efficiency).toHaveCount(bars(after.foraging_efficiency));
  await shot(page, "analysis-page");
});
