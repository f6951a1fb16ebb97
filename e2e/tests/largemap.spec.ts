// Large maps, on the shared large wander (largeWander.ts). At 270 steps, a couple of hundred loci
// still drawn as React Flow nodes: "Whole map" shows every one of them in one click. At 360,
// past CANVAS_ABOVE (300) React Flow nodes, the loci are drawn on one canvas (FarCanvas), not
// as DOM nodes; a click, a shift-click and a right-click on a locus drawn there still select
// it, compare it and open its menu (pickLocus). The 270-step test comes first: the wander is
// then walked on to 360 for the next.
import type { Page } from "@playwright/test";
import { API, openMap, shot } from "./helpers";
import { expect, test } from "./largeWander";
import { stopFollowing } from "./mapActions";

interface Spot {
  id: string;
  concept: string;
  x: number;
  y: number;
}

/** The loci of the walk (ids and concepts), from its trace. */
async function lociOf(page: Page, id: string): Promise<Map<string, string>> {
  const res = await page.request.get(`${API}/sessions/${id}/trace`);
  expect(res.status()).toBe(200);
  const trace: { from_locus_id: string | null; from_concept: string | null; to_locus_id: string; to_concept: string }[] = await res.json();
  const loci = new Map<string, string>();
  for (const t of trace) {
    if (t.from_locus_id && t.from_concept) loci.set(t.from_locus_id, t.from_concept);
    loci.set(t.to_locus_id, t.to_concept);
  }
  return loci;
}

/** Where the loci are on the screen once the view has kept still for a moment. */
async function settledSpots(page: Page, loci: Map<string, string>): Promise<Spot[]> {
  const ids = [...loci.keys()];
  const read = () => page.evaluate((ids) => ids.map((id) => ({ id, at: window.__wanderLocusAt?.(id) ?? null })), ids);
  let last = "";
  let spots: { id: string; at: { x: number; y: number } | null }[] = [];
  await expect
    .poll(
      async () => {
        spots = await read();
        const key = JSON.stringify(spots);
        const same = key === last && spots.some((s) => s.at);
        last = key;
        return same;
      },
      { timeout: 15_000, intervals: [250] },
    )
    .toBe(true);
  return spots.filter((s) => s.at).map((s) => ({ id: s.id, concept: loci.get(s.id)!, x: s.at!.x, y: s.at!.y }));
}

/** Loci drawn on the canvas (no DOM node), inside the map where nothing covers them (its
 * tools, legend, minimap, a node) and clear of other loci, nearest the middle of the map first. */
async function canvasLoci(page: Page, loci: Map<string, string>, skip: Set<string>): Promise<Spot[]> {
  const spots = await settledSpots(page, loci);
  const box = (await page.getByTestId("mindmap").boundingBox())!;
  const inDom = new Set(await page.locator(".react-flow__node").evaluateAll((els) => els.map((e) => e.getAttribute("data-id") ?? "")));
  const mid = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const inside = spots.filter((s) => !skip.has(s.id) && !inDom.has(s.id) && s.x > box.x + 20 && s.x < box.x + box.width - 20 && s.y > box.y + 20 && s.y < box.y + box.height - 20);
  // (the canvas takes no pointer events: what a click there meets is the pane)
  const bare = await page.evaluate(
    (pts) => pts.map((p) => [-6, 0, 6].every((dx) => [-6, 0, 6].every((dy) => document.elementFromPoint(p.x + dx, p.y + dy)?.classList.contains("react-flow__pane")))),
    inside.map((s) => ({ x: s.x, y: s.y })),
  );
  return inside
    .filter((_, i) => bare[i])
    .filter((s) => spots.every((o) => o.id === s.id || Math.hypot(o.x - s.x, o.y - s.y) > 30))
    .sort((a, b) => Math.hypot(a.x - mid.x, a.y - mid.y) - Math.hypot(b.x - mid.x, b.y - mid.y));
}

