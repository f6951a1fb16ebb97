// A large map's loci and the edges between them are drawn on one canvas inside the map's
// viewport (it pans and zooms with it), at every zoom; React Flow draws only what
// must stay interactive or marked (the current, selected, highlighted and hovered loci,
// candidates, crystals, sub-wanders). Hundreds of DOM nodes and SVG edges cost every frame of
// a pan their hit testing, layerization and a fresh raster of the whole view (text halos,
// gradients): 50-130 ms a frame at 300 to 2,000 nodes; the canvas costs one image. Clicks on
// its loci are found by pickLocus. Close in, the canvas covers the area around the view at the
// zoom's resolution (see cull.ts), with labels from LABEL_ZOOM.
import { memo, useEffect, useMemo, useRef, useState } from "react";
import { useStore, ViewportPortal, type Edge, type Node } from "@xyflow/react";
import type { GraphState } from "../store";
import { nextCullWindow, type CullWindow } from "./cull";
import { addedSince, drawFar, type Bounds, type FarPicture } from "./farDraw";
import { placedSince } from "./layout/growth";
import type { Point } from "./layout/types";
import { locusRadius } from "./palette";

/** Below this zoom only the current, selected and highlighted loci keep their labels. */
export const LABEL_ZOOM = 0.45;
/** The canvas's longer side at most (px): past it, the picture is drawn at a lower resolution. */
const MAX_SIDE = 3072;

/** What React Flow holds of a map whose loci are on the canvas: every node that is not a
 * locus, the loci `keep` says (marked, hovered) and those an edge ties to a node that is not
 * a locus (a crystal's loci, a sub-wander's parent), and the edges between those. */
export function flowPart(nodes: Node[], edges: Edge[], keep: (id: string) => boolean): { nodes: Node[]; edges: Edge[] } {
  // (sets of the few nodes held, not of every locus: this runs at every step of a map of
  // 20,000 loci)
  const others = new Set<string>();
  for (const n of nodes) if (n.type !== "locus") others.add(n.id);
  const ids = new Set<string>(others);
  for (const n of nodes) if (n.type === "locus" && keep(n.id)) ids.add(n.id);
  for (const e of edges) {
    if (others.has(e.source)) ids.add(e.target);
    if (others.has(e.target)) ids.add(e.source);
  }
  const outNodes: Node[] = [];
  for (const n of nodes) if (ids.has(n.id)) outNodes.push(n);
  const outEdges: Edge[] = [];
  for (const e of edges) if (ids.has(e.source) && ids.has(e.target)) outEdges.push(e);
  return { nodes: outNodes, edges: outEdges };
}

/** The box around every locus (with its radius) and a margin. */
export function farBounds(g: GraphState, positions: Map<string, Point>): Bounds | null {
  return withMargin(extentOf(g, positions, g.order, null));
}

/** The loci's extent (x0, y0, x1, y1, radii included), `ids` added to `from`. */
type Extent = [number, number, number, number];

function extentOf(g: GraphState, positions: Map<string, Point>, ids: Iterable<string>, from: Extent | null): Extent {
  let [x0, y0, x1, y1] = from ?? [Infinity, Infinity, -Infinity, -Infinity];
  for (const id of ids) {
    const p = positions.get(id);
    const l = g.loci[id];
    if (!p || !l) continue;
    const r = locusRadius(l.visit_count);
    if (p.x - r < x0) x0 = p.x - r;
    if (p.y - r < y0) y0 = p.y - r;
    if (p.x + r > x1) x1 = p.x + r;
    if (p.y + r > y1) y1 = p.y + r;
  }
  return [x0, y0, x1, y1];
}

function withMargin([x0, y0, x1, y1]: Extent): Bounds | null {
  if (x0 === Infinity) return null;
  const m = 20;
  return { x: x0 - m, y: y0 - m, w: x1 - x0 + 2 * m, h: y1 - y0 + 2 * m };
}

/** farBounds of `pic`, grown from `prev`'s extent when the picture only grew since (the
 * loci placed since and the ends of the steps since: a revisit's disc grows), not gone
 * over every locus again at each live step of a large map. */
export function grownExtent(prev: { pic: FarPicture; extent: Extent } | null, pic: FarPicture): Extent {
  const g = pic.graph;
  const a = prev?.pic.graph;
  const placed = prev && a && a.sessionId === g.sessionId ? placedSince(prev.pic.positions, pic.positions) : null;
  const p0 = a?.path.length ?? 0;
  if (!prev || !a || placed === null || g.path.length < p0 || (p0 > 0 && g.path[p0 - 1] !== a.path[p0 - 1])) return extentOf(g, pic.positions, g.order, null);
  const ids = placed.slice();
  for (let i = p0; i < g.path.length; i++) ids.push(g.path[i].source, g.path[i].target);
  return extentOf(g, pic.positions, ids, prev.extent);
}

