// Starts the real `wander serve` on a free port with a persistent WANDER_HOME (the concept
// corpus is loaded into its database once, on the first start) and waits for /api/v1/health.
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, ensureBrowser } from "./scripts/browser.mjs";

const here = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(here, "..");
// One per test run (global setup and teardown run in the runner's process): two runs in one
// checkout at once each stop their own server, never the other's.
export const STATE_FILE = join(here, `.server.${process.pid}.json`);

/** The data folder `wander serve` runs on for the suite (its embedded Postgres, its
 * embedded corpus); a spec that starts a second server uses the same one, or that server
 * would embed the whole corpus again before it answers. */
export function e2eHome(): string {
  return process.env.WANDER_E2E_HOME ?? join(tmpdir(), "wander-e2e-home");
}

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", rej);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => res(port));
    });
  });
}

async function waitHealthy(url: string, timeoutMs: number, alive: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    if (!alive()) throw new Error(`wander serve exited before it was healthy (${last})`);
    try {
      const res = await fetch(`${url}/api/v1/health`);
      if (res.status === 200) return;
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`wander serve was not healthy after ${timeoutMs / 1000} s (${last})`);
}

export default async function globalSetup(): Promise<void> {
  console.log(`[e2e] browser: ${describe(await ensureBrowser())}`);
  if (process.env.WANDER_E2E_URL) {
    console.log(`[e2e] using the server at ${process.env.WANDER_E2E_URL}`);
    return;
  }
  const wander = process.env.WANDER_BIN ?? join(ROOT, ".venv", "bin", "wander");
  if (!existsSync(wander)) throw new Error(`${wander} not found: run \`make setup\` first`);
  if (!existsSync(join(ROOT, "frontend", "dist", "index.html"))) throw new Error("frontend/dist is missing: npm run build -w frontend");
  const home = e2eHome();
  mkdirSync(home, { recursive: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const logPath = join(home, "e2e-server.log");
  const log = createWriteStream(logPath, { flags: "a" });
  console.log(`[e2e] starting wander serve on ${url} (WANDER_HOME=${home}; log ${logPath}); a first start loads the corpus with its shipped vectors`);
  const child = spawn(wander, ["serve", "--host", "127.0.0.1", "--port", String(port)], {
    cwd: ROOT,
    env: { ...process.env, WANDER_HOME: home },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // its own process group, so teardown stops it and its children
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  let exited = false;
  child.on("exit", () => (exited = true));
  const started = Date.now();
  try {
    await waitHealthy(url, 600_000, () => !exited);
  } catch (err) {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      /* gone */
    }
    throw err;
  }
  console.log(`[e2e] wander serve is up after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  child.unref();
  (child.stdout as NodeJS.ReadableStream & { unref?: () => void }).unref?.();
  (child.stderr as NodeJS.ReadableStream & { unref?: () => void }).unref?.();
  writeFileSync(STATE_FILE, JSON.stringify({ pid: child.pid, url, home }));
  process.env.WANDER_E2E_URL = url;
}