/** Opens the wander's map, caught up, its loci on the canvas: React Flow holds only a few of
 * them (the current locus, the one the latest step left, those tied to a crystal or a candidate). */
async function openLargeMap(page: Page, id: string, steps: number, loci: Map<string, string>): Promise<void> {
  await page.goto(`/sessions/${id}`);
  await expect(page.getByTestId("conn-state")).toHaveAttribute("data-state", "live");
  await expect(page.getByTestId("status-steps")).toContainText(String(steps));
  await expect(page.getByTestId("far-canvas")).toBeVisible();
  await expect(page.getByTestId("mindmap")).toHaveClass(/is-large/);
  const domLoci = await page.locator(".react-flow__node-locus").count();
  expect(domLoci).toBeGreaterThan(0);
  expect(domLoci).toBeLessThan(loci.size / 5);
}

/** A still view, close in (labels on), of where the loci are thickest: "Whole map" stops
 * following (or a panel that opens would move the view to the current locus); the search
 * then centres the view on the locus with the most others near it (and selects it). */
async function centreOnDensest(page: Page, loci: Map<string, string>): Promise<Spot> {
  await page.getByRole("button", { name: "Whole map" }).click();
  await expect(page.getByRole("button", { name: "Fit & follow" })).toBeVisible();
  const all = await settledSpots(page, loci);
  const zoom = await page.locator(".react-flow__viewport").evaluate((el) => new DOMMatrix(getComputedStyle(el).transform).a);
  const near = (a: Spot) => all.filter((b) => Math.hypot(a.x - b.x, a.y - b.y) < 400 * zoom).length;
  const dense = all.reduce((best, a) => (near(a) > near(best) ? a : best));
  await page.getByLabel("Find a locus").fill(dense.concept);
  await page.getByRole("option", { name: dense.concept, exact: true }).first().click();
  await expect(page.getByTestId("locus-concept")).toHaveText(dense.concept);
  await expect
    .poll(async () => {
      const at = await page.evaluate((id) => window.__wanderLocusAt!(id), dense.id);
      const box = (await page.getByTestId("mindmap").boundingBox())!;
      return Math.hypot(at!.x - box.x - box.width / 2, at!.y - box.y - box.height / 2);
    })
    .toBeLessThan(40);
  return dense;
}

test("whole map: zoomed in close, one click shows every locus", async ({ page, largeWander }) => {
  // a map of a couple of hundred loci, still drawn by React Flow (no canvas), where React
  // Flow's own fitView left the view where it was
  test.slow(); // (the walk: slow beside pytest on two cores)
  // 270 steps: 263 loci and their crystals (at 300, 291 loci and 12 crystals, one in each 25
  // steps, pass the CANVAS_ABOVE nodes React Flow draws)
  const { id } = await largeWander.at(270);
  const loci = ((await (await page.request.get(`${API}/sessions/${id}/loci`)).json()) as unknown[]).length;
  await openMap(page, id);
  // every locus a node: the map has laid out its whole backlog (until then it shows what it
  // has placed now and then, and "Whole map" fits that)
  await expect(page.locator(".react-flow__node-locus")).toHaveCount(loci);
  for (let i = 0; i < 4; i++) await page.getByRole("button", { name: "Zoom in" }).click();
  const box = (await page.getByTestId("mindmap").boundingBox())!;
  const inside = async () => {
    const boxes = await page.locator(".react-flow__node-locus").evaluateAll((els) =>
      els.map((e) => {
        const r = e.getBoundingClientRect();
        return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
      }),
    );
    return boxes.filter((c) => c.x >= box.x && c.x <= box.x + box.width && c.y >= box.y && c.y <= box.y + box.height).length / boxes.length;
  };
  await expect.poll(inside, { timeout: 10_000 }).toBeLessThan(1); // zoomed in: some loci are off the view
  await stopFollowing(page);
  expect(await inside()).toBe(1);
  await shot(page, "w03b-whole-map");
});

