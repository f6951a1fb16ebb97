// The workbench, steering the walk: go here next (a candidate's click, a locus's context menu), a
// hint planted by a drag, fences drawn from the context menu, and an action the API refuses.
// In real Chromium against `wander serve`, with a screenshot in e2e/screenshots/.
import { API, createViaApi, expect, openMap, runSteps, shot, test } from "./helpers";
import { centreOf, currentConcept, drag, type Locus, node, notice, type Step, stopFollowing } from "./mapActions";

test.describe.configure({ mode: "serial" });

test("click a dashed candidate: go here next, and the next step goes there", async ({ page }) => {
  const s = await createViaApi(page, { seed_concept: "harbour pilot", max_steps: 40, random_seed: 11, human_checkpoint_frequency: 0 });
  await runSteps(page, s.id, 3);
  await openMap(page, s.id);
  const ghost = page.locator(".react-flow__node-ghost").first();
  await expect(ghost).toBeVisible();
  const concept = (await ghost.locator(".ghost-label").textContent())!.trim();
  await ghost.click();
  await expect(notice(page)).toHaveAttribute("data-kind", "ok");
  await expect(notice(page)).toContainText(concept);
  await page.getByRole("button", { name: "Step", exact: true }).click();
  await expect.poll(() => currentConcept(page)).toBe(concept);
  await page.waitForTimeout(500);
  await shot(page, "w01-go-here-next");
});

test("drag a candidate onto the current locus: a hint, marked until visited", async ({ page }) => {
  const s = await createViaApi(page, { seed_concept: "tide tables", max_steps: 40, random_seed: 12, human_checkpoint_frequency: 0 });
  await runSteps(page, s.id, 3);
  await openMap(page, s.id);
  await stopFollowing(page);
  const current = page.locator(".react-flow__node-locus:has(.locus.is-current)");
  // Once the map has rested it swaps last step's candidates for the next step's: a drag that
  // began on a candidate swapped away drops nothing, so the drag is made again on a fresh one.
  let concept = "";
  await expect(async () => {
    const ghost = page.locator(".react-flow__node-ghost").first();
    concept = (await ghost.locator(".ghost-label").textContent())!.trim();
    await drag(page, ghost, await centreOf(current));
    await expect(notice(page)).toContainText(`“${concept}” planted as a hint`, { timeout: 8_000 });
  }).toPass({ timeout: 60_000 });
  const hinted = page.locator(`.locus.is-hint[data-concept="${concept}"]`);
  await expect(hinted).toHaveCount(1);
  await expect(hinted.getByTestId("hint-marker")).toBeVisible();
  const loci = (await (await page.request.get(`${API}/sessions/${s.id}/loci`)).json()) as { concept: string; source_type: string }[];
  expect(loci.filter((l) => l.concept === concept).map((l) => l.source_type)).toEqual(["SERENDIPITOUS"]);
  await page.waitForTimeout(400);
  await shot(page, "w02-drag-to-hint");
});

test("drag an existing locus onto the current locus: planted as a hint", async ({ page }) => {
  const s = await createViaApi(page, { seed_concept: "tide tables", max_steps: 40, random_seed: 23, human_checkpoint_frequency: 0 });
  await runSteps(page, s.id, 3);
  const loci = ((await (await page.request.get(`${API}/sessions/${s.id}/loci`)).json()) as unknown[]).length;
  await openMap(page, s.id);
  // every locus drawn first (as in workbench-view's drag): the map lays out its backlog in
  // stages and "Whole map" fits each, so the current locus read between two stages moved on
  // before the drop (a loaded run: the seed dropped beside it was pinned, not planted)
  await expect(page.locator(".react-flow__node-locus")).toHaveCount(loci);
  await stopFollowing(page);
  const seed = page.locator(".react-flow__node-locus:has(.locus.is-seed)");
  const concept = (await seed.locator(".locus").getAttribute("data-concept"))!;
  const current = page.locator(".react-flow__node-locus:has(.locus.is-current)");
  await expect(current.locator(".locus")).not.toHaveAttribute("data-concept", concept);
  await drag(page, seed, await centreOf(current));
  await expect(notice(page)).toHaveAttribute("data-kind", "ok");
  await expect(notice(page)).toContainText(`“${concept}” planted as a hint`);
  const hinted = page.locator(`.locus.is-hint[data-concept="${concept}"]`);
  await expect(hinted).toHaveCount(1);
  await expect(hinted.getByTestId("hint-marker")).toBeVisible();
  // one locus per concept: the hint is the seed itself (it goes back to its place), not a second node
  const after = (await (await page.request.get(`${API}/sessions/${s.id}/loci`)).json()) as Locus[];
  expect(after.filter((l) => l.concept === concept).map((l) => l.source_type)).toEqual(["SEED"]);
  await expect(page.locator(`.locus[data-concept="${concept}"]`)).toHaveCount(1);
  await expect(seed.locator(".locus")).toHaveClass(/is-hint/);
  await stopFollowing(page);
  await shot(page, "w16-drag-locus-to-hint");
});