/** The part of `b` inside the window `w` (all of `b` when there is none), or null when they
 * do not meet: closer in, the canvas covers the area around the view, not the whole map, so
 * that it keeps the resolution of the zoom. */
export function clipToWindow(b: Bounds, w: CullWindow | null): Bounds | null {
  if (!w) return b;
  const x0 = Math.max(b.x, w.x0);
  const y0 = Math.max(b.y, w.y0);
  const x1 = Math.min(b.x + b.w, w.x1);
  const y1 = Math.min(b.y + b.h, w.y1);
  return x1 > x0 && y1 > y0 ? { x: x0, y: y0, w: x1 - x0, h: y1 - y0 } : null;
}

/** The canvas, in map coordinates inside the viewport; redrawn when the picture changes, the
 * zoom settles at a different scale, or the view leaves the area drawn (see cull.ts). */
function FarCanvasView({ pic }: { pic: FarPicture }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const zoom = useStore((s) => s.transform[2]);
  const settled = useSettled(zoom);
  const [hold] = useState(() => ({ win: null as CullWindow | null }));
  const win = useStore((s) => (hold.win = nextCullWindow(hold.win, s.transform, s.width, s.height)));
  const [ext] = useState(() => ({ last: null as { pic: FarPicture; extent: Extent } | null }));
  const all = useMemo(() => {
    const extent = grownExtent(ext.last, pic);
    ext.last = { pic, extent };
    return withMargin(extent);
  }, [pic, ext]);
  // (a new window over the same part of the map, as when it all fits in the view, draws nothing new)
  const clip = all ? clipToWindow(all, win) : null;
  const area = clip ? `${clip.x},${clip.y},${clip.w},${clip.h}` : "";
  const b = useMemo(() => boundsOf(area), [area]);
  const dpr = typeof window !== "undefined" ? window.devicePixelRatio || 1 : 1;
  const scale = b ? Math.min(settled * dpr, MAX_SIDE / Math.max(b.w, b.h)) : 1;
  const w = b ? Math.max(1, Math.round(b.w * scale)) : 1;
  const h = b ? Math.max(1, Math.round(b.h * scale)) : 1;
  const labels = settled >= LABEL_ZOOM;
  // what is on the canvas now: a new picture over the same area, scale and labels is drawn
  // as what it adds (see addedSince)
  const [drawn] = useState(() => ({ pic: null as FarPicture | null, area: "", scale: 0, w: 0, h: 0, labels: false, loci: 0 }));
  useEffect(() => {
    const c = ref.current;
    if (!c || !b) return;
    const ctx = c.getContext("2d");
    if (!ctx) return;
    const t = performance.now();
    const same = drawn.pic && drawn.area === area && drawn.scale === scale && drawn.w === w && drawn.h === h && drawn.labels === labels;
    const only = same ? addedSince(drawn.pic!, pic) : null;
    drawFar(ctx, pic, b, scale, labels, only);
    // how many loci the picture holds (the bench's catch-up waits for all): counted again
    // only when the positions did not just grow
    const grown = drawn.pic && drawn.pic.graph.sessionId === pic.graph.sessionId ? placedSince(drawn.pic.positions, pic.positions) : null;
    const loci = grown ? drawn.loci + grown.filter((id) => pic.graph.loci[id]).length : placedLoci(pic);
    Object.assign(drawn, { pic, area, scale, w, h, labels, loci });
    performance.measure("wander:far-draw", { start: t }); // (read by bench/mindmap_probe.mjs)
    c.dataset.loci = String(loci);
  }, [pic, b, area, drawn, scale, w, h, labels]);
  if (!b) return null;
  return (
    <ViewportPortal>
      <canvas
        ref={ref}
        width={w}
        height={h}
        data-testid="far-canvas"
        style={{ position: "absolute", left: b.x, top: b.y, width: b.w, height: b.h, pointerEvents: "none", zIndex: -1 }}
      />
    </ViewportPortal>
  );
}
export const FarCanvas = memo(FarCanvasView);

/** The bounds written as `area` ("x,y,w,h"; "": none). */
function boundsOf(area: string): Bounds | null {
  if (!area) return null;
  const [x, y, w, h] = area.split(",").map(Number);
  return { x, y, w, h };
}

/** How many of the picture's loci have a place (the layout places them as they come). */
function placedLoci(pic: FarPicture): number {
  let n = 0;
  for (const id of pic.graph.order) if (pic.positions.has(id)) n++;
  return n;
}

/** `value`, once it has stayed put for a moment (a zoom gesture redraws once, at its end). */
function useSettled(value: number, ms = 120): number {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (value === settled) return;
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, settled, ms]);
  return settled;
}
