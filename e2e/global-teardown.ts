import { existsSync, readFileSync, rmSync } from "node:fs";
import { STATE_FILE } from "./global-setup";

function alive(pid: number): boolean {
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

export default async function globalTeardown(): Promise<void> {
  if (!existsSync(STATE_FILE)) return;
  const { pid } = JSON.parse(readFileSync(STATE_FILE, "utf8")) as { pid: number };
  rmSync(STATE_FILE, { force: true });
  if (!alive(pid)) return;
  // Ctrl+C: `wander serve` shuts down cleanly and stops its embedded Postgres. (On SIGTERM
  // it exits without that cleanup and leaves Postgres running.) Escalate only if needed,
  // to the server's own process group.
  process.kill(pid, "SIGINT");
  if (await waitGone(pid, 30_000)) return void console.log("[e2e] wander serve stopped");
  for (const sig of ["SIGTERM", "SIGKILL"] as const) {
    try {
      process.kill(-pid, sig);
    } catch {
      /* gone */
    }
    if (await waitGone(pid, 5_000)) break;
  }
  console.log("[e2e] wander serve did not stop on SIGINT; terminated");
}