test("right click a locus, go here next: the next step arrives there", async ({ page }) => {
  const s = await createViaApi(page, { seed_concept: "lighthouse keeper", max_steps: 40, random_seed: 24, human_checkpoint_frequency: 0 });
  await runSteps(page, s.id, 4);
  await openMap(page, s.id);
  const target = page.locator(".react-flow__node-locus").nth(1);
  const concept = (await target.locator(".locus").getAttribute("data-concept"))!;
  expect(await currentConcept(page)).not.toBe(concept);
  await target.click({ button: "right" });
  await expect(page.getByTestId("locus-menu")).toBeVisible();
  await page.getByRole("menuitem", { name: "Go here next" }).click();
  await expect(notice(page)).toHaveAttribute("data-kind", "ok");
  await expect(notice(page)).toContainText(`The next step goes to “${concept}”`);
  await page.getByRole("button", { name: "Step", exact: true }).click();
  await expect.poll(() => currentConcept(page)).toBe(concept);
  const trace = (await (await page.request.get(`${API}/sessions/${s.id}/trace`)).json()) as Step[];
  expect(trace.at(-1)).toMatchObject({ step_number: 5, to_concept: concept });
  await page.waitForTimeout(500);
  await shot(page, "w17-context-go-here-next");
});

test("context menu: fence out and fence in draw halos, the fences panel removes them", async ({ page }) => {
  const s = await createViaApi(page, { seed_concept: "smuggling routes", max_steps: 40, random_seed: 14, human_checkpoint_frequency: 0 });
  await runSteps(page, s.id, 4);
  await openMap(page, s.id);
  const loci = page.locator(".react-flow__node-locus");
  const a = loci.nth(1);
  const b = loci.nth(2);
  const aConcept = (await a.locator(".locus").getAttribute("data-concept"))!;
  const bConcept = (await b.locator(".locus").getAttribute("data-concept"))!;
  await a.click({ button: "right" });
  await expect(page.getByTestId("locus-menu")).toBeVisible();
  await page.getByRole("menuitem", { name: /Fence out/ }).click();
  await expect(notice(page)).toContainText(`excludes the region of “${aConcept}”`);
  await expect(a.getByTestId("fence-halo-exclude")).toBeVisible();
  // the locus panel's Actions button opens the same menu
  await b.click();
  await page.getByTestId("locus-panel").getByRole("button", { name: "Actions" }).click();
  await page.getByRole("menuitem", { name: /Fence in/ }).click();
  await expect(b.getByTestId("fence-halo-include")).toBeVisible();
  const fences = await (await page.request.get(`${API}/sessions/${s.id}/fences`)).json();
  expect(fences).toEqual([{ concept: aConcept, action: "exclude" }, { concept: bConcept, action: "include" }]);
  await page.getByRole("button", { name: /^Fences/ }).click();
  await expect(page.getByTestId("fence-row")).toHaveCount(2);
  await shot(page, "w04-fences");
  await page.getByRole("button", { name: `Remove fence ${aConcept}` }).click();
  await expect(page.getByTestId("fence-row")).toHaveCount(1);
  await expect(a.getByTestId("fence-halo-exclude")).toHaveCount(0);
  expect(await (await page.request.get(`${API}/sessions/${s.id}/fences`)).json()).toEqual([{ concept: bConcept, action: "include" }]);
});

test("an action the API refuses shows its error inline", async ({ page }) => {
  const s = await createViaApi(page, { seed_concept: "quarantine flag", max_steps: 2, random_seed: 15, human_checkpoint_frequency: 0 });
  await runSteps(page, s.id, 2);
  await openMap(page, s.id);
  await expect(page.getByTestId("session-status")).toHaveText("completed");
  // A click that lands while the map is still settling (the replay's last batch, the follow
  // jump) can miss its node, as a person's can; they click again, and so does this test.
  await expect(async () => {
    await page.locator(".react-flow__node-ghost").first().click();
    await expect(notice(page)).toHaveAttribute("data-kind", "error", { timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await expect(notice(page)).toContainText("Go here next failed");
  await expect(notice(page)).toContainText("completed");
  await shot(page, "w05-inline-error");
});
