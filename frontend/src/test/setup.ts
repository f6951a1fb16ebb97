// Every test file's setup. A file that renders nothing runs in Node (its first line says
// `// @vitest-environment node`): building a jsdom window for it cost more than its tests.
// The others share one jsdom window per worker (vite.config.ts: a fresh worker and window per
// file cost more than all their tests), so each file starts here as it would in a fresh one:
// no module mock or module state of the file before (its own modules evaluated again, the
// store and the API client with them; React, React Flow and jsdom stay loaded), an empty
// document, empty storage, the address "/", real timers; then the jsdom shims.
import { vi } from "vitest";

if (typeof window !== "undefined") {
  // what `isolate` resets between files: the mocks a file's vi.mock registered
  (globalThis as { __vitest_mocker__?: { reset?: () => void } }).__vitest_mocker__?.reset?.();
  vi.resetModules();
  vi.useRealTimers();
  document.head.innerHTML = "";
  document.body.innerHTML = "";
  localStorage.clear();
  sessionStorage.clear();
  window.history.replaceState(null, "", "/");
  // what @testing-library/react sets for each file when it is imported (now once per worker:
  // it is not one of the modules evaluated again), and resets after it: React's act environment
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  // Animation frames of the file's own. jsdom runs every frame off one interval, started
  // when a first frame is asked for; asked for while a file had faked the timers (a map's
  // glide still running as a fake-timer test began), that interval ran on the fake clock and
  // was dropped with it, and no frame ran again in the shared window.
  window.requestAnimationFrame = (callback) =>
    setTimeout(() => callback(performance.now()), 1000 / 60) as unknown as number;
  window.cancelAnimationFrame = (handle) => clearTimeout(handle);
  await import("./dom");
}

export {};
