// What the workbench specs do on the map the way a person does it (drag, reach a node past the
// overlays, pick a pair, stop following), and the API shapes they read.
import type { Locator, Page } from "@playwright/test";
import { API, expect } from "./helpers";

export type Crystal = { id: string; status: string; validity: { V: number; verdict: string; type_confident?: boolean }; human_approved: boolean; structural_type: string | null };
export type Locus = { id: string; concept: string; domains: string[]; source_type: string };
export type Step = { step_number: number; from_locus_id: string; to_locus_id: string; to_concept: string };

/** A drag the way a person does it: pointer down on the node, several moves, up. */
export async function drag(page: Page, from: Locator, to: { x: number; y: number }): Promise<void> {
  const b = (await from.boundingBox())!;
  const x0 = b.x + b.width / 2;
  const y0 = b.y + b.height / 2;
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  // a few pixels first: the drag starts once past React Flow's threshold, and a long first
  // move would leave the node that far behind the pointer
  const len = Math.hypot(to.x - x0, to.y - y0) || 1;
  for (const px of [2, 4, 6]) await page.mouse.move(x0 + ((to.x - x0) * px) / len, y0 + ((to.y - y0) * px) / len);
  for (let i = 1; i <= 12; i++) await page.mouse.move(x0 + ((to.x - x0) * i) / 12, y0 + ((to.y - y0) * i) / 12);
  await page.mouse.up();
}

export async function centreOf(l: Locator): Promise<{ x: number; y: number }> {
  const b = (await l.boundingBox())!;
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

export const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);
export const notice = (page: Page) => page.getByTestId("command-result");

export async function currentConcept(page: Page): Promise<string> {
  return (await page.locator(".locus.is-current").getAttribute("data-concept")) ?? "";
}

/** Whether a click at the centre of `target` reaches it (not the minimap, the legend or a panel). */
async function clickable(target: Locator): Promise<boolean> {
  return target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return !!hit && el.contains(hit);
  });
}

/** Zoom out (around the view's centre) until no overlay covers `target`, as a person would. */
async function zoomOutUntilClickable(page: Page, target: Locator): Promise<void> {
  await expect
    .poll(
      async () => {
        if (await clickable(target)) return true;
        await page.getByRole("button", { name: "Zoom out" }).click();
        await page.waitForTimeout(400);
        return false;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
}

/** Right-click a node until its context menu is open: a map still moving (a fit, the child
 * map's first view) can carry the node away between Playwright's look and the click. */
export async function openMenuOn(page: Page, target: Locator): Promise<void> {
  await expect(async () => {
    await target.click({ button: "right", timeout: 5_000 });
    await expect(page.getByRole("menuitem", { name: /Go deeper/ })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

/** Bring a node where a click reaches it: following tracks the current locus only, so a node
 * may lie outside the view or under the legend; show the whole map, then zoom out if need be. */
export async function reach(page: Page, target: Locator): Promise<void> {
  await stopFollowing(page);
  await zoomOutUntilClickable(page, target);
}

/** Select a, then shift-click b, the way a person does it: a is found with the search box
 * (which selects and centres it), the map is zoomed out until b is not under an overlay,
 * then b is shift-clicked. */
export async function pickPair(page: Page, a: string, b: string): Promise<void> {
  const conceptA = (await node(page, a).locator(".locus").getAttribute("data-concept"))!;
  await page.getByLabel("Find a locus").fill(conceptA);
  await page.getByRole("option", { name: conceptA, exact: true }).click();
  await expect(page.getByTestId("locus-concept")).toHaveText(conceptA);
  await page.waitForTimeout(500); // the centring animation
  // (under load the centring may still be gliding and carry b under an overlay: again)
  await expect(async () => {
    await zoomOutUntilClickable(page, node(page, b));
    await node(page, b).click({ modifiers: ["Shift"], timeout: 3_000 });
  }).toPass({ timeout: 60_000 });
  await expect(page.getByTestId("compare-panel")).toBeVisible();
}

export async function stopFollowing(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Whole map" }).click();
  // until the view has stopped gliding (a loaded machine takes longer than the 500 ms the
  // glide lasts): a press on a locus that is still moving lands on the pane and pans it.
  // Each look waits for two frames first: the glide moves the view only on a frame, and a page
  // busy drawing a large map answered two looks 300 ms apart before its first frame, so a view
  // that had not started to move read as still (CI: "whole map" then saw 3 of 263 loci).
  let last = "";
  await expect
    .poll(
      async () => {
        const now = await page.locator(".react-flow__viewport").evaluate(async (el) => {
          await new Promise((framed) => requestAnimationFrame(() => requestAnimationFrame(framed)));
          return (el as HTMLElement).style.transform;
        });
        const same = now === last;
        last = now;
        return same;
      },
      { timeout: 15_000, intervals: [300] },
    )
    .toBe(true);
}

/** Open a sub-wander node's map: bring the node where a click reaches it, click until the page moves. */
export async function openSubwander(page: Page, node: Locator, fromId: string) {
  await reach(page, node);
  await expect(async () => {
    await node.click({ timeout: 5_000 });
    await page.waitForURL((u) => !u.pathname.endsWith(fromId), { timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
}

/** Crystallize (up to 40 times, stepping on between tries: a new current locus brings new breads
 * and fillings, where the same spot may only give sandwiches formed already or rejected) until
 * the gate keeps a crystal for review; null if none was. */
export async function crystallizeUntilReview(page: Page, sessionId: string): Promise<Crystal | null> {
  let review: Crystal | null = null;
  for (let i = 0; i < 40 && !review; i++) {
    const r = await page.request.post(`${API}/sessions/${sessionId}/crystallize`);
    expect(r.status()).toBe(200);
    const c = (await r.json()).crystal as Crystal | null;
    if (c && c.validity.verdict === "review") review = c;
    else expect((await page.request.post(`${API}/sessions/${sessionId}/step`)).status()).toBe(200);
  }
  return review;
}
