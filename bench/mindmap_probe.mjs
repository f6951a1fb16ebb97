// Browser side of bench_mindmap.py: real Chromium through Playwright. Prints READY-LIVE when
// the map has caught up (the Python side then publishes live steps and answers "done"),
// then one JSON line of figures.
import { chromium } from "@playwright/test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { ensureBrowser } from "../e2e/scripts/browser.mjs";

const [url, sid, nStr] = process.argv.slice(2);
const N = Number(nStr);
// nearest rank: the smallest sample with at least p% of the samples at or below it (the
// former floor(p * n) index made the p95 of 20 samples their maximum)
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.max(0, Math.ceil((p / 100) * s.length) - 1)] : NaN;
};

// (the browser the e2e suite drives: CHROMIUM_PATH, a system one, else the packaged one)
const browser = await chromium.launch({ executablePath: (await ensureBrowser()).path, args: ["--no-sandbox", "--disable-gpu"] });
const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
// record when each event frame arrives, and when each locus node enters the DOM
await page.addInitScript(() => {
  window.__frameAt = {};
  window.__nodeAt = {};
  const Orig = window.WebSocket;
  window.WebSocket = class extends Orig {
    constructor(...a) {
      super(...a);
      this.addEventListener("message", (m) => {
        window.__lastFrame = performance.now();
        const f = JSON.parse(m.data);
        (window.__frameLog ??= []).push([Math.round(window.__lastFrame), f.type, f.type === "events" ? f.events.length : 1]);
        if (f.type === "event" && f.event.subject === "wander.step.completed") window.__frameAt[f.event.payload.to_locus.id] = performance.now();
      });
    }
  };
  new MutationObserver((muts) => {
    const t = performance.now();
    for (const m of muts)
      for (const n of m.addedNodes)
        if (n.nodeType === 1 && n.classList?.contains("react-flow__node-locus")) {
          const id = n.getAttribute("data-id");
          if (id && !(id in window.__nodeAt)) {
            window.__nodeAt[id] = t;
            // (diagnostic: the view's transform when it came, to tell steps the view jumped for)
            window.__viewAt ??= {};
            window.__viewAt[id] = document.querySelector(".react-flow__viewport")?.style.transform ?? "";
          }
        }
  }).observe(document, { childList: true, subtree: true });
  // the graph's size at each animation frame where it changed, and frames longer than 50 ms
  window.__sizeLog = [];
  let size = -1;
  let last = 0;
  const watch = (t) => {
    const n = window.__wanderGraphSize?.() ?? -1;
    if (n !== size || t - last > 50) window.__sizeLog.push([Math.round(t), n, Math.round(t - last), document.querySelectorAll(".react-flow__node").length]);
    size = n;
    last = t;
    if (!window.__stopWatch) requestAnimationFrame(watch);
  };
  requestAnimationFrame(watch);
});

// MINDMAP_PROFILE=file.json: a CPU profile (Chrome DevTools protocol) of each phase, to
// find where the time goes (file.catchup.json, file.pan.json, file.live.json).
const profileTo = process.env.MINDMAP_PROFILE;
const cdp = profileTo ? await page.context().newCDPSession(page) : null;
if (cdp) await cdp.send("Profiler.enable");
// MINDMAP_TRACE=file.json: a Chromium trace (style, layout, paint as well as script) instead;
// MINDMAP_TRACE_CATS: its categories, comma-separated (raster and compositing are under "cc").
const traceTo = process.env.MINDMAP_TRACE;
const profile = async (phase, body) => {
  if (cdp) await cdp.send("Profiler.start");
  if (traceTo) await browser.startTracing(page, { path: traceTo.replace(/\.json$/, `.${phase}.json`), categories: (process.env.MINDMAP_TRACE_CATS ?? "devtools.timeline").split(",") });
  await body();
  if (traceTo) await browser.stopTracing();
  if (cdp) writeFileSync(profileTo.replace(/\.json$/, `.${phase}.json`), JSON.stringify((await cdp.send("Profiler.stop")).profile));
};

