// Reviewing wanders in the archive room: open an archived wander, scrub to step 5, play to the end,
// switch to the semantic (UMAP) layout, find it by meaning, download each export; the links
// into the review room; the semantic layout on a live map (new loci placed by transform, a
// refit announced on the socket, pins kept by the Flow layout).
import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { API, createViaApi, expect, sessionViaApi, shot, test } from "./helpers";

test.describe.configure({ mode: "serial" });

const STEPS = 16;
let sid = "";
let name = "";
let lociAt: number[] = []; // distinct loci on the map after each step, from the trace

type Projection = { fit_id: string; method: string; points: { locus_id: string; x: number; y: number; fitted: boolean }[] };
type Centre = { id: string; x: number; y: number };

/** Centres of the locus nodes in map coordinates (not screen: the view's pan and zoom are left out). */
function centres(page: Page): Promise<Centre[]> {
  return page.locator(".react-flow__node-locus").evaluateAll((els) =>
    els
      .map((e) => {
        const h = e as HTMLElement;
        const m = /translate\((-?[\d.]+)px,\s*(-?[\d.]+)px\)/.exec(h.style.transform);
        return { id: h.getAttribute("data-id") ?? "", x: m ? +m[1] + h.offsetWidth / 2 : NaN, y: m ? +m[2] + h.offsetHeight / 2 : NaN };
      })
      .sort((a, b) => a.id.localeCompare(b.id)),
  );
}

/**
 * How far the map's loci are from the projection scaled onto the map: one scale per axis (the
 * semantic layout stretches the [-1, 1] projection to the map's proportions), y flipped, the
 * origin at 0, 0. Returns the worst distance in px and the scales.
 */
function offProjection(at: Centre[], p: Projection): { worst: number; kx: number; ky: number; matched: number } {
  const pts = new Map(p.points.map((q) => [q.locus_id, q]));
  const both = at.filter((c) => pts.has(c.id)).map((c) => ({ c, q: pts.get(c.id)! }));
  const widest = (k: "x" | "y") => both.reduce((a, b) => (Math.abs(b.q[k]) > Math.abs(a.q[k]) ? b : a));
  const bx = widest("x");
  const by = widest("y");
  const kx = bx.c.x / bx.q.x;
  const ky = by.c.y / by.q.y;
  const worst = Math.max(...both.map(({ c, q }) => Math.max(Math.abs(c.x - kx * q.x), Math.abs(c.y - ky * q.y))));
  return { worst, kx, ky, matched: both.length };
}

/** Loci a walk has reached: its seed and every step's destination. */
async function distinctLoci(page: Page, id: string): Promise<number> {
  const trace: { to_locus_id: string; from_locus_id: string }[] = await (await page.request.get(`${API}/sessions/${id}/trace`)).json();
  return new Set([...trace.map((t) => t.from_locus_id), ...trace.map((t) => t.to_locus_id)]).size;
}

async function waitSettled(page: Page): Promise<Centre[]> {
  let last = "";
  let now: Centre[] = [];
  await expect
    .poll(async () => {
      now = await centres(page);
      const key = JSON.stringify(now);
      const same = key === last;
      last = key;
      return same;
    }, { timeout: 15_000, intervals: [300] })
    .toBe(true);
  return now;
}

test("a completed wander is archived", async ({ page }) => {
  test.setTimeout(300_000);
  const s = await createViaApi(page, { seed_concept: "violin", attractor: "orchestral music", max_steps: STEPS, random_seed: 3 });
  sid = s.id;
  const run = await page.request.post(`${API}/sessions/${sid}/wander`, { data: { n_steps: STEPS } });
  expect(run.status()).toBe(202);
  // the archivist writes the archive in the background once the wander completes
  await expect
    .poll(async () => (await page.request.get(`${API}/sessions/${sid}/archive`)).status(), { timeout: 240_000, intervals: [500, 1000] })
    .toBe(200);
  const meta = await (await page.request.get(`${API}/sessions/${sid}/archive`)).json();
  expect(meta.step_count).toBe(STEPS);
  expect(meta.status).toBe("completed");
  name = meta.name;
  const trace: { step_number: number; to_locus_id: string; from_locus_id: string }[] = await (await page.request.get(`${API}/sessions/${sid}/trace`)).json();
  expect(trace).toHaveLength(STEPS);
  const seen = new Set<string>([trace[0].from_locus_id]);
  lociAt = [1];
  for (const t of trace) {
    seen.add(t.to_locus_id);
    lociAt.push(seen.size);
  }
  expect(lociAt[5]).toBe(6); // this walk reaches a new concept on each of its first five steps
});

