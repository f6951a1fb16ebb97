// The workbench, analysing: compare two loci (shift-click), the trace, the search, the minimap.
// In real Chromium against `wander serve`, with a screenshot in e2e/screenshots/.
import { API, createViaApi, expect, openMap, runSteps, shot, test } from "./helpers";
import { centreOf, type Locus, node, pickPair } from "./mapActions";

test.describe.configure({ mode: "serial" });

test("analyze: shift-click two loci to compare; the trace centres a step; search finds a locus; minimap", async ({ page }) => {
  const s = await createViaApi(page, { seed_concept: "price discovery", max_steps: 40, random_seed: 19, human_checkpoint_frequency: 0 });
  await runSteps(page, s.id, 5);
  await openMap(page, s.id);
  await expect(page.locator(".react-flow__minimap")).toBeVisible();
  const trace = (await (await page.request.get(`${API}/sessions/${s.id}/trace`)).json()) as { from_locus_id: string; to_locus_id: string; to_concept: string }[];
  const a = trace[0].from_locus_id;
  const b = trace[2].to_locus_id;
  await pickPair(page, a, b);
  const cmp = page.getByTestId("compare-panel");
  await expect(cmp.getByTestId("compare-distance")).toHaveText(/^\d\.\d{3}$/);
  await expect(cmp.getByTestId("compare-midpoint")).not.toHaveText("?");
  await expect(cmp.getByTestId("compare-path")).toContainText("→");
  await shot(page, "w11-compare");

  await page.getByRole("button", { name: /^Trace/ }).click();
  await expect(page.getByTestId("trace-row")).toHaveCount(5);
  await page.getByTestId("trace-row").nth(1).click();
  const offCentre = async (id: string) => {
    const m = (await page.getByTestId("mindmap").boundingBox())!;
    const c = await centreOf(node(page, id));
    return Math.hypot(c.x - (m.x + m.width / 2), c.y - (m.y + m.height / 2));
  };
  await expect
    .poll(() => offCentre(trace[1].to_locus_id))
    .toBeLessThan(40);
  await shot(page, "w12-trace");

  await page.getByLabel("Find a locus").fill(trace[3].to_concept.slice(0, 5));
  await page.getByRole("option", { name: trace[3].to_concept }).first().click();
  await expect(page.getByTestId("locus-concept")).toHaveText(trace[3].to_concept);
  await expect
    .poll(() => offCentre(trace[3].to_locus_id))
    .toBeLessThan(40);
  await shot(page, "w13-search");
});

test("compare: the panel shows the domains the two loci share and those only one has", async ({ page }) => {
  const s = await createViaApi(page, { seed_concept: "price discovery", max_steps: 40, random_seed: 19, human_checkpoint_frequency: 0 });
  // a pair that shares a domain and differs in another, so that every row has something to show;
  // the walk decides which domains its loci carry, so walk on (8 steps at a time) until it has one
  let pair: [Locus, Locus] | null = null;
  for (let walked = 0; !pair && walked < 40; walked += 8) {
    await runSteps(page, s.id, 8);
    const loci = ((await (await page.request.get(`${API}/sessions/${s.id}/loci`)).json()) as Locus[]).filter((l) => l.domains.length > 0);
    for (const a of loci)
      for (const b of loci)
        if (!pair && a.id !== b.id && a.domains.some((d) => b.domains.includes(d)) && a.domains.some((d) => !b.domains.includes(d)) && b.domains.some((d) => !a.domains.includes(d)))
          pair = [a, b];
  }
  expect(pair, "two loci that share a domain and differ in others").not.toBeNull();
  const [a, b] = pair!;
  await openMap(page, s.id);
  await pickPair(page, a.id, b.id);
  const cmp = page.getByTestId("compare-panel");
  await expect(cmp.getByTestId("compare-distance")).toHaveText(/^\d\.\d{3}$/);
  const shared = a.domains.filter((d) => b.domains.includes(d));
  await expect(cmp.getByTestId("compare-shared")).toHaveText(shared.join(", "));
  await expect(cmp.getByTestId("compare-only-a")).toHaveText(a.domains.filter((d) => !b.domains.includes(d)).join(", "));
  await expect(cmp.getByTestId("compare-only-b")).toHaveText(b.domains.filter((d) => !a.domains.includes(d)).join(", "));
  await shot(page, "w18-compare-domains");
});
