// The workbench, going deeper: a sub-wander spawned from a locus, its live progress, its map
// with a breadcrumb, nested.
// In real Chromium against `wander serve`, with a screenshot in e2e/screenshots/.
import { createViaApi, expect, openMap, runSteps, shot, test } from "./helpers";
import { node, notice, openMenuOn, openSubwander } from "./mapActions";

test.describe.configure({ mode: "serial" });

test("go deeper: a sub-wander node with live progress, its map with a breadcrumb, nested", async ({ page }) => {
  const s = await createViaApi(page, { seed_concept: "salt trade", max_steps: 40, random_seed: 16, human_checkpoint_frequency: 0 });
  await runSteps(page, s.id, 3);
  await openMap(page, s.id);
  const target = page.locator(".react-flow__node-locus").nth(2);
  const concept = (await target.locator(".locus").getAttribute("data-concept"))!;
  await openMenuOn(page, target);
  await page.getByRole("menuitem", { name: /Go deeper/ }).click();
  await page.getByLabel("Sub-wander steps").fill("4");
  await page.getByRole("button", { name: "Spawn sub-wander" }).click();
  await expect(notice(page)).toContainText("Sub-wander");
  const sub = page.locator(".react-flow__node-subwander");
  await expect(sub).toHaveCount(1);
  await expect(sub).toContainText(concept);
  await expect(sub.getByTestId("subwander-progress")).toHaveText(/^4\/4 · completed$/, { timeout: 90_000 });
  await shot(page, "w06-subwander-node");
  // Following tracks the current locus only, so the new node may lie outside the view (or
  // under an overlay): show the whole map first, as a person would, then open it.
  await openSubwander(page, sub, s.id);
  const childId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);
  await expect(page.getByTestId("breadcrumb")).toContainText("salt trade");
  await expect.poll(() => page.locator(".react-flow__node-locus").count()).toBeGreaterThanOrEqual(3);
  // nested: go deeper from the child's seed
  const childSeed = page.locator(".react-flow__node-locus:has(.locus.is-seed)");
  await openMenuOn(page, childSeed);
  await page.getByRole("menuitem", { name: /Go deeper/ }).click();
  await page.getByLabel("Sub-wander steps").fill("2");
  await page.getByRole("button", { name: "Spawn sub-wander" }).click();
  await expect(page.locator(".react-flow__node-subwander").getByTestId("subwander-progress")).toHaveText(/^2\/2 · completed$/, { timeout: 90_000 });
  await openSubwander(page, page.locator(".react-flow__node-subwander"), childId);
  const crumbs = page.getByTestId("breadcrumb").getByRole("link");
  await expect(crumbs).toHaveCount(2);
  await page.waitForTimeout(800); // the view's move to the walk, for the picture
  await shot(page, "w07-nested-breadcrumb");
  await crumbs.first().click();
  await expect(page).toHaveURL(new RegExp(`/sessions/${s.id}$`));
  await expect(page.locator(".react-flow__node-subwander")).toHaveCount(1);
});
