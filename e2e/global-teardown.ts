import { existsSync, readFileSync, rmSync } from "node:fs";
import { STATE_FILE } from "./global-setup";
import { stopServer } from "./server";

export default async function globalTeardown(): Promise<void> {
  if (!existsSync(STATE_FILE)) return;
  const { pid, home } = JSON.parse(readFileSync(STATE_FILE, "utf8")) as { pid: number; home: string };
  rmSync(STATE_FILE, { force: true });
  console.log(`[e2e] wander serve ${(await stopServer(pid)) ? "stopped" : "did not stop on SIGINT; terminated"}`);
  // this run's copy of the pristine data folder (home.ts): the next run makes its own
  rmSync(home, { recursive: true, force: true });
}
