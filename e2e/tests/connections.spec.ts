// A locus's connections in the browser: the bridges the walk learned between loci off its path
// are drawn as Bridge edges (001), and the locus panel lists them (both ends) and what the
// locus contradicts.
import { API, createViaApi, expect, sessionViaApi, shot, test } from "./helpers";

type Link = { locus_id: string; concept: string; bridge_type?: string; tension_description?: string };
type Detail = { id: string; concept: string; bridges_to: Link[]; contradicts: Link[] };

test("bridges between loci on the map and in the locus panel", async ({ page }) => {
  test.setTimeout(240_000);
  const s = await createViaApi(page, { seed_concept: "information asymmetry", max_steps: 40, random_seed: 5, human_checkpoint_frequency: 0 });
  const run = await page.request.post(`${API}/sessions/${s.id}/wander`, { data: { n_steps: 40 } });
  expect(run.status(), await run.text()).toBeLessThan(300);
  await expect.poll(async () => (await sessionViaApi(page, s.id)).status, { timeout: 180_000 }).toBe("completed");

  const loci: { id: string }[] = await (await page.request.get(`${API}/sessions/${s.id}/loci`)).json();
  const details: Detail[] = await Promise.all(loci.map(async (lo) => (await page.request.get(`${API}/sessions/${s.id}/loci/${lo.id}`)).json()));
  const pairs = new Set<string>();
  for (const d of details) for (const b of d.bridges_to) if (b.bridge_type === "near across domains") pairs.add([d.id, b.locus_id].sort().join(","));
  expect(pairs.size).toBeGreaterThan(0);

  await page.goto(`/sessions/${s.id}`);
  await expect(page.getByTestId("session-status")).toHaveText("completed");
  await page.getByRole("button", { name: "Whole map" }).click();
  await expect(page.locator(".react-flow__edge-path.bridge-edge")).toHaveCount(pairs.size);
  await page.getByRole("button", { name: /^legend/ }).click();
  await expect(page.getByTestId("legend")).toContainText("bridge between loci");

  const [a, b] = [...pairs][0].split(",");
  const other = details.find((d) => d.id === b)!;
  await page.locator(`.react-flow__node-locus[data-id="${a}"]`).dispatchEvent("click");
  const bridges = page.getByTestId("locus-bridges");
  await expect(bridges).toContainText(other.concept);
  await expect(bridges).toContainText("near across domains");
  await bridges.scrollIntoViewIfNeeded();
  await shot(page, "connections-bridges");
  // the other end lists it too
  await bridges.getByRole("button", { name: other.concept, exact: true }).click();
  await expect(page.getByTestId("locus-concept")).toHaveText(other.concept);
  await expect(page.getByTestId("locus-bridges")).toContainText(details.find((d) => d.id === a)!.concept);

  const contra = details.find((d) => d.contradicts.length);
  if (contra) {
    await page.locator(`.react-flow__node-locus[data-id="${contra.id}"]`).dispatchEvent("click");
    await expect(page.getByTestId("locus-contradicts")).toContainText(contra.contradicts[0].tension_description!);
  }
});
