// Starts the real `wander serve` on a free port, on this run's copy of the suite's pristine
// data folder (home.ts), and waits for /api/v1/health.
import { existsSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { e2eRoot, runHome } from "./home";
import { describe, ensureBrowser } from "./scripts/browser.mjs";
import { ROOT, startServer } from "./server";

export { ROOT } from "./server";
export { e2eHome } from "./home";

const here = dirname(fileURLToPath(import.meta.url));
// One per test run (global setup and teardown run in the runner's process): two runs in one
// checkout at once each stop their own server, never the other's.
export const STATE_FILE = join(here, `.server.${process.pid}.json`);

export default async function globalSetup(): Promise<void> {
  console.log(`[e2e] browser: ${describe(await ensureBrowser())}`);
  if (process.env.WANDER_E2E_URL) {
    console.log(`[e2e] using the server at ${process.env.WANDER_E2E_URL}`);
    return;
  }
  const wander = process.env.WANDER_BIN ?? join(ROOT, ".venv", "bin", "wander");
  if (!existsSync(wander)) throw new Error(`${wander} not found: run \`make setup\` first`);
  if (!existsSync(join(ROOT, "frontend", "dist", "index.html"))) throw new Error("frontend/dist is missing: npm run build -w frontend");
  const home = await runHome();
  const logPath = join(e2eRoot(), "e2e-server.log");
  console.log(`[e2e] starting wander serve (WANDER_HOME=${home}, a copy of the pristine data folder; log ${logPath})`);
  const server = await startServer(home, logPath);
  console.log(`[e2e] wander serve is up on ${server.url} after ${server.startedS.toFixed(1)} s`);
  writeFileSync(STATE_FILE, JSON.stringify({ pid: server.pid, url: server.url, home }));
  process.env.WANDER_E2E_URL = server.url;
  process.env.WANDER_E2E_SERVER_HOME = home;
}
