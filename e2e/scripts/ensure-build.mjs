// Builds the frontend when frontend/dist is missing or older than its sources (the server
// serves frontend/dist at /, so the browser tests must see the current code).
import { existsSync, readdirSync, statSync } from "node:fs";
import { execSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const fe = join(root, "frontend");
const index = join(fe, "dist", "index.html");

function newest(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let t = 0;
  for (const name of readdirSync(path)) t = Math.max(t, newest(join(path, name)));
  return t;
}

const sources = ["src", "index.html", "vite.config.ts", "package.json", "tsconfig.json"].map((p) => join(fe, p)).filter(existsSync);
const stale = !existsSync(index) || Math.max(...sources.map(newest)) > statSync(index).mtimeMs;
if (process.env.WANDER_E2E_REBUILD === "1" || stale) {
  console.log("[e2e] building the frontend (npm run build -w frontend)");
  execSync("npm run build -w frontend", { cwd: root, stdio: "inherit" });
} else {
  console.log("[e2e] frontend/dist is up to date");
}
