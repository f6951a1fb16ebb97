// The data folder each run of the suite gives `wander serve`: a copy of one made once per
// machine, holding the concept corpus loaded into its database and nothing else.
//
// The folder used to live across runs. Every run left its wanders, crystals and crystal
// memory there, and the gate measures a new crystal's novelty against every crystal stored
// (what was said before is not said again): the crystal specs' same wanders, crystallizing
// the same sandwiches, then needed 11-16 tries, more with each run, and each crystallization
// rewrote a crystal memory that grew with every run. A run on a copy of the pristine folder
// meets the same state every time.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, alive, startServer, stopServer } from "./server";

/** Where the suite keeps its data folders: the pristine one and each run's copy. */
export function e2eRoot(): string {
  return process.env.WANDER_E2E_HOME ?? join(tmpdir(), "wander-e2e-home");
}

/** The data folder the suite's server runs on (global-setup names it in the environment the
 * workers inherit); a spec that starts a second server uses the same one, or that server
 * would load the whole corpus into a database of its own before it answers. */
export function e2eHome(): string {
  return process.env.WANDER_E2E_SERVER_HOME ?? e2eRoot();
}

const KB = join(ROOT, "backend", "wander", "adapters", "kb", "data");
const MIGRATIONS = join(ROOT, "backend", "wander", "adapters", "postgres", "migrations", "versions");

/** What the pristine folder is made of: the corpus and its shipped vectors (a server loads
 * them into a database whose fingerprint differs) and the database's migrations. */
function pristineKey(): string {
  const h = createHash("sha256");
  for (const f of ["concepts.jsonl.gz", "concepts.vectors.npz", "relations.jsonl.gz"]) {
    const p = join(KB, f);
    if (existsSync(p)) h.update(f).update(readFileSync(p));
  }
  h.update(readdirSync(MIGRATIONS).filter((f) => f.endsWith(".py")).sort().join("\n"));
  return h.digest("hex").slice(0, 16);
}

/** The pristine folder for this checkout's corpus and schema: made by one start of the
 * server (which loads the corpus) and a clean stop, the first time, in a folder of this
 * process's own renamed into place when done (two runs at once on a new machine each make
 * one, and the first rename wins); older ones, and those of runs that died making one, removed. */
async function pristine(root: string): Promise<string> {
  const dir = join(root, `pristine-${pristineKey()}`);
  for (const name of readdirSync(root)) {
    const m = /^pristine-([0-9a-f]{16})(?:\.(\d+))?$/.exec(name);
    if (m && join(root, name) !== dir && (m[2] === undefined || !alive(Number(m[2])))) rmSync(join(root, name), { recursive: true, force: true });
  }
  if (existsSync(dir)) return dir;
  const making = `${dir}.${process.pid}`;
  rmSync(making, { recursive: true, force: true });
  mkdirSync(making, { recursive: true });
  console.log(`[e2e] making the suite's pristine data folder ${dir} (once per corpus and schema): a first start loads the corpus`);
  const server = await startServer(making, join(root, "e2e-server.log"));
  if (!(await stopServer(server.pid))) throw new Error(`wander serve on ${making} did not stop on Ctrl+C: its Postgres may still run there`);
  try {
    renameSync(making, dir);
  } catch (err) {
    if (!existsSync(dir)) throw err;
    rmSync(making, { recursive: true, force: true }); // another run made it first
  }
  return dir;
}

/** A copy of the pristine folder for this run (removed by global-teardown), and the copies
 * crashed runs left behind removed. */
export async function runHome(): Promise<string> {
  const root = e2eRoot();
  mkdirSync(root, { recursive: true });
  for (const name of readdirSync(root)) {
    const pid = /^run-(\d+)$/.exec(name)?.[1];
    if (pid && !alive(Number(pid))) rmSync(join(root, name), { recursive: true, force: true });
  }
  const from = await pristine(root);
  const home = join(root, `run-${process.pid}`);
  rmSync(home, { recursive: true, force: true });
  // cp -a: the embedded Postgres's files keep their owner (pgserver runs it as another user under root)
  execFileSync("cp", ["-a", from, home]);
  return home;
}