const out = {};
// the figures so far, as one JSON line (bench_mindmap.py prints each): a phase that fails
// later (a 20,000-locus page too busy for a screenshot) keeps what came before it
const emit = () => {
  if (Object.keys(out).length) console.log(JSON.stringify(out));
  for (const k of Object.keys(out)) delete out[k];
};
// the page's JavaScript heap in use (MB), as Chromium's performance metrics give it
const metrics = await page.context().newCDPSession(page);
await metrics.send("Performance.enable");
const heapMb = async () => {
  await metrics.send("HeapProfiler.collectGarbage").catch(() => {});
  const { metrics: m } = await metrics.send("Performance.getMetrics");
  return (m.find((x) => x.name === "JSHeapUsedSize")?.value ?? NaN) / 1e6;
};
// a screenshot that does not come within its time is said on stderr, not a failure
const tryShot = (body) => body.catch((e) => console.error("screenshot skipped:", String(e).split("\n")[0]));
// CPU seconds of the browser's processes (the page's main thread, its layout worker, the
// network and GPU processes; Linux /proc, NaN elsewhere): steadier than wall time on a
// loaded machine
const browserCpu = () => {
  try {
    const stats = new Map();
    for (const pid of readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
        stats.set(Number(pid), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) });
      } catch {
        // (a process that ended meanwhile)
      }
    }
    // (the browser is this process's child: its processes are our descendants)
    const mine = new Set([process.pid]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const [pid, st] of stats) if (!mine.has(pid) && mine.has(st.ppid)) grew = mine.add(pid) !== null;
    }
    let ticks = 0;
    for (const pid of mine) if (pid !== process.pid) ticks += stats.get(pid)?.ticks ?? 0;
    return ticks / 100; // (USER_HZ: 100 on Linux)
  } catch {
    return NaN;
  }
};
const cpu0 = browserCpu();
const t0 = Date.now();
await profile("catchup", async () => {
  await page.goto(`${url}/sessions/${sid}`);
  await page.waitForFunction((n) => window.__wanderGraphSize?.() >= n + 1, N, { timeout: 600_000, polling: 50 });
  // and drawn: the canvas holds them all
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid="far-canvas"]')?.dataset.loci ?? 0) >= n + 1, N, { timeout: 600_000, polling: 50 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
});
out.mindmap_catchup_ms = Date.now() - t0;
out.mindmap_catchup_browser_cpu_ms = (browserCpu() - cpu0) * 1000;
// diagnostic: when the replay's last frame reached the page (ms after navigation): the rest of
// the catch-up is the page's own work
out.mindmap_catchup_last_frame_ms = await page.evaluate(() => window.__lastFrame ?? NaN);
// MINDMAP_DEBUG=1: the catch-up's timeline on stderr: frames [ms, type, events] and the
// graph's size per animation frame [ms, loci, frame interval, React Flow nodes in the DOM]
// (changes and long frames)
const timeline = await page.evaluate(() => {
  window.__stopWatch = true;
  return { frames: window.__frameLog, sizes: window.__sizeLog, nav: performance.timing.navigationStart };
});
if (process.env.MINDMAP_DEBUG) console.error("catch-up", JSON.stringify(timeline), "navigation asked at", t0);
// MINDMAP_CATCHUP_ONLY=1: the catch-up's figures only (for comparing builds run after run)
if (process.env.MINDMAP_CATCHUP_ONLY) {
  emit();
  await browser.close();
  process.exit(0);
}

// MINDMAP_SHOT=file.png: a screenshot of the map once caught up (to check the picture), and
// file.far.png of the whole map (the far canvas), file.live.png after the live steps (following)
const shotTo = process.env.MINDMAP_SHOT;
const shot = (tag) => (shotTo ? tryShot(page.screenshot({ path: tag ? shotTo.replace(/\.png$/, `.${tag}.png`) : shotTo, timeout: 60_000 })) : null);
await shot("");

