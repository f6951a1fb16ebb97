// What the map shows of where the walk may go: the dashed candidates are the next
// step's from the current locus (the engine's read-only preview), and the attractor is marked
// among the loci nearest it. Against `wander serve`, in real Chromium, with screenshots.
import { API, createViaApi, expect, openMap, runSteps, shot, test } from "./helpers";

test.describe.configure({ mode: "serial" });

test("the dashed candidates are the next step's, from the current locus, and the step takes the one clicked", async ({ page }) => {
  const s = await createViaApi(page, { seed_concept: "harbour pilot", attractor: "epidemiology", max_steps: 40, random_seed: 21, human_checkpoint_frequency: 0 });
  await runSteps(page, s.id, 4);
  const preview = (await (await page.request.get(`${API}/sessions/${s.id}/next-candidates`)).json()) as {
    step_number: number;
    from_locus_id: string;
    candidates: { concept: string }[];
  };
  expect(preview.step_number).toBe(5);
  const concepts = new Set(preview.candidates.map((c) => c.concept));
  await openMap(page, s.id);
  const ghosts = page.locator(".react-flow__node-ghost .ghost-label");
  await expect(ghosts.first()).toBeVisible({ timeout: 30_000 });
  for (const label of await ghosts.allTextContents()) expect(concepts.has(label.trim()), label).toBe(true);
  // they fan out from the current locus, the one the preview leaves
  const current = await page.locator(".react-flow__node-locus:has(.locus.is-current)").getAttribute("data-id");
  expect(current).toBe(preview.from_locus_id);
  await page.getByRole("button", { name: /legend/ }).click();
  await expect(page.getByTestId("legend")).toContainText("the next step's candidates (click: go here next)");
  await page.getByRole("button", { name: /legend/ }).click();
  await page.waitForTimeout(400);
  await shot(page, "g01-next-step-candidates");
  // a click on one that no overlay covers (the fan may reach under the top bar): the next step goes there
  let concept = "";
  await expect(async () => {
    concept = await page.evaluate(() => {
      for (const g of document.querySelectorAll<HTMLElement>(".react-flow__node-ghost")) {
        const r = g.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        if (hit?.closest(".react-flow__node-ghost") === g) return g.querySelector(".ghost-label")?.textContent?.trim() ?? "";
      }
      return "";
    });
    expect(concept, "a candidate no overlay covers").not.toBe("");
    await page.locator(".react-flow__node-ghost").filter({ hasText: concept }).first().click({ timeout: 3_000 });
    await expect(page.getByTestId("command-result")).toContainText(concept, { timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await page.getByRole("button", { name: "Step", exact: true }).click();
  await expect.poll(async () => page.locator(".locus.is-current").getAttribute("data-concept"), { timeout: 30_000 }).toBe(concept);
});

test("the attractor is marked among the loci nearest it, named", async ({ page }) => {
  const s = await createViaApi(page, { seed_concept: "tide tables", attractor: "epidemiology", max_steps: 40, random_seed: 22, human_checkpoint_frequency: 0 });
  await runSteps(page, s.id, 12);
  const near = (await (await page.request.get(`${API}/sessions/${s.id}/attractor`)).json()) as { attractor: string; nearest: { locus_id: string }[] };
  expect(near.nearest.length).toBeGreaterThan(0);
  await openMap(page, s.id);
  const mark = page.getByTestId("attractor-mark");
  await expect(mark).toBeVisible({ timeout: 30_000 });
  await expect(mark).toContainText(`attractor · ${near.attractor}`);
  await expect(mark).toHaveAttribute("data-nearest", near.nearest[0].locus_id);
  // it takes no clicks: a click through it reaches the map
  expect(await mark.evaluate((el) => getComputedStyle(el).pointerEvents)).toBe("none");
  await page.getByRole("button", { name: "Whole map" }).click();
  await page.waitForTimeout(800);
  await shot(page, "g02-attractor-mark");
});
