import { defineConfig } from "@playwright/test";
import { chosenBrowser } from "./scripts/browser.mjs";

// Real headless Chromium: CHROMIUM_PATH, else a system /usr/bin/chromium, else the one the
// @sparticuz/chromium devDependency ships (global-setup unpacks it and says which one is
// used); never `playwright install`, never a download.
const executablePath = chosenBrowser().path;

export default defineConfig({
  testDir: "./tests",
  globalSetup: "./global-setup.ts",
  globalTeardown: "./global-teardown.ts",
  timeout: 120_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  workers: 1,
  // One retry under CI: a browser test beside pytest on two cores sometimes loses a race a
  // person would simply retry. A retried pass is reported as flaky (and by the recap that
  // `make test` prints), never hidden; a real defect fails both tries.
  retries: process.env.CI ? 1 : 0,
  // the JSON report feeds scripts/failure-recap.mjs
  reporter: [["list"], ["json", { outputFile: "test-results/results.json" }]],
  outputDir: "test-results",
  use: {
    baseURL: process.env.WANDER_E2E_URL, // set by global-setup
    viewport: { width: 1440, height: 900 },
    // The page as a person who asks their system for less motion sees it (styles.css): the
    // current locus's pulse, the running badge's breathing and the flowing resonance edges
    // would otherwise keep the compositor drawing frames for as long as a page is open (the
    // browser's renderer and GPU processes took 139 CPU-s over the suite with motion, 91 without).
    // No test looks at an animation; each still sees every element, class and state.
    reducedMotion: "reduce",
    trace: "off",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
});