test("open the archive, scrub to step 5 and see exactly 6 loci, then play to the end", async ({ page }) => {
  expect(sid, "needs the archived wander of the first test").not.toBe("");
  await page.goto(`/sessions/${sid}/archive`);
  await expect(page.getByTestId("archive-page")).toBeVisible();
  await expect(page.getByTestId("timeline-step")).toHaveText(`step ${STEPS} / ${STEPS}`);
  await expect(page.locator(".react-flow__node-locus")).toHaveCount(lociAt[STEPS]);

  await page.getByTestId("timeline-scrubber").fill("5");
  await expect(page.getByTestId("timeline-step")).toHaveText(`step 5 / ${STEPS}`);
  await expect(page.locator(".react-flow__node-locus")).toHaveCount(6);
  await expect(page.locator(".react-flow__edge-path.path-edge")).toHaveCount(5);
  await expect(page.getByTestId("trace-panel").locator("li")).toHaveCount(5);
  expect(new URL(page.url()).searchParams.get("step")).toBe("5");
  await shot(page, "archive-01-step-5");

  // a link holds the moment
  await page.reload();
  await expect(page.getByTestId("timeline-step")).toHaveText(`step 5 / ${STEPS}`);
  await expect(page.locator(".react-flow__node-locus")).toHaveCount(6);

  await page.getByRole("button", { name: "Step back" }).click();
  await expect(page.getByTestId("timeline-step")).toHaveText(`step 4 / ${STEPS}`);
  await expect(page.locator(".react-flow__node-locus")).toHaveCount(lociAt[4]);
  await page.getByRole("button", { name: "Step forward" }).click();
  await expect(page.locator(".react-flow__node-locus")).toHaveCount(6);

  await page.getByLabel("Speed").selectOption("20");
  await page.getByTestId("timeline-play").click();
  await expect(page.getByTestId("timeline-step")).toHaveText(`step ${STEPS} / ${STEPS}`, { timeout: 30_000 });
  await expect(page.getByTestId("timeline-play")).toHaveText(/Play/);
  await expect(page.locator(".react-flow__node-locus")).toHaveCount(lociAt[STEPS]);
  await expect(page.locator(".react-flow__edge-path.path-edge")).toHaveCount(STEPS);
  await shot(page, "archive-02-played");
});

