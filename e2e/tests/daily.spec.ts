// VISLZR as a daily tool: one step from a paused wander, Stop that asks first, a stopped wander
// walked on, rename and delete from the page, the semantic view fitted to the map.
import type { Page } from "@playwright/test";
import { API, createViaApi, expect, openMap, sessionViaApi, shot, test } from "./helpers";

async function stepViaApi(page: Page, id: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const r = await page.request.post(`${API}/sessions/${id}/step`);
    expect(r.status(), await r.text()).toBe(200);
  }
}

const steps = (page: Page) => page.getByTestId("status-steps").locator("b");

test("one step from a paused wander: it takes the step and stays paused", async ({ page }) => {
  const s = await createViaApi(page, { seed_concept: "tide pool", max_steps: 40, random_seed: 3, human_checkpoint_frequency: 0 });
  await stepViaApi(page, s.id, 3);
  expect((await page.request.post(`${API}/sessions/${s.id}/pause`)).status()).toBe(200);
  await openMap(page, s.id);
  await expect(page.getByTestId("session-status")).toHaveText("paused");
  await expect(steps(page)).toHaveText("3");
  const step = page.getByRole("button", { name: "Step", exact: true });
  await expect(step).toBeEnabled();
  await step.click();
  await expect(steps(page)).toHaveText("4");
  await expect(page.getByTestId("session-status")).toHaveText("paused");
  await expect(page.locator(".react-flow__node-locus")).toHaveCount(5);
  const after = await sessionViaApi(page, s.id);
  expect(after.status).toBe("paused");
  expect(after.step_count).toBe(4);
  await expect(page.getByTestId("control-hint")).toContainText("Paused");
  await shot(page, "d31-step-from-paused");
});

test("Stop asks first; a stopped wander walks on with Extend", async ({ page }) => {
  const s = await createViaApi(page, { seed_concept: "lighthouse", max_steps: 40, random_seed: 4, human_checkpoint_frequency: 0 });
  await stepViaApi(page, s.id, 2);
  await openMap(page, s.id);
  const header = page.locator(".topbar");
  const before = await header.boundingBox();
  await page.getByRole("button", { name: "Stop", exact: true }).click();
  const confirm = page.getByTestId("stop-confirm");
  await expect(confirm).toBeVisible();
  await expect(confirm).toContainText("Stop this wander?");
  await shot(page, "d31-stop-confirm");
  await page.getByRole("button", { name: "Keep going" }).click();
  await expect(confirm).toHaveCount(0);
  expect((await sessionViaApi(page, s.id)).status).toBe("active");

  await page.getByRole("button", { name: "Stop", exact: true }).click();
  await page.getByRole("button", { name: "Stop it" }).click();
  await expect(page.getByTestId("session-status")).toHaveText("completed");
  await expect(page.getByTestId("control-hint")).toContainText("Stopped after 2 steps");
  // the header kept its size: the map did not move
  expect((await header.boundingBox())!.height).toBe(before!.height);
  await shot(page, "d31-stopped");

  await page.getByLabel("steps to extend by").fill("3");
  await page.getByRole("button", { name: "Extend by" }).click();
  await expect.poll(async () => (await sessionViaApi(page, s.id)).step_count, { timeout: 60_000 }).toBe(5);
  await expect(steps(page)).toHaveText("5");
  await expect.poll(async () => (await sessionViaApi(page, s.id)).running, { timeout: 30_000 }).toBe(false);
  expect((await sessionViaApi(page, s.id)).status).toBe("active");
  await expect(page.getByTestId("session-status")).toHaveText("active");
  await shot(page, "d31-extended-after-stop");
});

test("rename and delete a wander from its page", async ({ page }) => {
  const s = await createViaApi(page, { seed_concept: "harbour", max_steps: 10, random_seed: 5, human_checkpoint_frequency: 0 });
  await stepViaApi(page, s.id, 1);
  await openMap(page, s.id);
  await page.getByRole("button", { name: "Wander actions" }).click();
  await page.getByRole("button", { name: "Rename…" }).click();
  await page.getByLabel("New name").fill("harbour, renamed");
  await shot(page, "d31-rename");
  await page.getByRole("button", { name: "Rename", exact: true }).click();
  await expect(page.getByTestId("wander-name")).toHaveText("harbour, renamed");
  await page.reload();
  await expect(page.getByTestId("wander-name")).toHaveText("harbour, renamed");

  await page.getByRole("button", { name: "Wander actions" }).click();
  await page.getByRole("button", { name: "Delete…" }).click();
  await expect(page.getByTestId("wander-menu")).toContainText("cannot be undone");
  await shot(page, "d31-delete-confirm");
  await page.getByRole("button", { name: "Delete for good" }).click();
  await expect(page).toHaveURL(/\/$/);
  expect((await page.request.get(`${API}/sessions/${s.id}`)).status()).toBe(404);
});

test("the semantic view is fitted to the map (live), and Whole map keeps fitting", async ({ page }) => {
  const s = await createViaApi(page, { seed_concept: "information asymmetry", max_steps: 40, random_seed: 7, human_checkpoint_frequency: 0 });
  const r = await page.request.post(`${API}/sessions/${s.id}/wander`, { data: { n_steps: 30 } });
  expect(r.status()).toBe(202);
  await expect.poll(async () => (await sessionViaApi(page, s.id)).running, { timeout: 90_000 }).toBe(false);
  await openMap(page, s.id);
  // a person looks somewhere first (a search centres a locus): following stops, and the
  // semantic picture must still be fitted when it comes
  const map = page.getByTestId("mindmap");
  const box = (await map.boundingBox())!;
  await page.getByLabel("Find a locus").fill("information");
  await page.getByLabel("Find a locus").press("Enter");
  await expect(page.getByRole("button", { name: "Fit & follow" })).toBeVisible();
  await page.getByRole("button", { name: "Semantic (UMAP)" }).click();
  await expect(map).toHaveAttribute("data-layout", "semantic", { timeout: 60_000 });
  await page.waitForTimeout(1500); // the glide to the projection, and the fit
  const boxes = await page.locator(".react-flow__node-locus").evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((b) => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 })));
  expect(boxes.length).toBeGreaterThan(10);
  const xs = boxes.map((b) => b.x);
  const ys = boxes.map((b) => b.y);
  // every locus in the view, and the picture spans a good part of it (not small in a corner)
  for (const b of boxes) {
    expect(b.x).toBeGreaterThanOrEqual(box.x);
    expect(b.x).toBeLessThanOrEqual(box.x + box.width);
    expect(b.y).toBeGreaterThanOrEqual(box.y);
    expect(b.y).toBeLessThanOrEqual(box.y + box.height);
  }
  const spanX = (Math.max(...xs) - Math.min(...xs)) / box.width;
  const spanY = (Math.max(...ys) - Math.min(...ys)) / box.height;
  expect(Math.max(spanX, spanY)).toBeGreaterThan(0.45);
  await shot(page, "d31-semantic-fitted");
  const whole = page.getByRole("button", { name: "Whole map" });
  await whole.click();
  await expect(whole).toHaveAttribute("aria-pressed", "true");
});