test("a large map draws its loci on the canvas; click, shift-click and right-click pick them there", async ({ page, largeWander }) => {
  // 360 steps, past the 300 nodes a map draws as nodes
  test.slow(); // the walk on from 270 steps, and the view settles several times: slow beside pytest on two cores
  const { id, steps } = await largeWander.at(360);
  const loci = await lociOf(page, id);
  await openLargeMap(page, id, steps, loci);
  const dense = await centreOnDensest(page, loci);

  // a click on a locus drawn on the canvas opens its panel
  const [first] = await canvasLoci(page, loci, new Set([dense.id]));
  expect(first, "a locus on the canvas, clear of the others, inside the view").toBeTruthy();
  await shot(page, "large-01-canvas-map");
  await page.mouse.click(first.x, first.y);
  const panel = page.getByTestId("locus-panel");
  await expect(panel).toBeVisible();
  await expect(page.getByTestId("locus-concept")).toHaveText(first.concept);

  // shift-click on another: the two are compared
  const [second] = await canvasLoci(page, loci, new Set([dense.id, first.id]));
  expect(second, "a second locus on the canvas").toBeTruthy();
  // as a person does it: the pointer on the locus (it becomes a node), then shift and click
  await page.mouse.move(second.x, second.y);
  await expect(page.locator(`.react-flow__node-locus[data-id="${second.id}"]`)).toHaveCount(1);
  await page.keyboard.down("Shift");
  await page.mouse.click(second.x, second.y);
  await page.keyboard.up("Shift");
  const cmp = page.getByTestId("compare-panel");
  await expect(cmp).toBeVisible();
  await expect(cmp.getByTestId("compare-distance")).toHaveText(/^\d\.\d{3}$/);
  await expect(cmp).toContainText(first.concept);
  await expect(cmp).toContainText(second.concept);

  // as a person picking a pair often does it: Shift held first, then the pointer onto the
  // locus, then the click (React Flow's selection key is Shift by default)
  await page.mouse.click(first.x, first.y);
  await expect(cmp).toBeHidden();
  await expect(page.getByTestId("locus-concept")).toHaveText(first.concept);
  const [fourth] = await canvasLoci(page, loci, new Set([dense.id, first.id, second.id]));
  expect(fourth, "a fourth locus on the canvas").toBeTruthy();
  await page.keyboard.down("Shift");
  await page.mouse.move(fourth.x, fourth.y, { steps: 5 });
  await expect(page.locator(`.react-flow__node-locus[data-id="${fourth.id}"]`)).toHaveCount(1);
  await page.mouse.click(fourth.x, fourth.y);
  await page.keyboard.up("Shift");
  await expect(cmp).toBeVisible();
  await expect(cmp).toContainText(first.concept);
  await expect(cmp).toContainText(fourth.concept);

  // right-click on a third: the locus's menu
  const [third] = await canvasLoci(page, loci, new Set([dense.id, first.id, second.id, fourth.id]));
  expect(third, "a third locus on the canvas").toBeTruthy();
  // a click whose pointer slips two pixels between press and release still selects it
  await page.mouse.move(third.x, third.y);
  await page.mouse.down();
  await page.mouse.move(third.x + 2, third.y + 1);
  await page.mouse.up();
  await expect(cmp).toBeHidden();
  await expect(page.getByTestId("locus-concept")).toHaveText(third.concept);
  await page.mouse.click(third.x, third.y, { button: "right" });
  const menu = page.getByTestId("locus-menu");
  await expect(menu).toBeVisible();
  await expect(menu.locator(".ctx-title")).toHaveText(third.concept);
  await expect(menu.getByRole("menuitem", { name: "Go here next" })).toBeEnabled();
  await expect(menu.getByRole("menuitem", { name: "Go deeper…" })).toBeVisible();
  await shot(page, "large-02-canvas-menu");
});

declare global {
  interface Window {
    /** MindMap's test hook: where locus `id` is on the screen (client px). */
    __wanderLocusAt?: (id: string) => { x: number; y: number } | null;
  }
}
