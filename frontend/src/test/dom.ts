// jsdom shims that React Flow needs (it measures nodes and watches the pane's size), and the
// DOM's cleanup after each test.
import { afterEach } from "vitest";
import { cleanup } from "@testing-library/react";

afterEach(() => cleanup());

class ResizeObserverShim {
  private readonly cb: ResizeObserverCallback;
  constructor(cb: ResizeObserverCallback) {
    this.cb = cb;
  }
  observe(target: Element) {
    // Like the browser: the callback runs asynchronously after observe().
    setTimeout(() => {
      const rect = { x: 0, y: 0, top: 0, left: 0, bottom: 600, right: 800, width: 800, height: 600, toJSON() {} };
      this.cb([{ target, contentRect: rect } as unknown as ResizeObserverEntry], this as unknown as ResizeObserver);
    }, 0);
  }
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverShim as unknown as typeof ResizeObserver;

class DOMMatrixReadOnlyShim {
  m22: number;
  constructor(transform?: string) {
    const scale = transform?.match(/scale\(([1-9.])\)/)?.[1];
    this.m22 = scale !== undefined ? +scale : 1;
  }
}
(globalThis as unknown as { DOMMatrixReadOnly: unknown }).DOMMatrixReadOnly ??= DOMMatrixReadOnlyShim;

// an element's size in pixels when its style says so; else 800 x 600 (React Flow's wrapper,
// styled 100% x 100%, measures as the 800 x 600 the tests give the map)
const px = (v: string) => (v.endsWith("px") || /^[\d.]+$/.test(v) ? parseFloat(v) : NaN);
Object.defineProperties(globalThis.HTMLElement.prototype, {
  offsetHeight: {
    configurable: true,
    get() {
      return px((this as HTMLElement).style.height) || 600;
    },
  },
  offsetWidth: {
    configurable: true,
    get() {
      return px((this as HTMLElement).style.width) || 800;
    },
  },
});
(globalThis.SVGElement.prototype as unknown as { getBBox: () => DOMRect }).getBBox = () =>
  ({ x: 0, y: 0, width: 0, height: 0 }) as DOMRect;
