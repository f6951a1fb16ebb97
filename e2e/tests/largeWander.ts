// One large wander per Playwright worker, for the specs that only read a large map: the whole
// map of one React Flow still draws as nodes (270 steps, a couple of hundred loci; largemap.spec.ts's
// first test), then the same wander walked on to 360 steps, past the 300 nodes a map draws as
// nodes (its loci on the canvas: the rest of largemap.spec.ts, overview.spec.ts). Each walked
// its own before (300, 360 and 400 steps): about 15-20 CPU-s of the server's and up to a minute
// of wall time apiece beside pytest, for maps none of them changes.
import { type APIRequestContext, request } from "@playwright/test";
import { API, expect, test as base } from "./helpers";

export interface LargeWander {
  id: string;
  steps: number;
}

export interface LargeWanders {
  /** The shared wander walked to `steps` (at most 360): walked on from where it stands, or a
   * new one where it has gone past them (a test that asks for fewer steps after one that
   * asked for more: a run of some of the tests in another order). The walk counts towards the
   * test's own time. */
  at(steps: number): Promise<LargeWander>;
}

const MAX_STEPS = 360;

async function walk(api: APIRequestContext, id: string, from: number, to: number): Promise<void> {
  const run = await api.post(`${API}/sessions/${id}/wander`, { data: { n_steps: to - from } });
  expect(run.status(), await run.text()).toBe(202);
  const session = async () => (await (await api.get(`${API}/sessions/${id}`)).json()) as { step_count: number; running: boolean };
  // on the loaded two-core machine, beside pytest and other browser tests, 360 steps once
  // took over 90 s
  await expect.poll(async () => (await session()).step_count, { timeout: 240_000, intervals: [1000, 2000] }).toBe(to);
  await expect.poll(async () => (await session()).running, { timeout: 30_000 }).toBe(false);
}

export const test = base.extend<object, { largeWander: LargeWanders }>({
  largeWander: [
    async ({}, use) => {
      const api = await request.newContext({ baseURL: process.env.WANDER_E2E_URL });
      let shared: LargeWander | null = null;
      await use({
        async at(steps) {
          if (steps > MAX_STEPS) throw new Error(`the shared large wander walks at most ${MAX_STEPS} steps, not ${steps}`);
          if (!shared || shared.steps > steps) {
            const created = await api.post(`${API}/sessions`, {
              data: { seed_concept: "trade winds", max_steps: MAX_STEPS, random_seed: 31, human_checkpoint_frequency: 0 },
            });
            expect(created.status(), await created.text()).toBe(201);
            shared = { id: ((await created.json()) as { id: string }).id, steps: 0 };
          }
          if (shared.steps < steps) await walk(api, shared.id, shared.steps, steps);
          shared = { id: shared.id, steps };
          return shared;
        },
      });
      await api.dispose();
    },
    { scope: "worker" },
  ],
});
export { expect };