test("switch to the semantic (UMAP) layout: loci glide to the stored projection, and back", async ({ page }) => {
  expect(sid, "needs the archived wander of the first test").not.toBe("");
  await page.goto(`/sessions/${sid}/archive`);
  await expect(page.locator(".react-flow__node-locus")).toHaveCount(lociAt[STEPS]);
  await expect(page.getByTestId("mindmap")).toHaveAttribute("data-layout", "flow");
  const before = await waitSettled(page);

  const projection = page.waitForResponse((r) => r.url().includes(`/sessions/${sid}/projection`));
  // record one locus's position on every animation frame from the click on
  const far = before[before.length - 1].id;
  await page.evaluate((id) => {
    const w = window as unknown as { __frames: string[] };
    w.__frames = [];
    const tick = () => {
      const el = document.querySelector<HTMLElement>(`.react-flow__node-locus[data-id="${id}"]`);
      if (el) w.__frames.push(el.style.transform);
      if (w.__frames.length < 400) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }, far);
  await page.getByRole("button", { name: "Semantic (UMAP)" }).click();
  const body: Projection = await (await projection).json();
  expect(body.method).toBe("umap");
  expect(body.points).toHaveLength(lociAt[STEPS]);
  await expect(page.getByTestId("mindmap")).toHaveAttribute("data-layout", "semantic");
  await expect(page.getByTestId("mindmap")).toHaveAttribute("data-fit-id", body.fit_id);
  expect(new URL(page.url()).searchParams.get("layout")).toBe("semantic");
  const after = await waitSettled(page);
  expect(after.map((c) => c.id)).toEqual(before.map((c) => c.id));
  expect(after).not.toEqual(before);
  // every locus sits at its projected point, scaled to the map (y grows downwards on screen)
  const fit = offProjection(after, body);
  expect(fit.matched).toBe(lociAt[STEPS]);
  expect(fit.kx).toBeGreaterThan(100);
  expect(fit.ky).toBeLessThan(-100);
  expect(fit.worst).toBeLessThan(1);
  // the switch was animated: the locus passed through positions between where it was and where it went
  const frames: string[] = await page.evaluate(() => (window as unknown as { __frames: string[] }).__frames);
  expect(new Set(frames).size).toBeGreaterThan(2);
  await shot(page, "archive-03-semantic");

  // back to Flow: every locus returns to where the flow layout had it
  await page.getByRole("button", { name: "Flow", exact: true }).click();
  await expect(page.getByTestId("mindmap")).toHaveAttribute("data-layout", "flow");
  expect(new URL(page.url()).searchParams.get("layout")).toBeNull();
  await expect.poll(() => centres(page), { timeout: 10_000 }).toEqual(before);

  // the layout is part of the link too, and the scrubber works in it
  await page.getByRole("button", { name: "Semantic (UMAP)" }).click();
  await expect(page.getByTestId("mindmap")).toHaveAttribute("data-layout", "semantic");
  await page.reload();
  await expect(page.getByTestId("mindmap")).toHaveAttribute("data-layout", "semantic");
  await page.getByTestId("timeline-scrubber").fill("5");
  await expect(page.locator(".react-flow__node-locus")).toHaveCount(6);
  const at5 = await waitSettled(page);
  // the six loci of step 5 sit at their projected points under one scale (the view itself may
  // fit them differently after the reload, so screen positions are not compared)
  const fit5 = offProjection(at5, body);
  expect(fit5.matched).toBe(6);
  expect(fit5.worst).toBeLessThan(1);
  await shot(page, "archive-04-semantic-step-5");
});

test("find it on the sessions page by meaning", async ({ page }) => {
  expect(sid, "needs the archived wander of the first test").not.toBe("");
  await page.goto("/");
  const card = page.locator(`[data-testid="archive-card"][data-session-id="${sid}"]`);
  await expect(card).toBeVisible();
  await expect(card.locator("img")).toHaveJSProperty("complete", true);
  expect(await card.locator("img").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
  await page.getByLabel("Search archived wanders by meaning").fill("wanders about string instruments and symphonies");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(card).toContainText("match");
  const top = page.locator('[data-testid="archive-card"]').first();
  await expect(top).toContainText("violin");
  // it ranks among the violin wanders, ahead of every other: the home persists from run to run,
  // so violin wanders of earlier runs (walked by another version of the engine, their
  // matches a little apart) may rank before it, but nothing else does
  const match = async (l: typeof card) => Number(/match (\d\.\d\d)/.exec((await l.textContent()) ?? "")?.[1]);
  expect(await match(card)).toBeGreaterThan(0);
  const cards = page.locator('[data-testid="archive-card"]');
  const ids = await cards.evaluateAll((els) => els.map((e) => e.getAttribute("data-session-id")));
  const rank = ids.indexOf(sid);
  expect(rank).toBeGreaterThanOrEqual(0);
  for (let i = 0; i < rank; i++) await expect(cards.nth(i)).toContainText("violin");
  if (rank < ids.length - 1) expect(await match(cards.nth(rank + 1))).toBeLessThanOrEqual(await match(card));
  await card.scrollIntoViewIfNeeded();
  await shot(page, "archive-05-search");
  await card.locator("a").click();
  await page.waitForURL(new RegExp(`/sessions/${sid}/archive`));
  await expect(page.getByTestId("timeline")).toBeVisible();
});

test("download each export", async ({ page }) => {
  expect(sid, "needs the archived wander of the first test").not.toBe("");
  await page.goto(`/sessions/${sid}/archive`);
  const checks: [string, string, (b: Buffer) => void][] = [
    [
      "export-json",
      `wander-${sid}.json`,
      (b) => {
        const doc = JSON.parse(b.toString());
        expect(doc.format).toBe("wander-archive");
        expect(doc.final).toBe(true);
        expect(doc.session.id).toBe(sid);
        expect(doc.traces).toHaveLength(STEPS);
        expect(doc.loci).toHaveLength(lociAt[STEPS]);
      },
    ],
    [
      "export-md",
      `wander-${sid}.md`,
      (b) => {
        const md = b.toString();
        expect(md.split("\n")[0]).toBe(`# ${name}`);
        expect(md).toContain("- seed: **violin**; attractor: *orchestral music*");
        expect(md).toContain("## Path");
      },
    ],
    [
      "export-png",
      `wander-${sid}-umap.png`,
      (b) => {
        expect(b.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
        expect(b.readUInt32BE(16)).toBeGreaterThan(100); // IHDR width
      },
    ],
  ];
  for (const [id, file, check] of checks) {
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId(id).click()]);
    expect(download.suggestedFilename()).toBe(file);
    check(readFileSync((await download.path())!));
  }
});

test("links into the review room: Review in the wanders list, Archive on the live map, Analysis in the header", async ({ page }) => {
  expect(sid, "needs the archived wander of the first test").not.toBe("");
  await page.goto("/");
  const row = page.locator('[data-testid="session-row"]').filter({ has: page.locator(`a[href="/sessions/${sid}"]`) });
  await expect(row.getByTestId("review-link")).toHaveAttribute("href", `/sessions/${sid}/archive`);
  await row.getByTestId("review-link").click();
  await page.waitForURL(new RegExp(`/sessions/${sid}/archive$`));
  await expect(page.getByTestId("timeline")).toBeVisible();

  await page.getByTestId("live-map-link").click();
  await page.waitForURL(new RegExp(`/sessions/${sid}$`));
  await expect(page.locator(".react-flow__node-locus")).toHaveCount(lociAt[STEPS]);
  await page.getByTestId("archive-link").click();
  await page.waitForURL(new RegExp(`/sessions/${sid}/archive$`));
  await expect(page.getByTestId("timeline-step")).toHaveText(`step ${STEPS} / ${STEPS}`);

  await page.goto("/");
  await page.getByTestId("analysis-link").click();
  await page.waitForURL(/\/analysis$/);
  await expect(page.getByRole("heading", { name: "Sandwich corpus" })).toBeVisible();
});

test("the semantic layout on a live map: new loci placed by transform, a refit picked up, pins kept by Flow", async ({ page }) => {
  test.setTimeout(240_000);
  const s = await createViaApi(page, { seed_concept: "river delta", max_steps: 20, random_seed: 5 });
  const live = s.id;
  const walk = async (n: number) => {
    expect((await page.request.post(`${API}/sessions/${live}/wander`, { data: { n_steps: n } })).status()).toBe(202);
    await expect.poll(async () => (await sessionViaApi(page, live)).running, { timeout: 120_000, intervals: [300, 500] }).toBe(false);
  };
  await walk(6);
  const steps6 = await sessionViaApi(page, live);
  expect(steps6.step_count).toBe(6);
  // an active wander (walking or between runs) offers no Archive link yet
  await page.goto(`/sessions/${live}`);
  const loci = page.locator(".react-flow__node-locus");
  await expect.poll(() => loci.count()).toBeGreaterThanOrEqual(5);
  await expect(page.getByTestId("archive-link")).toHaveCount(0);

  // a pinned locus (as a drag leaves it) holds its place in the Flow layout
  const flowBefore = await waitSettled(page);
  const pinned = flowBefore[0].id;
  await page.evaluate(([k, id]) => localStorage.setItem(k, JSON.stringify({ [id]: { x: 2000, y: -1500 } })), [`wander:pins:${live}`, pinned]);
  await page.reload();
  await expect(page.getByTestId("mindmap")).toHaveAttribute("data-layout", "flow");
  const flow = await waitSettled(page);
  expect(flow.find((c) => c.id === pinned)).toEqual({ id: pinned, x: 2000, y: -1500 });

  const responses: Projection[] = [];
  page.on("response", async (r) => {
    if (r.url().includes(`/sessions/${live}/projection`) && r.status() === 200) responses.push(await r.json());
  });
  await page.getByRole("button", { name: "Semantic (UMAP)" }).click();
  await expect(page.getByTestId("mindmap")).toHaveAttribute("data-layout", "semantic");
  await expect.poll(() => responses.length).toBeGreaterThan(0);
  const first = responses[0];
  const semantic = await waitSettled(page);
  expect(offProjection(semantic, first).matched).toBe(semantic.length);
  expect(offProjection(semantic, first).worst).toBeLessThan(1);
  expect(semantic.find((c) => c.id === pinned)).not.toEqual({ id: pinned, x: 2000, y: -1500 });
  await shot(page, "archive-06-live-semantic");

  // the walk goes on with the map open: new loci come placed by transform (no refit yet)
  await walk(6);
  const count = await distinctLoci(page, live);
  expect(count).toBeGreaterThan(semantic.length);
  await expect(loci).toHaveCount(count);
  await expect
    .poll(() => responses.length > 0 && responses[responses.length - 1].points.length >= count, { timeout: 20_000 })
    .toBe(true);
  const grown = responses[responses.length - 1];
  expect(grown.fit_id).toBe(first.fit_id);
  expect(grown.points.filter((p) => !p.fitted).length).toBeGreaterThan(0);
  const placed = await waitSettled(page);
  expect(placed).toHaveLength(count);
  const off = offProjection(placed, grown);
  expect(off.matched).toBe(count);
  expect(off.worst).toBeLessThan(1);
  await shot(page, "archive-07-live-semantic-grown");

  // pausing refits the projection: wander.projection.updated reaches the map, which fetches the new fit
  expect((await page.request.post(`${API}/sessions/${live}/pause`)).status()).toBe(200);
  await expect.poll(async () => (await (await page.request.get(`${API}/sessions/${live}/projection`)).json()).fit_id, { timeout: 60_000 }).not.toBe(first.fit_id);
  const refit: Projection = await (await page.request.get(`${API}/sessions/${live}/projection`)).json();
  expect(refit.points.every((p) => p.fitted)).toBe(true);
  await expect(page.getByTestId("mindmap")).toHaveAttribute("data-fit-id", refit.fit_id, { timeout: 20_000 });
  const refitted = await waitSettled(page);
  expect(offProjection(refitted, refit).worst).toBeLessThan(1);

  // back to Flow: the pinned locus is where it was pinned, the rest where Flow had them
  await page.getByRole("button", { name: "Flow", exact: true }).click();
  await expect(page.getByTestId("mindmap")).toHaveAttribute("data-layout", "flow");
  const back = await waitSettled(page);
  expect(back.find((c) => c.id === pinned)).toEqual({ id: pinned, x: 2000, y: -1500 });
  for (const c of flow) expect(back.find((b) => b.id === c.id)).toEqual(c);

  // a paused wander can be reviewed from its live map
  await page.getByTestId("archive-link").click();
  await page.waitForURL(new RegExp(`/sessions/${live}/archive$`));
  await expect(page.getByTestId("timeline-step")).toHaveText("step 12 / 12");
});
