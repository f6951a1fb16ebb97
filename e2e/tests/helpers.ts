import { expect, test as base, type Locator, type Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const SHOTS = join(dirname(fileURLToPath(import.meta.url)), "..", "screenshots");
mkdirSync(SHOTS, { recursive: true });

// global-setup puts the server's URL in the environment the workers inherit.
export const test = base.extend({
  baseURL: async ({}, use) => {
    const url = process.env.WANDER_E2E_URL;
    if (!url) throw new Error("WANDER_E2E_URL is not set: global-setup did not start the server");
    await use(url);
  },
  // The map without its dot grid (React Flow's Background, a decoration no test looks at): its
  // pattern moves with the view, so every frame of a glide (each step a followed map takes)
  // painted the whole grid again. The browser's raster threads took 10.0 CPU-s with it and 5.4
  // without over vislzr + workbench-view + workbench-steering (15 tests, same minutes); every
  // element, class and state a test reads is still there.
  context: async ({ context }, use) => {
    await context.addInitScript(() => {
      document.addEventListener("DOMContentLoaded", () => {
        const style = document.createElement("style");
        style.textContent = ".react-flow__background { display: none !important; }";
        document.head.appendChild(style);
      });
    });
    await use(context);
  },
});
export { expect };

export const API = "/api/v1/wander";

/** A picture in e2e/screenshots/ for a person to look at (no test reads one): the page as
 * shown (or whole, `fullPage`), or one element of it. JPEG: the browser encoded each of the
 * suite's ~65 pictures as PNG in ~0.15 CPU-s, as JPEG in a fraction of that. */
export async function shot(of: Page | Locator, name: string, { fullPage = false } = {}): Promise<void> {
  const path = join(SHOTS, `${name}.jpg`);
  await ("goto" in of ? of.screenshot({ path, type: "jpeg", quality: 85, fullPage }) : of.screenshot({ path, type: "jpeg", quality: 85 }));
}

/** Data ids of the locus nodes on the map. */
export async function locusIds(page: Page): Promise<string[]> {
  return page.locator(".react-flow__node-locus").evaluateAll((els) => els.map((e) => e.getAttribute("data-id") ?? ""));
}

export async function statusText(page: Page): Promise<string> {
  return (await page.getByTestId("session-status").textContent())?.trim() ?? "";
}

export async function createViaApi(
  page: Page,
  body: Record<string, unknown>,
): Promise<{ id: string; max_steps: number; status: string }> {
  const res = await page.request.post(`${API}/sessions`, { data: body });
  expect(res.status(), await res.text()).toBe(201);
  return res.json();
}

export async function sessionViaApi(page: Page, id: string): Promise<{ status: string; step_count: number; running: boolean; last_event_seq: number }> {
  const res = await page.request.get(`${API}/sessions/${id}`);
  expect(res.status()).toBe(200);
  return res.json();
}

/** Runs n steps through the API and waits until they are taken and the run has stopped. */
export async function runSteps(page: Page, id: string, n: number): Promise<void> {
  const before = (await sessionViaApi(page, id)).step_count;
  const r = await page.request.post(`${API}/sessions/${id}/wander`, { data: { n_steps: n } });
  expect(r.status(), await r.text()).toBe(202);
  await expect.poll(async () => (await sessionViaApi(page, id)).step_count, { timeout: 90_000 }).toBeGreaterThanOrEqual(before + n);
  await expect.poll(async () => (await sessionViaApi(page, id)).running, { timeout: 30_000 }).toBe(false);
}

/** Opens a wander's map and waits until its live feed is connected. */
export async function openMap(page: Page, id: string): Promise<void> {
  await page.goto(`/sessions/${id}`);
  await expect(page.getByTestId("conn-state")).toHaveAttribute("data-state", "live");
}
