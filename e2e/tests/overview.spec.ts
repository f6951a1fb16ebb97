// A large map at far zoom is readable: its regions (loci of one domain lying together) are
// outlined and labelled with their domain and count; closer in, the loci themselves.
import { shot } from "./helpers";
import { expect, test } from "./largeWander";

test("a 360-step map at whole-map zoom shows labelled regions, and loci closer in", async ({ page, largeWander }) => {
  test.slow(); // (the shared large wander's walk, where largemap.spec.ts has not walked it: slow beside pytest on two cores)
  const { id } = await largeWander.at(360);
  await page.goto(`/sessions/${id}`);
  await expect(page.getByTestId("conn-state")).toHaveAttribute("data-state", "live");
  await page.getByRole("button", { name: "Whole map" }).click();
  const regions = page.getByTestId("overview-region");
  await expect(regions.first()).toBeVisible({ timeout: 15_000 });
  const labels = await regions.allTextContents();
  expect(labels.length).toBeGreaterThanOrEqual(2);
  for (const l of labels) expect(l).toMatch(/^\S.* \d+$/); // "domain count"
  // the counts are of loci of the map: together at most all of them
  const total = labels.reduce((n, l) => n + Number(l.split(" ").at(-1)), 0);
  const loci = await page.evaluate(() => window.__wanderGraphSize?.() ?? 0);
  expect(total).toBeLessThanOrEqual(loci);
  await expect(page.getByTestId("overview-key").first()).toBeVisible(); // the seed, hubs, crystals named
  await shot(page, "d31-overview-far");
  // closer in, the overview gives way to the loci and their labels
  for (let i = 0; i < 12 && (await regions.count()) > 0; i++) {
    await page.getByRole("button", { name: "Zoom in" }).click();
    await page.waitForTimeout(300);
  }
  await expect(regions).toHaveCount(0, { timeout: 10_000 });
  await expect(page.locator(".react-flow__node-locus").first()).toBeVisible();
  await shot(page, "d31-overview-near");
});

declare global {
  interface Window {
    /** The live feed's test hook: how many loci the page's graph holds. */
    __wanderGraphSize?: () => number;
  }
}
