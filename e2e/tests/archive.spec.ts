// Reviewing an archived wander (issue 11): open it, scrub to step 5, play to the end,
// switch to the semantic (UMAP) layout, find it by meaning, download each export.
import { readFileSync } from "node:fs";
import { API, createViaApi, expect, shot, test } from "./helpers";

test.describe.configure({ mode: "serial" });

const STEPS = 16;
let sid = "";
let lociAt: number[] = []; // distinct loci on the map after each step, from the trace

test("a completed wander is archived", async ({ page }) => {
  test.setTimeout(300_000);
  const s = await createViaApi(page, { seed_concept: "violin", attractor: "orchestral music", max_steps: STEPS, random_seed: 3 });
  sid = s.id;
  const run = await page.request.post(`${API}/sessions/${sid}/wander`, { data: { n_steps: STEPS } });
  expect(run.status()).toBe(202);
  // the archivist writes the archive in the background once the wander completes
  await expect
    .poll(async () => (await page.request.get(`${API}/sessions/${sid}/archive`)).status(), { timeout: 240_000, intervals: [500, 1000] })
    .toBe(200);
  const meta = await (await page.request.get(`${API}/sessions/${sid}/archive`)).json();
  expect(meta.step_count).toBe(STEPS);
  const trace: { step_number: number; to_locus_id: string; from_locus_id: string }[] = await (await page.request.get(`${API}/sessions/${sid}/trace`)).json();
  const seen = new Set<string>([trace[0].from_locus_id]);
  lociAt = [1];
  for (const t of trace) {
    seen.add(t.to_locus_id);
    lociAt.push(seen.size);
  }
  expect(lociAt[5]).toBe(6); // this walk reaches a new concept on each of its first five steps
});

test("open the archive, scrub to step 5 and see exactly 6 loci, then play to the end", async ({ page }) => {
  test.skip(!sid, "needs the archived wander");
  await page.goto(`/sessions/${sid}/archive`);
  await expect(page.getByTestId("archive-page")).toBeVisible();
  await expect(page.getByTestId("timeline-step")).toHaveText(`step ${STEPS} / ${STEPS}`);
  await expect(page.locator(".react-flow__node-locus")).toHaveCount(lociAt[STEPS]);

  await page.getByTestId("timeline-scrubber").fill("5");
  await expect(page.getByTestId("timeline-step")).toHaveText(`step 5 / ${STEPS}`);
  await expect(page.locator(".react-flow__node-locus")).toHaveCount(6);
  await expect(page.locator(".react-flow__edge-path.path-edge")).toHaveCount(5);
  await expect(page.getByTestId("trace-panel").locator("li")).toHaveCount(5);
  expect(new URL(page.url()).searchParams.get("step")).toBe("5");
  await shot(page, "archive-01-step-5");

  // a link holds the moment
  await page.reload();
  await expect(page.getByTestId("timeline-step")).toHaveText(`step 5 / ${STEPS}`);
  await expect(page.locator(".react-flow__node-locus")).toHaveCount(6);

  await page.getByRole("button", { name: "Step back" }).click();
  await expect(page.getByTestId("timeline-step")).toHaveText(`step 4 / ${STEPS}`);
  await expect(page.locator(".react-flow__node-locus")).toHaveCount(lociAt[4]);
  await page.getByRole("button", { name: "Step forward" }).click();
  await expect(page.locator(".react-flow__node-locus")).toHaveCount(6);

  await page.getByLabel("Speed").selectOption("20");
  await page.getByTestId("timeline-play").click();
  await expect(page.getByTestId("timeline-step")).toHaveText(`step ${STEPS} / ${STEPS}`, { timeout: 30_000 });
  await expect(page.getByTestId("timeline-play")).toHaveText(/Play/);
  await expect(page.locator(".react-flow__node-locus")).toHaveCount(lociAt[STEPS]);
  await expect(page.locator(".react-flow__edge-path.path-edge")).toHaveCount(STEPS);
  await shot(page, "archive-02-played");
});

test("switch to the semantic (UMAP) layout: nodes move to the stored projection", async ({ page }) => {
  test.skip(!sid, "needs the archived wander");
  await page.goto(`/sessions/${sid}/archive`);
  await expect(page.locator(".react-flow__node-locus")).toHaveCount(lociAt[STEPS]);
  const where = () =>
    page.locator(".react-flow__node-locus").evaluateAll((els) => els.map((e) => `${e.getAttribute("data-id")}:${(e as HTMLElement).style.transform}`).sort());
  const before = await where();
  const projection = page.waitForResponse((r) => r.url().includes(`/sessions/${sid}/projection`));
  await page.getByRole("button", { name: "Semantic (UMAP)" }).click();
  const body = await (await projection).json();
  expect(body.method).toBe("umap");
  expect(body.points).toHaveLength(lociAt[STEPS]);
  await expect(page.getByTestId("mindmap")).toHaveAttribute("data-layout", "semantic");
  await expect.poll(where, { timeout: 10_000 }).not.toEqual(before);
  await page.waitForTimeout(800); // the transition ends
  await shot(page, "archive-03-semantic");
  await page.getByRole("button", { name: "Flow" }).click();
  await expect(page.getByTestId("mindmap")).toHaveAttribute("data-layout", "flow");
  await expect.poll(where, { timeout: 10_000 }).toEqual(before);
});

test("find it on the sessions page by meaning", async ({ page }) => {
  test.skip(!sid, "needs the archived wander");
  await page.goto("/");
  const card = page.locator(`[data-testid="archive-card"][data-session-id="${sid}"]`);
  await expect(card).toBeVisible();
  await expect(card.locator("img")).toHaveJSProperty("complete", true);
  expect(await card.locator("img").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
  await page.getByLabel("Search archived wanders by meaning").fill("wanders about string instruments and symphonies");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.locator('[data-testid="archive-card"]').first()).toContainText("violin");
  await expect(card).toContainText("match");
  await shot(page, "archive-04-search");
  await card.locator("a").click();
  await page.waitForURL(new RegExp(`/sessions/${sid}/archive`));
  await expect(page.getByTestId("timeline")).toBeVisible();
});

test("download each export", async ({ page }) => {
  test.skip(!sid, "needs the archived wander");
  await page.goto(`/sessions/${sid}/archive`);
  for (const [id, name, check] of [
    ["export-json", `wander-${sid}.json`, (b: Buffer) => JSON.parse(b.toString()).format === "wander-archive" && JSON.parse(b.toString()).traces.length === STEPS],
    ["export-md", `wander-${sid}.md`, (b: Buffer) => b.toString().startsWith("# violin") && b.toString().includes("## Path")],
    ["export-png", `wander-${sid}-umap.png`, (b: Buffer) => b.subarray(0, 4).toString("latin1") === "\x89PNG"],
  ] as const) {
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId(id).click()]);
    expect(download.suggestedFilename()).toBe(name);
    expect(check(readFileSync((await download.path())!))).toBe(true);
  }
});
