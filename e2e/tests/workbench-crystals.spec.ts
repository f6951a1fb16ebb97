// The workbench, crystals: a diamond on the map, its panel, and a person's verdict (accept, reject).
// In real Chromium against `wander serve`, with a screenshot in e2e/screenshots/.
import { API, createViaApi, expect, openMap, runSteps, shot, test } from "./helpers";
import { type Crystal, crystallizeUntilReview, node, notice, reach } from "./mapActions";

test.describe.configure({ mode: "serial" });

test("crystals on the map: diamond with its attractor, the crystal panel, a person's verdict", async ({ page }) => {
  // Up to 40 crystallizations, each a rumination: on a loaded machine that outlasts the default 2 minutes.
  test.slow();
  // Every crystal waits for a person's verdict in this wander (require_crystal_approval), so one the
  // gate accepts is held for review as a marginal one is: the test needs the gate not to reject.
  const s = await createViaApi(page, {
    seed_concept: "counterfeit coins",
    max_steps: 80,
    random_seed: 17,
    human_checkpoint_frequency: 0,
    require_crystal_approval: true,
  });
  await runSteps(page, s.id, 6);
  await openMap(page, s.id);
  // "Crystallize here now" from the current locus's context menu: the result is reported on the map
  await page.locator(".react-flow__node-locus:has(.locus.is-current)").click({ button: "right" });
  await page.getByRole("menuitem", { name: "Crystallize here now" }).click();
  await expect(notice(page)).toContainText(/Crystal|No crystal/);
  // Crystallize until a crystal is held for review (the gate accepted it, or found it marginal).
  const review = await crystallizeUntilReview(page, s.id);
  expect(review, "the gate kept a crystal for review").not.toBeNull();
  const diamond = node(page, `crystal:${review!.id}`);
  await expect(diamond).toBeVisible();
  await expect(diamond.locator("img.crystal-thumb")).toHaveJSProperty("complete", true);
  expect(await diamond.locator("img.crystal-thumb").evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  const panel = page.getByTestId("crystal-panel");
  // The diamond sits by its breads, which may be out of the followed view or under the legend.
  await reach(page, diamond);
  await expect(async () => {
    await diamond.click({ timeout: 5_000 });
    await expect(panel).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await expect(panel.getByTestId("crystal-sandwich").locator("li")).toHaveCount(3);
  await expect(panel.getByTestId("crystal-validity")).toContainText(review!.validity.V.toFixed(3));
  for (const part of ["Bread compatibility", "Containment", "Non-triviality", "Novelty"]) await expect(panel).toContainText(part);
  // its structural type only where the classifier was confident (the crystal keeps which)
  await expect(panel.getByTestId("crystal-type")).toHaveText(review!.validity.type_confident ? `type: ${review!.structural_type}` : "no clear type");
  await expect(panel.getByTestId("crystal-rumination").locator("li").first()).toBeVisible();
  await expect(panel.getByTestId("crystal-review")).toBeVisible();
  await shot(page, "w08-crystal-panel");
  await panel.getByRole("button", { name: "Accept" }).click();
  await expect(notice(page)).toContainText("Crystal accepted");
  await expect(panel.getByTestId("crystal-review")).toHaveCount(0);
  await expect(panel.getByTestId("crystal-status")).toHaveText("accepted by a person"); // (one state, not three)
  const stored = ((await (await page.request.get(`${API}/sessions/${s.id}/crystals`)).json()) as Crystal[]).find((c) => c.id === review!.id)!;
  expect(stored.human_approved).toBe(true);
  await page.getByRole("button", { name: "Whole map" }).click();
  await page.waitForTimeout(500);
  await shot(page, "w09-crystals-on-map");
});

test("reject a crystal kept for review: the verdict is recorded through the API", async ({ page }) => {
  // Up to 40 crystallizations, each a rumination: on a loaded machine that outlasts the default 2 minutes.
  test.slow();
  // every crystal waits for a person's verdict here, so any the gate does not reject is kept for review
  const s = await createViaApi(page, {
    seed_concept: "forged letters",
    max_steps: 80,
    random_seed: 3,
    human_checkpoint_frequency: 0,
    require_crystal_approval: true,
  });
  await runSteps(page, s.id, 6);
  await openMap(page, s.id);
  const review = await crystallizeUntilReview(page, s.id);
  expect(review, "the gate kept a crystal for review").not.toBeNull();
  const diamond = node(page, `crystal:${review!.id}`);
  await expect(diamond).toBeVisible();
  const panel = page.getByTestId("crystal-panel");
  await reach(page, diamond);
  await expect(async () => {
    await diamond.click({ timeout: 5_000 });
    await expect(panel.getByTestId("crystal-review")).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await panel.getByRole("button", { name: "Reject" }).click();
  await expect(notice(page)).toContainText("Crystal rejected");
  await expect(panel.getByTestId("crystal-review")).toHaveCount(0);
  const stored = ((await (await page.request.get(`${API}/sessions/${s.id}/crystals`)).json()) as Crystal[]).find((c) => c.id === review!.id);
  expect(stored, "the rejected crystal is still listed").toBeDefined();
  expect(stored!.status).toBe("invalidated");
  expect(stored!.human_approved).toBe(false);
  // a second verdict is refused: the first one was recorded
  const again = await page.request.post(`${API}/crystals/${review!.id}/review`, { data: { verdict: "accept" } });
  expect(again.status()).toBe(409);
  await shot(page, "w15-crystal-rejected");
});