// MINDMAP_MODE=during_run (bench_mindmap.py --during-run): the pan while a run streams at
// full speed, over the whole map; then the figures, and nothing else.
const DURING_RUN = process.env.MINDMAP_MODE === "during_run";

// pan: drag the pane while counting frame intervals; first over the whole map, then close in
const box = await page.getByTestId("mindmap").boundingBox();
const cx = box.x + box.width / 2;
const cy = box.y + box.height / 2;
// A point near (x, y) where a press grabs the pane, not a locus (a locus under the pointer is
// a node: pressed, it would be dragged rather than the view).
const onPane = async (x, y) => {
  for (let r = 0; r < 200; r += 12)
    for (const [dx, dy] of [[r, 0], [-r, 0], [0, r], [0, -r], [r, r], [-r, -r], [r, -r], [-r, r]]) {
      await page.mouse.move(x + dx, y + dy);
      const free = await page.evaluate(
        ([px, py]) => new Promise((ok) => requestAnimationFrame(() => {
          const hit = document.elementFromPoint(px, py);
          ok(!!hit?.closest(".react-flow__pane") && !hit.closest(".react-flow__node"));
        })),
        [x + dx, y + dy],
      );
      if (free) return [x + dx, y + dy];
    }
  return [x, y];
};
// (frames are counted only while the pane is held, not while a place to press is looked for,
// and the first two after each press are left out; `sweep`: three long drags the same way,
// 1,080 px each, so that the view keeps leaving the area the canvas has drawn)
const panFrames = async (phase, sweep = false) => {
  await page.evaluate(() => {
    window.__frames = [];
    window.__held = 0;
    let last = performance.now();
    const tick = (t) => {
      if (window.__held > 0 && window.__held++ > 2) window.__frames.push(t - last);
      last = t;
      if (window.__panning) requestAnimationFrame(tick);
    };
    window.__panning = true;
    requestAnimationFrame(tick);
  });
  const drag = async (x, y, path) => {
    await page.mouse.down();
    await page.evaluate(() => (window.__held = 1));
    for (const [dx, dy] of path) await page.mouse.move(x + dx, y + dy);
    await page.mouse.up();
    await page.evaluate(() => (window.__held = 0));
  };
  await profile(phase, async () => {
    if (sweep)
      for (let k = 0; k < 3; k++) {
        const [x, y] = await onPane(cx + 540, cy);
        await drag(x, y, Array.from({ length: 120 }, (_, i) => [-9 * (i + 1), 0]));
      }
    else {
      const [x, y] = await onPane(cx, cy);
      await drag(x, y, Array.from({ length: 120 }, (_, i) => [250 * Math.sin(i / 12), 150 * Math.cos(i / 15)]));
    }
  });
  return page.evaluate(() => {
    window.__panning = false;
    return window.__frames;
  });
};
const zoom = () =>
  page.evaluate(() => Number(/scale\(([^)]+)\)/.exec(document.querySelector(".react-flow__viewport").style.transform)?.[1]));
