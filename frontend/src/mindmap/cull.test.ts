// @vitest-environment node
import { describe, expect, it } from "vitest";
import { CULL_REACH, CULL_SLACK, CULL_ZOOM_IN, nextCullWindow, type CullWindow } from "./cull";

/** React Flow's transform for a view whose top left corner is map point (x, y) at `zoom`. */
const at = (x: number, y: number, zoom: number): [number, number, number] => [-x * zoom, -y * zoom, zoom];
const W = 1440;
const H = 900;

/** Does the window hold the whole view (and the reach around it)? */
function covers(w: CullWindow, t: [number, number, number]): boolean {
  const [tx, ty, z] = t;
  const x0 = -tx / z;
  const y0 = -ty / z;
  return x0 - CULL_REACH >= w.x0 - 1e-9 && y0 - CULL_REACH >= w.y0 - 1e-9 && x0 + W / z + CULL_REACH <= w.x1 + 1e-9 && y0 + H / z + CULL_REACH <= w.y1 + 1e-9;
}

describe("nextCullWindow (the part of a large map the canvas draws)", () => {
  it("is null until the pane has a size", () => {
    expect(nextCullWindow(null, at(0, 0, 1), 0, 0)).toBeNull();
    expect(nextCullWindow(null, at(0, 0, 1), W, 0)).toBeNull();
  });

  it("a new window holds the view, the reach and the slack around it", () => {
    const t = at(100, -50, 0.9);
    const w = nextCullWindow(null, t, W, H)!;
    expect(covers(w, t)).toBe(true);
    const vw = W / 0.9;
    const vh = H / 0.9;
    expect(w.x0).toBeCloseTo(100 - CULL_REACH - CULL_SLACK * vw);
    expect(w.x1).toBeCloseTo(100 + vw + CULL_REACH + CULL_SLACK * vw);
    expect(w.y0).toBeCloseTo(-50 - CULL_REACH - CULL_SLACK * vh);
    expect(w.y1).toBeCloseTo(-50 + vh + CULL_REACH + CULL_SLACK * vh);
    expect(w.zoom).toBe(0.9);
  });

  it("is kept (the same object) while the view moves within it: a follow or a small pan mounts nothing", () => {
    const w = nextCullWindow(null, at(0, 0, 0.9), W, H)!;
    const slack = CULL_SLACK * (W / 0.9);
    for (const dx of [-slack, -slack / 2, 0, slack / 3, slack]) expect(nextCullWindow(w, at(dx, 0, 0.9), W, H)).toBe(w);
    // zooming in a little: the view shrinks inside it
    expect(nextCullWindow(w, at(100, 100, 1.5), W, H)).toBe(w);
  });

  it("is made anew once the view (with its reach) leaves it, and then holds the view", () => {
    const w = nextCullWindow(null, at(0, 0, 0.9), W, H)!;
    const slack = CULL_SLACK * (W / 0.9);
    for (const t of [at(slack + 1, 0, 0.9), at(0, -(CULL_SLACK * (H / 0.9)) - 1, 0.9), at(5000, 3000, 0.9)]) {
      const n = nextCullWindow(w, t, W, H)!;
      expect(n).not.toBe(w);
      expect(covers(n, t)).toBe(true);
      expect(nextCullWindow(n, t, W, H)).toBe(n);
    }
  });

  it("zooming out past it makes a larger one; zooming far in makes a smaller one", () => {
    const w = nextCullWindow(null, at(0, 0, 1), W, H)!;
    const out = nextCullWindow(w, at(-300, -300, 0.6), W, H)!;
    expect(out).not.toBe(w);
    expect(covers(out, at(-300, -300, 0.6))).toBe(true);
    expect(out.x1 - out.x0).toBeGreaterThan(w.x1 - w.x0);
    const inside = at(200, 200, CULL_ZOOM_IN * 1.01);
    const near = nextCullWindow(w, inside, W, H)!;
    expect(near).not.toBe(w);
    expect(covers(near, inside)).toBe(true);
    expect(near.x1 - near.x0).toBeLessThan(w.x1 - w.x0);
  });

  it("every view of a pan across the map is covered by the window it gets", () => {
    let w: CullWindow | null = null;
    let made = 0;
    for (let i = 0; i < 400; i++) {
      const z = 0.5 + 0.4 * Math.sin(i / 37) ** 2;
      const t = at(2000 * Math.sin(i / 50), 1500 * Math.cos(i / 23), z);
      const n: CullWindow = nextCullWindow(w, t, W, H)!;
      if (n !== w) made++;
      w = n;
      expect(covers(n, t)).toBe(true);
    }
    expect(made).toBeLessThan(200); // most moves keep the window
  });
});
