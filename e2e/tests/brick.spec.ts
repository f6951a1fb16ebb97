import type { Page } from "@playwright/test";
import { API, createViaApi, expect, shot, test } from "./helpers";

// The brick viewer (/memory/...): a Wheeler memory's evolution frame by frame. Moving the
// slider (with the keyboard, as a person does on a range input) changes the picture on the
// canvas; Play runs the ticks and Pause holds them.

const canvasPixels = (page: Page) => page.getByTestId("brick-frame").evaluate((c) => (c as HTMLCanvasElement).toDataURL());
const tickText = async (page: Page) => (await page.getByTestId("brick-tick").textContent())?.trim() ?? "";

type Crystal = { id: string; insight: string };

async function scrubAndPlay(page: Page, lastTick: number): Promise<void> {
  const frame = page.getByTestId("brick-frame");
  await expect(page.getByTestId("brick-tick")).toHaveText(`tick ${lastTick} / ${lastTick}`); // opens on the attractor
  const atAttractor = await canvasPixels(page);
  const slider = page.getByTestId("brick-slider");
  await slider.focus();
  await page.keyboard.press("Home"); // the seed
  await expect(page.getByTestId("brick-tick")).toHaveText(`tick 0 / ${lastTick}`);
  await expect(frame).toHaveAttribute("data-tick", "0");
  const atSeed = await canvasPixels(page);
  expect(atSeed, "the seed and the attractor are different pictures").not.toBe(atAttractor);
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("brick-tick")).toHaveText(`tick 3 / ${lastTick}`);
  const atThree = await canvasPixels(page);
  expect(atThree, "tick 3 is not the seed").not.toBe(atSeed);
  // Play from tick 3: the ticks run on; Pause holds one
  await page.getByTestId("brick-play").click();
  await expect(page.getByTestId("brick-play")).toHaveText("Pause");
  await expect.poll(async () => Number((await tickText(page)).split(" ")[1])).toBeGreaterThan(5);
  await page.getByTestId("brick-play").click();
  await expect(page.getByTestId("brick-play")).toHaveText("Play");
  const held = await tickText(page);
  await page.waitForTimeout(400);
  expect(await tickText(page)).toBe(held);
  expect(await canvasPixels(page)).not.toBe(atThree);
}

test("a text's brick: scrub the ticks with the slider, play and pause", async ({ page }) => {
  const text = "fix the python debug error";
  const brick = await (await page.request.get(`${API}/bricks`, { params: { text } })).json();
  expect(brick.state).toBe("CONVERGED");
  await page.goto(`/memory/text/${encodeURIComponent(text)}`);
  await expect(page.getByTestId("brick-text")).toHaveText(text);
  await expect(page.getByTestId("brick-outcome")).toHaveText("converged at 0°");
  await expect(page.getByTestId("brick-cycle")).toHaveText("none: it settles");
  await scrubAndPlay(page, brick.ticks);
  await page.getByTestId("brick-slider").focus();
  await page.keyboard.press("Home");
  for (let i = 0; i < 6; i++) await page.keyboard.press("ArrowRight");
  await shot(page, "brick-viewer-text");
});

test("a crystal's brick, the evolution behind its attractor picture", async ({ page }) => {
  // a crystal: any the server holds, else one crystallized from a short wander
  let crystal: Crystal | undefined = ((await (await page.request.get(`${API}/crystals`)).json()) as Crystal[])[0];
  if (!crystal) {
    const s = await createViaApi(page, { seed_concept: "information asymmetry", max_steps: 40, random_seed: Date.now() % 100000 });
    for (let i = 0; i < 20 && !crystal; i++) {
      expect((await page.request.post(`${API}/sessions/${s.id}/step`)).status()).toBe(200);
      const r = await page.request.post(`${API}/sessions/${s.id}/crystallize`);
      expect(r.status()).toBe(200);
      crystal = (await r.json()).crystal ?? undefined;
    }
  }
  if (!crystal) throw new Error("no crystal formed to view");
  const brick = await (await page.request.get(`${API}/crystals/${crystal.id}/brick`)).json();
  await page.goto(`/memory/crystal/${crystal.id}`);
  await expect(page.getByTestId("brick-text")).toHaveText(crystal.insight);
  await expect(page.getByTestId("brick-state")).toContainText(brick.state);
  await scrubAndPlay(page, brick.ticks);
  await shot(page, "brick-viewer-crystal");
});

test("an oscillating brick: every rotation failed, the tick its cycle began is marked", async ({ page }) => {
  // The CA does not oscillate on ordinary seeds, so this brick is a stand-in served in place
  // of the API's answer: 20 wandering frames, then a 2-cycle (what Brick.find_divergence_point
  // reports as the divergence tick, 20).
  const n = 61;
  const cells = 64 * 64;
  const bytes = Buffer.alloc(n * cells);
  for (let t = 0; t < n; t++) {
    for (let i = 0; i < cells; i++) {
      const x = i % 64;
      const y = Math.floor(i / 64);
      const v = t < 20 ? Math.sin(x * 0.3 + t * 0.7) * Math.cos(y * 0.2 - t * 0.4) : ((x + y + t) % 2 ? 1 : -1) * Math.cos((x - 32) / 20);
      bytes[t * cells + i] = Math.round((v + 1) * 127.5);
    }
  }
  const body = {
    source: "text", id: "0000000000000000", text: "a stand-in that never settles", state: "OSCILLATING",
    outcome: "FAILED_ALL_ROTATIONS", ticks: n - 1, angle: 180, attempts: 4, cycle_period: 2, divergence_tick: 20,
    height: 64, width: 64, frames: bytes.toString("base64"),
  };
  await page.route("**/api/v1/wander/bricks?*", (route) => route.fulfill({ json: body }));
  await page.goto(`/memory/text/${encodeURIComponent(body.text)}`);
  await expect(page.getByTestId("brick-outcome")).toHaveText("FAILED_ALL_ROTATIONS");
  await expect(page.getByTestId("brick-state")).toContainText("OSCILLATING");
  await expect(page.getByTestId("brick-cycle")).toHaveText("period 2, began at tick 20");
  const mark = page.getByTestId("brick-divergence");
  await expect(mark).toBeVisible();
  // the mark sits a third of the way along the slider (tick 20 of 60)
  const track = (await page.getByTestId("brick-slider").boundingBox())!;
  const at = (await mark.boundingBox())!;
  expect(Math.abs(at.x - (track.x + track.width / 3))).toBeLessThan(track.width * 0.05);
  const atEnd = await canvasPixels(page);
  await page.getByTestId("brick-goto-divergence").click();
  await expect(page.getByTestId("brick-tick")).toHaveText("tick 20 / 60");
  const atTwenty = await canvasPixels(page);
  expect(atTwenty, "tick 20 is in the 2-cycle, in the phase of tick 60").toBe(atEnd);
  await page.getByTestId("brick-slider").focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("brick-tick")).toHaveText("tick 21 / 60");
  expect(await canvasPixels(page), "the cycle's other phase").not.toBe(atTwenty);
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByTestId("brick-tick")).toHaveText("tick 19 / 60");
  expect(await canvasPixels(page), "before the cycle began").not.toBe(atTwenty);
  await shot(page, "brick-viewer-oscillating");
});
