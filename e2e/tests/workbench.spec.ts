// The mind map as a workbench: each user action against `wander serve`, in real
// Chromium, with a screenshot in e2e/screenshots/.
import type { Locator, Page } from "@playwright/test";
import { API, createViaApi, expect, openMap, runSteps, shot, test } from "./helpers";

test.describe.configure({ mode: "serial" });

/** A drag the way a person does it: pointer down on the node, several moves, up. */
async function drag(page: Page, from: Locator, to: { x: number; y: number }): Promise<void> {
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

async function centreOf(l: Locator): Promise<{ x: number; y: number }> {
  const b = (await l.boundingBox())!;
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);
const notice = (page: Page) => page.getByTestId("command-result");

async function currentConcept(page: Page): Promise<string> {
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
async function openMenuOn(page: Page, target: Locator): Promise<void> {
  await expect(async () => {
    await target.click({ button: "right", timeout: 5_000 });
    await expect(page.getByRole("menuitem", { name: /Go deeper/ })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

/** Bring a node where a click reaches it: following tracks the current locus only, so a node
 * may lie outside the view or under the legend; show the whole map, then zoom out if need be. */
async function reach(page: Page, target: Locator): Promise<void> {
  await stopFollowing(page);
  await zoomOutUntilClickable(page, target);
}

/** Select a, then shift-click b, the way a person does it: a is found with the search box
 * (which selects and centres it), the map is zoomed out until b is not under an overlay,
 * then b is shift-clicked. */
async function pickPair(page: Page, a: string, b: string): Promise<void> {
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

async function stopFollowing(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Whole map" }).click();
  // until the view has stopped gliding (a loaded machine takes longer than the 500 ms the
  // glide lasts): a press on a locus that is still moving lands on the pane and pans it
  let last = "";
  await expect
    .poll(
      async () => {
        const now = await page.locator(".react-flow__viewport").evaluate((el) => (el as HTMLElement).style.transform);
        const same = now === last;
        last = now;
        return same;
      },
      { timeout: 15_000, intervals: [300] },
    )
    .toBe(true);
}

test("click a dashed candidate: go here next, and the next step goes there", async ({ page }) => {
  const s = await createViaApi(page, { seed_concept: "harbour pilot", max_steps: 40, random_seed: 11, human_checkpoint_frequency: 0 });
  await runSteps(page, s.id, 3);
  await openMap(page, s.id);
  const ghost = page.locator(".react-flow__node-ghost").first();
  await expect(ghost).toBeVisible();
  const concept = (await ghost.locator(".ghost-label").textContent())!.trim();
  await ghost.click();
  await expect(notice(page)).toHaveAttribute("data-kind", "ok");
  await expect(notice(page)).toContainText(concept);
  await page.getByRole("button", { name: "Step", exact: true }).click();
  await expect.poll(() => currentConcept(page)).toBe(concept);
  await page.waitForTimeout(500);
  await shot(page, "w01-go-here-next");
});

test("drag a candidate onto the current locus: a hint, marked until visited", async ({ page }) => {
  const s = await createViaApi(page, { seed_concept: "tide tables", max_steps: 40, random_seed: 12, human_checkpoint_frequency: 0 });
  await runSteps(page, s.id, 3);
  await openMap(page, s.id);
  await stopFollowing(page);
  const current = page.locator(".react-flow__node-locus:has(.locus.is-current)");
  // Once the map has rested it swaps last step's candidates for the next step's: a drag that
  // began on a candidate swapped away drops nothing, so the drag is made again on a fresh one.
  let concept = "";
  await expect(async () => {
    const ghost = page.locator(".react-flow__node-ghost").first();
    concept = (await ghost.locator(".ghost-label").textContent())!.trim();
    await drag(page, ghost, await centreOf(current));
    await expect(notice(page)).toContainText(`“${concept}” planted as a hint`, { timeout: 8_000 });
  }).toPass({ timeout: 60_000 });
  const hinted = page.locator(`.locus.is-hint[data-concept="${concept}"]`);
  await expect(hinted).toHaveCount(1);
  await expect(hinted.getByTestId("hint-marker")).toBeVisible();
  const loci = (await (await page.request.get(`${API}/sessions/${s.id}/loci`)).json()) as { concept: string; source_type: string }[];
  expect(loci.filter((l) => l.concept === concept).map((l) => l.source_type)).toEqual(["SERENDIPITOUS"]);
  await page.waitForTimeout(400);
  await shot(page, "w02-drag-to-hint");
});

test("drag a locus elsewhere: it stays pinned there, also after a reload", async ({ page }) => {
  const s = await createViaApi(page, { seed_concept: "lighthouse keeper", max_steps: 40, random_seed: 13, human_checkpoint_frequency: 0 });
  await runSteps(page, s.id, 4);
  await openMap(page, s.id);
  await stopFollowing(page);
  const seed = page.locator(".react-flow__node-locus:has(.locus.is-seed)");
  const id = (await seed.getAttribute("data-id"))!;
  const before = await seed.evaluate((el) => (el as HTMLElement).style.transform);
  const c = await centreOf(seed);
  await drag(page, seed, { x: c.x + 140, y: c.y + 90 });
  await expect(notice(page)).toContainText("Pinned");
  const after = await node(page, id).evaluate((el) => (el as HTMLElement).style.transform);
  expect(after).not.toBe(before);
  await page.reload();
  await expect(page.getByTestId("conn-state")).toHaveAttribute("data-state", "live");
  await expect.poll(() => node(page, id).evaluate((el) => (el as HTMLElement).style.transform)).toBe(after);
  await shot(page, "w03-pinned");
});

test("whole map: zoomed in close, one click shows every locus", async ({ page }) => {
  // 300 steps: a map of a couple of hundred loci, still drawn by React Flow (no canvas), where
  // React Flow's own fitView left the view where it was
  const s = await createViaApi(page, { seed_concept: "tide mill", max_steps: 300, random_seed: 17, human_checkpoint_frequency: 0 });
  await runSteps(page, s.id, 300);
  await openMap(page, s.id);
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

test("context menu: fence out and fence in draw halos, the fences panel removes them", async ({ page }) => {
  const s = await createViaApi(page, { seed_concept: "smuggling routes", max_steps: 40, random_seed: 14, human_checkpoint_frequency: 0 });
  await runSteps(page, s.id, 4);
  await openMap(page, s.id);
  const loci = page.locator(".react-flow__node-locus");
  const a = loci.nth(1);
  const b = loci.nth(2);
  const aConcept = (await a.locator(".locus").getAttribute("data-concept"))!;
  const bConcept = (await b.locator(".locus").getAttribute("data-concept"))!;
  await a.click({ button: "right" });
  await expect(page.getByTestId("locus-menu")).toBeVisible();
  await page.getByRole("menuitem", { name: /Fence out/ }).click();
  await expect(notice(page)).toContainText(`excludes the region of “${aConcept}”`);
  await expect(a.getByTestId("fence-halo-exclude")).toBeVisible();
  // the locus panel's Actions button opens the same menu
  await b.click();
  await page.getByTestId("locus-panel").getByRole("button", { name: "Actions" }).click();
  await page.getByRole("menuitem", { name: /Fence in/ }).click();
  await expect(b.getByTestId("fence-halo-include")).toBeVisible();
  const fences = await (await page.request.get(`${API}/sessions/${s.id}/fences`)).json();
  expect(fences).toEqual([{ concept: aConcept, action: "exclude" }, { concept: bConcept, action: "include" }]);
  await page.getByRole("button", { name: /^Fences/ }).click();
  await expect(page.getByTestId("fence-row")).toHaveCount(2);
  await shot(page, "w04-fences");
  await page.getByRole("button", { name: `Remove fence ${aConcept}` }).click();
  await expect(page.getByTestId("fence-row")).toHaveCount(1);
  await expect(a.getByTestId("fence-halo-exclude")).toHaveCount(0);
  expect(await (await page.request.get(`${API}/sessions/${s.id}/fences`)).json()).toEqual([{ concept: bConcept, action: "include" }]);
});

test("an action the API refuses shows its error inline", async ({ page }) => {
  const s = await createViaApi(page, { seed_concept: "quarantine flag", max_steps: 2, random_seed: 15, human_checkpoint_frequency: 0 });
  await runSteps(page, s.id, 2);
  await openMap(page, s.id);
  await expect(page.getByTestId("session-status")).toHaveText("completed");
  // A click that lands while the map is still settling (the replay's last batch, the follow
  // jump) can miss its node, as a person's can; they click again, and so does this test.
  await expect(async () => {
    await page.locator(".react-flow__node-ghost").first().click();
    await expect(notice(page)).toHaveAttribute("data-kind", "error", { timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await expect(notice(page)).toContainText("Go here next failed");
  await expect(notice(page)).toContainText("completed");
  await shot(page, "w05-inline-error");
});

test("go deeper: a sub-wander node with live progress, its map with a breadcrumb, nested", async ({ page }) => {
  const s = await createViaApi(page, { seed_concept: "salt trade", max_steps: 40, random_seed: 16, human_checkpoint_frequency: 0 });
  await runSteps(page, s.id, 3);
  await openMap(page, s.id);
  const target = page.locator(".react-flow__node-locus").nth(2);
  const concept = (await target.locator(".locus").getAttribute("data-concept"))!;
  await openMenuOn(page, target);
  await page.getByRole("menuitem", { name: /Go deeper/ }).click();
  await page.getByLabel("Sub-wander steps").fill("4");
  await page.getByRole("button", { name: "Spawn sub-wander" }).click();
  await expect(notice(page)).toContainText("Sub-wander");
  const sub = page.locator(".react-flow__node-subwander");
  await expect(sub).toHaveCount(1);
  await expect(sub).toContainText(concept);
  await expect(sub.getByTestId("subwander-progress")).toHaveText(/^4\/4 · completed$/, { timeout: 90_000 });
  await shot(page, "w06-subwander-node");
  // Following tracks the current locus only, so the new node may lie outside the view (or
  // under an overlay): show the whole map first, as a person would, then open it.
  await openSubwander(page, sub, s.id);
  const childId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);
  await expect(page.getByTestId("breadcrumb")).toContainText("salt trade");
  await expect.poll(() => page.locator(".react-flow__node-locus").count()).toBeGreaterThanOrEqual(3);
  // nested: go deeper from the child's seed
  const childSeed = page.locator(".react-flow__node-locus:has(.locus.is-seed)");
  await openMenuOn(page, childSeed);
  await page.getByRole("menuitem", { name: /Go deeper/ }).click();
  await page.getByLabel("Sub-wander steps").fill("2");
  await page.getByRole("button", { name: "Spawn sub-wander" }).click();
  await expect(page.locator(".react-flow__node-subwander").getByTestId("subwander-progress")).toHaveText(/^2\/2 · completed$/, { timeout: 90_000 });
  await openSubwander(page, page.locator(".react-flow__node-subwander"), childId);
  const crumbs = page.getByTestId("breadcrumb").getByRole("link");
  await expect(crumbs).toHaveCount(2);
  await page.waitForTimeout(800); // the view's move to the walk, for the picture
  await shot(page, "w07-nested-breadcrumb");
  await crumbs.first().click();
  await expect(page).toHaveURL(new RegExp(`/sessions/${s.id}$`));
  await expect(page.locator(".react-flow__node-subwander")).toHaveCount(1);
});

async function openSubwander(page: Page, node: Locator, fromId: string) {
  await reach(page, node);
  await expect(async () => {
    await node.click({ timeout: 5_000 });
    await page.waitForURL((u) => !u.pathname.endsWith(fromId), { timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
}

type Crystal = { id: string; status: string; validity: { V: number; verdict: string; type_confident?: boolean }; human_approved: boolean; structural_type: string | null };

test("crystals on the map: diamond with its attractor, the crystal panel, a person's verdict", async ({ page }) => {
  // Up to 40 crystallizations, each a rumination: on a loaded machine that outlasts the default 2 minutes.
  test.slow();
  // Every crystal waits for a person's verdict in this wander (require_crystal_approval), so one the
  // gate accepts is held for review as a marginal one is: the test needs the gate not to reject.
  const s = await createViaApi(page, {
    seed_concept: "counterfeit coins",
    max_steps: 80,
    random_seed: 17,
    human_checkpoint_frequency: 0,
    require_crystal_approval: true,
  });
  await runSteps(page, s.id, 6);
  await openMap(page, s.id);
  // "Crystallize here now" from the current locus's context menu: the result is reported on the map
  await page.locator(".react-flow__node-locus:has(.locus.is-current)").click({ button: "right" });
  await page.getByRole("menuitem", { name: "Crystallize here now" }).click();
  await expect(notice(page)).toContainText(/Crystal|No crystal/);
  // Crystallize until a crystal is held for review (the gate accepted it, or found it marginal),
  // stepping on between tries: a new current locus brings new breads and fillings, where the
  // same spot may only give sandwiches formed already or rejected.
  let review: Crystal | null = null;
  for (let i = 0; i < 40 && !review; i++) {
    const r = await page.request.post(`${API}/sessions/${s.id}/crystallize`);
    expect(r.status()).toBe(200);
    const c = (await r.json()).crystal as Crystal | null;
    if (c && c.validity.verdict === "review") review = c;
    else expect((await page.request.post(`${API}/sessions/${s.id}/step`)).status()).toBe(200);
  }
  expect(review, "the gate kept a crystal for review").not.toBeNull();
  const diamond = node(page, `crystal:${review!.id}`);
  await expect(diamond).toBeVisible();
  await expect(diamond.locator("img.crystal-thumb")).toHaveJSProperty("complete", true);
  expect(await diamond.locator("img.crystal-thumb").evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  const panel = page.getByTestId("crystal-panel");
  // The diamond sits by its breads, which may be out of the followed view or under the legend.
  await reach(page, diamond);
  await expect(async () => {
    await diamond.click({ timeout: 5_000 });
    await expect(panel).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await expect(panel.getByTestId("crystal-sandwich").locator("li")).toHaveCount(3);
  await expect(panel.getByTestId("crystal-validity")).toContainText(review!.validity.V.toFixed(3));
  for (const part of ["Bread compatibility", "Containment", "Non-triviality", "Novelty"]) await expect(panel).toContainText(part);
  // its structural type only where the classifier was confident (the crystal keeps which)
  await expect(panel.getByTestId("crystal-type")).toHaveText(review!.validity.type_confident ? `type: ${review!.structural_type}` : "no clear type");
  await expect(panel.getByTestId("crystal-rumination").locator("li").first()).toBeVisible();
  await expect(panel.getByTestId("crystal-review")).toBeVisible();
  await shot(page, "w08-crystal-panel");
  await panel.getByRole("button", { name: "Accept" }).click();
  await expect(notice(page)).toContainText("Crystal accepted");
  await expect(panel.getByTestId("crystal-review")).toHaveCount(0);
  await expect(panel.getByTestId("crystal-status")).toHaveText("accepted by a person"); // (one state, not three)
  const stored = ((await (await page.request.get(`${API}/sessions/${s.id}/crystals`)).json()) as Crystal[]).find((c) => c.id === review!.id)!;
  expect(stored.human_approved).toBe(true);
  await page.getByRole("button", { name: "Whole map" }).click();
  await page.waitForTimeout(500);
  await shot(page, "w09-crystals-on-map");
});

test("resonances: wavy edges between loci of a confirmed theme, the panel highlights them", async ({ page }) => {
  // This walk confirms a theme by itself by step 15 (so also on a fresh server, whose project
  // holds no resonances of earlier wanders to reinforce).
  const s = await createViaApi(page, { seed_concept: "insider trading", max_steps: 80, random_seed: 1, human_checkpoint_frequency: 0 });
  await runSteps(page, s.id, 30);
  await openMap(page, s.id);
  // what this wander itself emitted (resonances are project-wide; the map draws its own)
  const evs = await page.evaluate(async (id) => {
    const ws = new WebSocket(`${location.origin.replace("http", "ws")}/ws/sessions/${id}?after_seq=0`);
    const statuses: string[] = [];
    await new Promise<void>((res) => {
      ws.onmessage = (m) => {
        const f = JSON.parse(m.data as string);
        // resonances are project-wide: a theme this wander reinforces may have been confirmed
        // by another one, so look at the status each resonance event carries
        if (f.type === "event" && f.event.subject.startsWith("wander.resonance.")) statuses.push(f.event.payload.resonance.status);
        if (f.type === "caught_up") res();
      };
    });
    ws.close();
    return statuses;
  }, s.id);
  expect(evs).toContain("confirmed");
  await expect(page.locator(".react-flow__edge-path.resonance-edge").first()).toBeAttached();
  await page.getByRole("button", { name: /^Resonances/ }).click();
  // a confirmed theme with at least two loci of this wander (one reinforced here once links nothing)
  const row = page
    .getByTestId("resonance-row")
    .filter({ hasText: "confirmed" })
    .filter({ hasNotText: /\b[01] loci\b/ })
    .first();
  await row.hover();
  await expect.poll(() => page.locator(".locus.is-highlighted").count()).toBeGreaterThanOrEqual(2);
  await expect(page.locator(".resonance-edge.is-highlighted").first()).toBeAttached();
  await page.getByRole("button", { name: /^legend/ }).click(); // (closed until a person opens it)
  await expect(page.getByTestId("legend")).toContainText("resonance");
  await expect(page.getByTestId("legend")).toContainText("bridge");
  await shot(page, "w10-resonances");
});

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

type Locus = { id: string; concept: string; domains: string[]; source_type: string };
type Step = { step_number: number; from_locus_id: string; to_locus_id: string; to_concept: string };

test("bridges: a step that crossed domains is drawn as a double line", async ({ page }) => {
  const s = await createViaApi(page, { seed_concept: "harbour pilot", max_steps: 40, random_seed: 21, human_checkpoint_frequency: 0 });
  await runSteps(page, s.id, 10);
  const loci = new Map(((await (await page.request.get(`${API}/sessions/${s.id}/loci`)).json()) as Locus[]).map((l) => [l.id, l]));
  const trace = (await (await page.request.get(`${API}/sessions/${s.id}/trace`)).json()) as Step[];
  // the rule of 001: a step whose two loci share no domain crossed domains
  const crossed = trace
    .filter((t) => {
      const a = loci.get(t.from_locus_id)!.domains;
      const b = loci.get(t.to_locus_id)!.domains;
      return a.length > 0 && b.length > 0 && !a.some((d) => b.includes(d));
    })
    .map((t) => t.step_number);
  expect(crossed.length, "this walk crosses domains").toBeGreaterThan(0);
  await openMap(page, s.id);
  await expect(page.locator(".react-flow__edge-path.path-edge")).toHaveCount(10);
  const bridges = page.locator(".react-flow__edge-path.path-edge.is-bridge");
  await expect(bridges).toHaveCount(crossed.length);
  for (const n of crossed) {
    const edge = page.locator(`.react-flow__edge[data-id="path:${n}"] .react-flow__edge-path`);
    await expect(edge).toHaveClass(/is-bridge/);
    // two rails: the path has two separate sub-paths
    expect(((await edge.getAttribute("d")) ?? "").match(/M/g)).toHaveLength(2);
  }
  const straight = trace.map((t) => t.step_number).find((n) => !crossed.includes(n))!;
  await expect(page.locator(`.react-flow__edge[data-id="path:${straight}"] .react-flow__edge-path`)).not.toHaveClass(/is-bridge/);
  await stopFollowing(page);
  await shot(page, "w14-bridge-edges");
});

test("reject a crystal kept for review: the verdict is recorded through the API", async ({ page }) => {
  // Up to 40 crystallizations, each a rumination: on a loaded machine that outlasts the default 2 minutes.
  test.slow();
  // every crystal waits for a person's verdict here, so any the gate does not reject is kept for review
  const s = await createViaApi(page, {
    seed_concept: "forged letters",
    max_steps: 80,
    random_seed: 22,
    human_checkpoint_frequency: 0,
    require_crystal_approval: true,
  });
  await runSteps(page, s.id, 6);
  await openMap(page, s.id);
  let review: Crystal | null = null;
  for (let i = 0; i < 40 && !review; i++) {
    const r = await page.request.post(`${API}/sessions/${s.id}/crystallize`);
    expect(r.status()).toBe(200);
    const c = (await r.json()).crystal as Crystal | null;
    if (c && c.validity.verdict === "review") review = c;
    else expect((await page.request.post(`${API}/sessions/${s.id}/step`)).status()).toBe(200);
  }
  expect(review, "the gate kept a crystal for review").not.toBeNull();
  const diamond = node(page, `crystal:${review!.id}`);
  await expect(diamond).toBeVisible();
  const panel = page.getByTestId("crystal-panel");
  await reach(page, diamond);
  await expect(async () => {
    await diamond.click({ timeout: 5_000 });
    await expect(panel.getByTestId("crystal-review")).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await panel.getByRole("button", { name: "Reject" }).click();
  await expect(notice(page)).toContainText("Crystal rejected");
  await expect(panel.getByTestId("crystal-review")).toHaveCount(0);
  const stored = ((await (await page.request.get(`${API}/sessions/${s.id}/crystals`)).json()) as Crystal[]).find((c) => c.id === review!.id);
  expect(stored, "the rejected crystal is still listed").toBeDefined();
  expect(stored!.status).toBe("invalidated");
  expect(stored!.human_approved).toBe(false);
  // a second verdict is refused: the first one was recorded
  const again = await page.request.post(`${API}/crystals/${review!.id}/review`, { data: { verdict: "accept" } });
  expect(again.status()).toBe(409);
  await shot(page, "w15-crystal-rejected");
});

test("drag an existing locus onto the current locus: planted as a hint", async ({ page }) => {
  const s = await createViaApi(page, { seed_concept: "tide tables", max_steps: 40, random_seed: 23, human_checkpoint_frequency: 0 });
  await runSteps(page, s.id, 3);
  await openMap(page, s.id);
  await stopFollowing(page);
  const seed = page.locator(".react-flow__node-locus:has(.locus.is-seed)");
  const concept = (await seed.locator(".locus").getAttribute("data-concept"))!;
  const current = page.locator(".react-flow__node-locus:has(.locus.is-current)");
  await expect(current.locator(".locus")).not.toHaveAttribute("data-concept", concept);
  await drag(page, seed, await centreOf(current));
  await expect(notice(page)).toHaveAttribute("data-kind", "ok");
  await expect(notice(page)).toContainText(`“${concept}” planted as a hint`);
  const hinted = page.locator(`.locus.is-hint[data-concept="${concept}"]`);
  await expect(hinted).toHaveCount(1);
  await expect(hinted.getByTestId("hint-marker")).toBeVisible();
  // one locus per concept: the hint is the seed itself (it goes back to its place), not a second node
  const loci = (await (await page.request.get(`${API}/sessions/${s.id}/loci`)).json()) as Locus[];
  expect(loci.filter((l) => l.concept === concept).map((l) => l.source_type)).toEqual(["SEED"]);
  await expect(page.locator(`.locus[data-concept="${concept}"]`)).toHaveCount(1);
  await expect(seed.locator(".locus")).toHaveClass(/is-hint/);
  await stopFollowing(page);
  await shot(page, "w16-drag-locus-to-hint");
});

test("right click a locus, go here next: the next step arrives there", async ({ page }) => {
  const s = await createViaApi(page, { seed_concept: "lighthouse keeper", max_steps: 40, random_seed: 24, human_checkpoint_frequency: 0 });
  await runSteps(page, s.id, 4);
  await openMap(page, s.id);
  const target = page.locator(".react-flow__node-locus").nth(1);
  const concept = (await target.locator(".locus").getAttribute("data-concept"))!;
  expect(await currentConcept(page)).not.toBe(concept);
  await target.click({ button: "right" });
  await expect(page.getByTestId("locus-menu")).toBeVisible();
  await page.getByRole("menuitem", { name: "Go here next" }).click();
  await expect(notice(page)).toHaveAttribute("data-kind", "ok");
  await expect(notice(page)).toContainText(`The next step goes to “${concept}”`);
  await page.getByRole("button", { name: "Step", exact: true }).click();
  await expect.poll(() => currentConcept(page)).toBe(concept);
  const trace = (await (await page.request.get(`${API}/sessions/${s.id}/trace`)).json()) as Step[];
  expect(trace.at(-1)).toMatchObject({ step_number: 5, to_concept: concept });
  await page.waitForTimeout(500);
  await shot(page, "w17-context-go-here-next");
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
