/// <reference types="vitest/config" />
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// The backend (`wander serve`) listens on 127.0.0.1:8765 by default; in dev, Vite proxies
// the REST API and the WebSocket to it. In production the backend serves frontend/dist.
const BACKEND = process.env.WANDER_BACKEND ?? "http://127.0.0.1:8765";

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
    environment: "jsdom",
    globals: true,
    setupFiles: ["./src/test/setup.ts"],
    include: ["src/**/*.test.{ts,tsx}"],
    // Beside pytest and the browser tests on two cores a map test that mounts React Flow can
    // take several seconds of CPU it does not get: a generous bound, not a timing assertion.
    testTimeout: 30_000,
  },
});