await page.getByRole("button", { name: "Whole map" }).click();
await page.waitForTimeout(800);
if (DURING_RUN) {
  // the Python side streams steps until it reads "stop"; the pan starts once they flow
  const rl = createInterface({ input: process.stdin });
  const lines = rl[Symbol.asyncIterator]();
  console.log("READY-STREAM");
  const before = await page.evaluate(() => window.__wanderGraphSize?.() ?? 0);
  await page.waitForFunction((n) => (window.__wanderGraphSize?.() ?? 0) > n + 20, before, { timeout: 60_000, polling: 20 });
  const t = Date.now();
  const at = await page.evaluate(() => window.__wanderGraphSize?.() ?? 0);
  // three passes of the same drag, so that the p95 is of some hundreds of frames
  const streamed = [];
  for (let k = 0; k < 3; k++) streamed.push(...(await panFrames(`pan-during-run-${k}`)));
  const after = await page.evaluate(() => window.__wanderGraphSize?.() ?? 0);
  const secs = (Date.now() - t) / 1000;
  console.log("STOP-STREAM");
  await lines.next(); // "stopped"
  await shot("during-run");
  out.mindmap_pan_during_run_ms_per_frame_p50 = pct(streamed, 50);
  out.mindmap_pan_during_run_ms_per_frame_p95 = pct(streamed, 95);
  out.mindmap_pan_during_run_frame_samples = streamed.length;
  out.mindmap_pan_during_run_steps_per_s = (after - at) / secs;
  out.mindmap_pan_during_run_loci = after;
  delete out.mindmap_catchup_last_frame_ms;
  console.log(JSON.stringify(out));
  rl.close();
  await browser.close();
  process.exit(0);
}
out.mindmap_heap_mb = await heapMb();
emit();
await shot("far");
const frames = await panFrames("pan");
out.mindmap_pan_ms_per_frame_p50 = pct(frames, 50);
out.mindmap_pan_ms_per_frame_p95 = pct(frames, 95);
// close in, on the middle of the loci (the map's bench hook: the same view run after run).
// A large map draws its loci on a canvas at every zoom (React Flow holds the marked ones):
// - near: at 0.46, just past the zoom labels come at (0.45), where the canvas draws the most;
// - mid: at 0.35, where the loci were React Flow nodes before (about 2,000 in the DOM: p95
//   100-170 ms a frame);
// - sweep: at 0.46 too, with long drags (see panFrames) that make the canvas redraw.
// Each also gives how long the canvas took to draw the view, and how often and how long at
// most it was redrawn during the pan (when the view leaves the area drawn).
// MINDMAP_NEAR_ZOOM="0.5,1.2": these zooms instead, each with its own lines (near_at_<zoom>).
const views = process.env.MINDMAP_NEAR_ZOOM
  ? process.env.MINDMAP_NEAR_ZOOM.split(",").map((z) => [`near_at_${z}`, Number(z)])
  : [["near", 0.46], ["mid", 0.35], ["sweep", 0.46, true]];
for (const [name, z, sweep] of views) {
  await page.evaluate((zz) => window.__wanderViewMiddle(zz), z);
  await page.waitForTimeout(800);
  // (until the nodes around the view are mounted: the same count three times running)
  let counts = [];
  for (let i = 0; i < 25 && !(counts.length >= 3 && counts.slice(-3).every((c) => c === counts.at(-1))); i++) {
    counts.push(await page.locator(".react-flow__node").count());
    await page.waitForTimeout(200);
  }
  out[`mindmap_pan_${name}_zoom`] = await zoom();
  out[`mindmap_pan_${name}_nodes_in_dom`] = counts.at(-1);
  out[`mindmap_pan_${name}_canvas_draw_ms`] = await page.evaluate(() => performance.getEntriesByName("wander:far-draw").at(-1)?.duration ?? NaN);
  await shot(name);
  await page.evaluate(() => performance.clearMeasures("wander:far-draw"));
  const near = await panFrames(`pan-${name}`, sweep);
  const draws = await page.evaluate(() => performance.getEntriesByName("wander:far-draw").map((m) => m.duration));
  out[`mindmap_pan_${name}_redraws`] = draws.length;
  out[`mindmap_pan_${name}_redraw_max_ms`] = draws.length ? Math.max(...draws) : 0;
  out[`mindmap_pan_${name}_ms_per_frame_p50`] = pct(near, 50);
  out[`mindmap_pan_${name}_ms_per_frame_p95`] = pct(near, 95);
}
emit();

