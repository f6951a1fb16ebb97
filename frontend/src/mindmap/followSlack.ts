// Following a large map: the view stays put while the current locus is inside the
// middle part of it. A move of the view that leaves the area the canvas has drawn redraws it
// (30-45 ms at 5,000 loci with labels), work a live event arriving meanwhile waits behind.

/** The zoom following holds a walk too large to fit at a readable zoom. */
export const FOLLOW_ZOOM = 0.9;
/** The middle part of the view (per axis) in which the current locus keeps the view put. */
export const FOLLOW_SLACK = 0.6;

/** Whether following may leave the view where it is: at FOLLOW_ZOOM, with the point (map
 * coordinates) inside the middle FOLLOW_SLACK of a pane of `width` x `height`. */
export function keepsView(point: { x: number; y: number }, view: { x: number; y: number; zoom: number }, width: number, height: number): boolean {
  if (Math.abs(view.zoom - FOLLOW_ZOOM) >= 0.01 || !width || !height) return false;
  const inner = (v: number, size: number) => v >= (size * (1 - FOLLOW_SLACK)) / 2 && v <= (size * (1 + FOLLOW_SLACK)) / 2;
  return inner(point.x * view.zoom + view.x, width) && inner(point.y * view.zoom + view.y, height);
}
