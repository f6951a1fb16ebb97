// After a failed `make test`: the browser tests that failed or needed a retry, each with the
// head of its error, read from Playwright's JSON report. `make test` runs its parts side by
// side, so the e2e failures scroll away above pytest's output; CI shows only the tail.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const REPORT = join(dirname(fileURLToPath(import.meta.url)), "..", "test-results", "results.json");
const ANSI = /\u001b\[[0-9;]*m/g;
const HEAD_LINES = 12;

function* specs(suite, path = []) {
  const here = suite.title ? [...path, suite.title] : path;
  for (const s of suite.specs ?? []) yield { title: [...here, s.title].join(" › "), spec: s };
  for (const child of suite.suites ?? []) yield* specs(child, here);
}

if (!existsSync(REPORT)) {
  console.log("[e2e recap] no report (the browser tests did not finish)");
  process.exit(0);
}
const report = JSON.parse(readFileSync(REPORT, "utf8"));
let shown = 0;
for (const suite of report.suites ?? []) {
  for (const { title, spec } of specs(suite)) {
    for (const t of spec.tests) {
      if (t.status === "expected" || t.status === "skipped") continue;
      shown++;
      console.log(`[e2e recap] ${t.status}: ${title}`);
      t.results.forEach((r, i) => {
        for (const e of r.errors ?? []) {
          const lines = (e.message ?? String(e.value ?? "")).replace(ANSI, "").split("\n").slice(0, HEAD_LINES);
          console.log(`  try ${i + 1} (${r.status}, ${Math.round(r.duration / 1000)} s):`);
          for (const line of lines) console.log(`    ${line}`);
        }
      });
    }
  }
}
const st = report.stats ?? {};
console.log(`[e2e recap] run of ${st.startTime ?? "?"}: ${shown} shown; expected ${st.expected ?? "?"}, unexpected ${st.unexpected ?? "?"}, flaky ${st.flaky ?? "?"}, skipped ${st.skipped ?? "?"}`);
