// Which Chromium the browser tests drive: CHROMIUM_PATH when set, else a system
// /usr/bin/chromium, else the headless Chromium inside the pinned @sparticuz/chromium
// devDependency (unpacked on first use into the temp folder, a few seconds). Nothing is
// downloaded and no system package is needed.
//   node e2e/scripts/browser.mjs   prints the one line the suite prints: which browser, its version
import { execFileSync } from "node:child_process";
import { accessSync, constants, existsSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const SYSTEM_CHROMIUM = "/usr/bin/chromium";
const PACKAGE = "@sparticuz/chromium";
// Where @sparticuz/chromium unpacks its browser (its executablePath() returns this path).
const UNPACKED = join(tmpdir(), "chromium");

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function packageVersion() {
  try {
    const require = createRequire(join(dirname(fileURLToPath(import.meta.url)), "..", "package.json"));
    const entry = require.resolve(PACKAGE); // <package>/build/index.js (package.json is not exported)
    return JSON.parse(readFileSync(join(dirname(entry), "..", "package.json"), "utf8")).version;
  } catch {
    return null;
  }
}

/** The browser the suite will use, without unpacking anything: {path, source}. */
export function chosenBrowser() {
  if (process.env.CHROMIUM_PATH) return { path: process.env.CHROMIUM_PATH, source: "CHROMIUM_PATH" };
  if (executable(SYSTEM_CHROMIUM)) return { path: SYSTEM_CHROMIUM, source: "system" };
  return { path: UNPACKED, source: `${PACKAGE} ${packageVersion() ?? "(not installed)"}` };
}

function version(path) {
  try {
    return execFileSync(path, ["--version"], { encoding: "utf8", timeout: 30_000, stdio: ["ignore", "pipe", "pipe"] }).trim();
  } catch {
    return null;
  }
}

async function unpack() {
  const { default: chromium } = await import(PACKAGE);
  return chromium.executablePath();
}

/** The browser, unpacked and answering `--version`: {path, source, version}. An unpacked
 * copy that does not answer (a run stopped halfway through unpacking) is unpacked again. */
export async function ensureBrowser() {
  const chosen = chosenBrowser();
  if (chosen.source === "CHROMIUM_PATH" || chosen.source === "system") {
    const v = version(chosen.path);
    if (!v) throw new Error(`${chosen.source} browser ${chosen.path} does not run (${chosen.path} --version failed)`);
    return { ...chosen, version: v };
  }
  if (packageVersion() === null) throw new Error(`no browser: set CHROMIUM_PATH, or run npm install (it brings ${PACKAGE})`);
  for (let attempt = 0; attempt < 2; attempt++) {
    const path = await unpack();
    const v = existsSync(path) ? version(path) : null;
    if (v) return { ...chosen, path, version: v };
    rmSync(path, { force: true });
  }
  throw new Error(`${PACKAGE} unpacked ${UNPACKED}, but it does not run`);
}

/** One line: which browser the suite drives and its version. */
export function describe(browser) {
  return `${browser.version} (${browser.source}: ${browser.path})`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    console.log(describe(await ensureBrowser()));
  } catch (err) {
    console.log(`Chromium: none (${err.message})`);
    process.exitCode = 1;
  }
}
