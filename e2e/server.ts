// Starting and stopping the real `wander serve` the suite runs against.
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

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

/** `wander serve` on a free port with WANDER_HOME=home, healthy; its output goes to
 * LOGPATH. Its own process group, so a stop reaches its children too. */
export async function startServer(home: string, logPath: string): Promise<{ pid: number; url: string; startedS: number }> {
  const wander = process.env.WANDER_BIN ?? join(ROOT, ".venv", "bin", "wander");
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const log = createWriteStream(logPath, { flags: "a" });
  const child = spawn(wander, ["serve", "--host", "127.0.0.1", "--port", String(port)], {
    cwd: ROOT,
    env: { ...process.env, WANDER_HOME: home },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
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
  child.unref();
  (child.stdout as NodeJS.ReadableStream & { unref?: () => void }).unref?.();
  (child.stderr as NodeJS.ReadableStream & { unref?: () => void }).unref?.();
  return { pid: child.pid!, url, startedS: (Date.now() - started) / 1000 };
}

/** Is the process `pid` still running? */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitGone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
  return !alive(pid);
}

/** Ctrl+C: `wander serve` shuts down cleanly and stops its embedded Postgres (on SIGTERM it
 * exits without that cleanup and leaves Postgres running). Escalates only if needed, to the
 * server's own process group. True if it stopped on Ctrl+C. */
export async function stopServer(pid: number): Promise<boolean> {
  if (!alive(pid)) return true;
  process.kill(pid, "SIGINT");
  if (await waitGone(pid, 30_000)) return true;
  for (const sig of ["SIGTERM", "SIGKILL"] as const) {
    try {
      process.kill(-pid, sig);
    } catch {
      /* gone */
    }
    if (await waitGone(pid, 5_000)) break;
  }
  return false;
}
