// The workbench, the map's view: a dragged locus stays pinned, bridges drawn as double lines,
// resonances as wavy edges (the whole map in one click: largemap.spec.ts, on the shared large wander).
// In real Chromium against `wander serve`, with a screenshot in e2e/screenshots/.
import { API, createViaApi, expect, openMap, runSteps, shot, test } from "./helpers";
import { centreOf, drag, type Locus, node, notice, type Step, stopFollowing } from "./mapActions";

test.describe.configure({ mode: "serial" });

test("drag a locus elsewhere: it stays pinned there, also after a reload", async ({ page }) => {
  const s = await createViaApi(page, { seed_concept: "lighthouse keeper", max_steps: 40, random_seed: 13, human_checkpoint_frequency: 0 });
  await runSteps(page, s.id, 4);
  const loci = ((await (await page.request.get(`${API}/sessions/${s.id}/loci`)).json()) as unknown[]).length;
  await openMap(page, s.id);
  // every locus drawn first: the map lays out its backlog in stages and "Whole map" fits each,
  // so a view read as still between two stages glided on under the press (CI: the drag panned
  // the pane and no pin was made)
  await expect(page.locator(".react-flow__node-locus")).toHaveCount(loci);
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
