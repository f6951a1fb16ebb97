/// <reference types="vitest/config" />
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// The backend (`wander serve`) listens on 127.0.0.1:8765 by default; in dev, Vite proxies
// the REST API and the WebSocket to it. In production the backend serves frontend/dist.
const BACKEND = process.env.WANDER_BACKEND ?? "http://127.0.0.1:8765";

/** The test files whose first line asks for Node (`// @vitest-environment node`). */
const HERE = dirname(fileURLToPath(import.meta.url));
const PURE = testFiles("src").filter((f) => readFileSync(join(HERE, f), "utf8").startsWith("// @vitest-environment node"));

/** The test files under `dir` (relative to this folder, as vitest's globs are). */
function testFiles(dir: string): string[] {
  return readdirSync(join(HERE, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return testFiles(path);
    return /\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

export default defineConfig({
  plugins: [react()],
  server: {
    host: "127.0.0.1",
    proxy: {
      "/api": { target: BACKEND, changeOrigin: false },
      "/ws": { target: BACKEND.replace(/^http/, "ws"), ws: true, changeOrigin: false },
    },
  },
  build: { outDir: "dist", emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  test: {
    globals: true,
    setupFiles: ["./src/test/setup.ts"],
    // Beside pytest and the browser tests on two cores a map test that mounts React Flow can
    // take several seconds of CPU it does not get: a generous bound, not a timing assertion.
    testTimeout: 30_000,
    projects: [
      // The files that render nothing (their first line says `// @vitest-environment node`)
      // run in Node, one after another in one module graph: each set up alone cost more than
      // its tests (7.4 -> 3.0 CPU-s for the 19 of them). They test pure functions; a global one
      // stubs it unstubs.
      { extends: true, test: { name: "pure", include: PURE, environment: "node", isolate: false } },
      // The others in jsdom, in one window per worker: a fresh worker and window for each file
      // (isolate) cost more than the tests (54 -> 10.5 CPU-s for the whole run). The setup file
      // starts each file as a fresh worker would: its modules, the store with them, evaluated
      // again, no mocks of the file before, an empty document and storage, real timers.
      { extends: true, test: { name: "dom", include: ["src/**/*.test.{ts,tsx}"], exclude: PURE, environment: "jsdom", isolate: false } },
    ],
  },
});