// MINDMAP_INTERACT=1: check on stderr, close in, that the loci on the canvas answer a person:
// hovered they become nodes; a click selects, a shift-click compares, a right-click opens
// the menu, a drag pins
if (process.env.MINDMAP_INTERACT) {
  const say = (...a) => console.error("interact:", ...a);
  await page.evaluate(() => window.__wanderViewMiddle(1));
  await page.waitForTimeout(800);
  const nodeAt = (x, y) => page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.closest(".react-flow__node-locus")?.getAttribute("data-id") ?? null, [x, y]);
  const hover = async (skip) => {
    for (let y = box.y + 200; y < box.y + box.height - 200; y += 15)
      for (let x = box.x + 300; x < box.x + box.width - 400; x += 15) {
        await page.mouse.move(x, y);
        const id = await nodeAt(x, y);
        if (id && !skip.includes(id)) return { id, x, y, concept: await page.locator(`[data-id="${id}"] .locus`).getAttribute("data-concept") };
      }
    return null;
  };
  const inDom = await page.locator(".react-flow__node-locus").count();
  const a = await hover([]);
  say("hovered a locus becomes a node", !!a, "nodes before", inDom, "after", await page.locator(".react-flow__node-locus").count());
  await page.mouse.click(a.x, a.y);
  say("click selects it", (await page.getByTestId("locus-concept").textContent()) === a.concept);
  const b = await hover([a.id]);
  await page.keyboard.down("Shift");
  await page.mouse.click(b.x, b.y);
  await page.keyboard.up("Shift");
  say("shift-click compares", await page.getByTestId("compare-panel").isVisible());
  const c = await hover([a.id, b.id]);
  await page.mouse.click(c.x, c.y, { button: "right" });
  say("right-click opens the menu", await page.getByRole("menuitem", { name: /Go deeper/ }).isVisible());
  await page.keyboard.press("Escape");
  const d = await hover([a.id, b.id, c.id]);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) await page.mouse.move(d.x + 8 * i, d.y + 5 * i);
  await page.mouse.up();
  await page.waitForTimeout(300);
  say("drag pins it", ((await page.getByTestId("command-result").textContent().catch(() => "")) ?? "").includes("Pinned"));
  await page.mouse.move(box.x + 5, box.y + box.height - 5);
}

// live steps: follow the walk so each new locus is in view, then let Python publish
await page.getByRole("button", { name: /Fit & follow|Following/ }).click();
await page.waitForTimeout(500);
// the loci of the live steps: those whose frame comes after this point
await page.evaluate(() => (window.__beforeLive = new Set(Object.keys(window.__frameAt))));
console.log("READY-LIVE");
const rl = createInterface({ input: process.stdin });
await profile("live", async () => {
  for await (const line of rl) if (line.trim() === "done") break;
  await page.waitForTimeout(1500);
});
await shot("live");
// (a locus already in the DOM before its frame, or never drawn, has no sample)
const live = await page.evaluate(() =>
  Object.entries(window.__frameAt)
    .filter(([id]) => !window.__beforeLive.has(id) && id in window.__nodeAt)
    .map(([id, t]) => window.__nodeAt[id] - t),
);
out.event_to_dom_ms_p50 = pct(live, 50);
out.event_to_dom_ms_p95 = pct(live, 95);
out.event_to_dom_samples = live.length;
// the heap once the live steps are in (the most of the run: the map at its largest)
out.mindmap_heap_after_live_mb = await heapMb();
// MINDMAP_DEBUG=1: each live latency (ms) and how many live frames came, on stderr
if (process.env.MINDMAP_DEBUG) console.error("live latencies", live.map(Math.round).join(" "), await page.evaluate(() => Object.keys(window.__frameAt).filter((id) => !window.__beforeLive.has(id)).length));
// MINDMAP_DEBUG=1: each live latency with "J" where the view had moved since the step before
if (process.env.MINDMAP_DEBUG)
  console.error(
    "live by view",
    await page.evaluate(() => {
      let prev = null;
      return Object.entries(window.__frameAt)
        .filter(([id]) => !window.__beforeLive.has(id) && id in window.__nodeAt)
        .map(([id, t]) => {
          const v = window.__viewAt?.[id];
          const s = `${Math.round(window.__nodeAt[id] - t)}${prev !== null && v !== prev ? "J" : ""}`;
          prev = v;
          return s;
        })
        .join(" ");
    }),
  );
emit();
rl.close();
await browser.close();
