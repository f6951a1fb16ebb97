// Every test file's setup. A file that renders nothing runs in Node (its first line says
// `// @vitest-environment node`): building a jsdom window for it cost more than its tests.
// The others get jsdom and its shims.
if (typeof window !== "undefined") await import("./dom");

export {};
