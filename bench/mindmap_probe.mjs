// Browser side of bench_mindmap.py: real Chromium through Playwright. Prints READY-LIVE when
// the map has caught up (the Python side then publishes live steps and answers "done"),
// then one JSON line of figures.
import { chromium } from "@playwright/test";
import { writeFileSync } from "node:fs";
import { createInterface } from "node:readline";

const [url, sid, nStr] = process.argv.slice(2);
const N = Number(nStr);
// nearest rank: the smallest sample with at least p% of the samples at or below it (the
// former floor(p * n) index made the p95 of 20 samples their maximum)
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.max(0, Math.ceil((p / 100) * s.length) - 1)] : NaN;
};

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
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
// MINDMAP_TRACE=file.json: a Chromium trace (style, layout, paint as well as script) instead.
const traceTo = process.env.MINDMAP_TRACE;
const profile = async (phase, body) => {
  if (cdp) await cdp.send("Profiler.start");
  if (traceTo) await browser.startTracing(page, { path: traceTo.replace(/\.json$/, `.${phase}.json`), categories: ["devtools.timeline"] });
  await body();
  if (traceTo) await browser.stopTracing();
  if (cdp) writeFileSync(profileTo.replace(/\.json$/, `.${phase}.json`), JSON.stringify((await cdp.send("Profiler.stop")).profile));
};

const out = {};
const t0 = Date.now();
await profile("catchup", async () => {
  await page.goto(`${url}/sessions/${sid}`);
  await page.waitForFunction((n) => window.__wanderGraphSize?.() >= n + 1, N, { timeout: 600_000, polling: 50 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
});
out.mindmap_catchup_ms = Date.now() - t0;
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

// MINDMAP_SHOT=file.png: a screenshot of the map once caught up (to check the picture), and
// file.far.png of the whole map (the far canvas), file.live.png after the live steps (following)
const shotTo = process.env.MINDMAP_SHOT;
const shot = (tag) => (shotTo ? page.screenshot({ path: tag ? shotTo.replace(/\.png$/, `.${tag}.png`) : shotTo }) : null);
await shot("");

// pan: drag the pane while counting frame intervals; first over the whole map (the far
// canvas draws it), then close in, where the loci are React Flow nodes in the DOM
const box = await page.getByTestId("mindmap").boundingBox();
const cx = box.x + box.width / 2;
const cy = box.y + box.height / 2;
const panFrames = async (phase) => {
  await page.evaluate(() => {
    window.__frames = [];
    let last = performance.now();
    const tick = (t) => {
      window.__frames.push(t - last);
      last = t;
      if (window.__panning) requestAnimationFrame(tick);
    };
    window.__panning = true;
    requestAnimationFrame(tick);
  });
  await profile(phase, async () => {
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    for (let i = 0; i < 120; i++) await page.mouse.move(cx + 250 * Math.sin(i / 12), cy + 150 * Math.cos(i / 15));
    await page.mouse.up();
  });
  return page.evaluate(() => {
    window.__panning = false;
    return window.__frames.slice(2);
  });
};
const zoom = () =>
  page.evaluate(() => Number(/scale\(([^)]+)\)/.exec(document.querySelector(".react-flow__viewport").style.transform)?.[1]));
await page.getByRole("button", { name: "Whole map" }).click();
await page.waitForTimeout(800);
await shot("far");
const frames = await panFrames("pan");
out.mindmap_pan_ms_per_frame_p50 = pct(frames, 50);
out.mindmap_pan_ms_per_frame_p95 = pct(frames, 95);
// close in: zoom on the middle of the map to just past the far canvas (0.3), where the
// most loci are nodes at once (labels come at 0.45), and drag there
// (the map's bench hook: zoom 0.35 on the middle of the loci, the same view run after run)
await page.evaluate(() => window.__wanderViewMiddle(0.35));
await page.waitForTimeout(800);
out.mindmap_pan_near_zoom = await zoom();
out.mindmap_pan_near_nodes_in_dom = await page.locator(".react-flow__node").count();
await shot("near");
const near = await panFrames("pan-near");
out.mindmap_pan_near_ms_per_frame_p50 = pct(near, 50);
out.mindmap_pan_near_ms_per_frame_p95 = pct(near, 95);

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
console.log(JSON.stringify(out));
rl.close();
await browser.close();
