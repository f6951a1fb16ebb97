// The part of a large map the far canvas draws when it is seen from close in: the
// area around the view, at the resolution of the zoom (the whole map at that resolution would
// be a canvas of tens of thousands of pixels a side).
//
// The window is kept while the view stays inside it (hysteresis): following a walk or panning
// a little redraws nothing; once the view leaves it, or zooms out past it, a new window is
// made around the view with a margin.

export interface CullWindow {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  /** The zoom it was made for. */
  zoom: number;
}

/** Map px around the view a window reaches besides the slack: the disc and label of a locus
 * centred just out of view (edges are drawn whole, cut at the canvas's edge). Small, so that
 * close in the canvas stays near the size of the view. */
export const CULL_REACH = 100;
/** Room around the view in a new window, as a share of the view per side (besides the reach):
 * how far the view may move before a new window is made. */
export const CULL_SLACK = 0.2;
/** Zooming in by more than this from the zoom a window was made for makes a smaller one. */
export const CULL_ZOOM_IN = 2;

/** The window for the view `t` ([x, y, zoom], React Flow's transform) of a `width` x `height`
 * pane: `prev` when the view (with CULL_REACH around it) is still inside it and the zoom has
 * not grown past CULL_ZOOM_IN times its own; else a new one around the view. Null when the pane
 * has no size yet. */
export function nextCullWindow(prev: CullWindow | null, t: readonly [number, number, number], width: number, height: number): CullWindow | null {
  if (!width || !height || !(t[2] > 0)) return null;
  const z = t[2];
  const x0 = -t[0] / z;
  const y0 = -t[1] / z;
  const x1 = x0 + width / z;
  const y1 = y0 + height / z;
  if (
    prev &&
    z <= prev.zoom * CULL_ZOOM_IN &&
    x0 - CULL_REACH >= prev.x0 &&
    y0 - CULL_REACH >= prev.y0 &&
    x1 + CULL_REACH <= prev.x1 &&
    y1 + CULL_REACH <= prev.y1
  )
    return prev;
  const mx = CULL_REACH + CULL_SLACK * (x1 - x0);
  const my = CULL_REACH + CULL_SLACK * (y1 - y0);
  return { x0: x0 - mx, x1: x1 + mx, y0: y0 - my, y1: y1 + my, zoom: z };
}
