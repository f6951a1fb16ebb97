// One large wander per Playwright worker, walked to its end, for the specs that only read a
// large map: the overview at far zoom (overview.spec.ts) and a large map's canvas
// (largemap.spec.ts). Each walked its own before (400 and 360 steps): about 20 CPU-s of the
// server's and a minute of wall time apiece beside pytest, for two maps neither spec changes.
// Its loci are more than a map draws as nodes (300), so the map draws them on its canvas.
import { request } from "@playwright/test";
import { API, expect, test as base } from "./helpers";

export interface LargeWander {
  id: string;
  steps: number;
}

const STEPS = 360;

export const test = base.extend<object, { largeWander: LargeWander }>({
  largeWander: [
    async ({}, use) => {
      const api = await request.newContext({ baseURL: process.env.WANDER_E2E_URL });
      const created = await api.post(`${API}/sessions`, {
        data: { seed_concept: "trade winds", max_steps: STEPS, random_seed: 31, human_checkpoint_frequency: 0 },
      });
      expect(created.status(), await created.text()).toBe(201);
      const { id } = (await created.json()) as { id: string };
      const run = await api.post(`${API}/sessions/${id}/wander`, { data: { n_steps: STEPS } });
      expect(run.status(), await run.text()).toBe(202);
      const session = async () => (await (await api.get(`${API}/sessions/${id}`)).json()) as { step_count: number; running: boolean };
      // on the loaded two-core machine, beside pytest and other browser tests, 360 steps once
      // took over 90 s
      await expect.poll(async () => (await session()).step_count, { timeout: 240_000, intervals: [1000, 2000] }).toBe(STEPS);
      await expect.poll(async () => (await session()).running, { timeout: 30_000 }).toBe(false);
      await api.dispose();
      await use({ id, steps: STEPS });
    },
    { scope: "worker", timeout: 300_000 },
  ],
});
export { expect };
