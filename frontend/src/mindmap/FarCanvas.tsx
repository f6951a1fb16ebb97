// Level of detail for a large map seen from far out: the loci and the edges between them are
// drawn on one canvas inside the map's viewport (it pans and zooms with it), and React Flow
// draws only what must stay interactive or marked (the current, selected, highlighted loci,
// candidates, crystals, sub-wanders). At that zoom a locus is a dot of a few pixels and
// labels are hidden; thousands of DOM nodes and SVG edges would cost every frame of a pan
// their paint, layerization and hit testing, where the canvas costs one image.
import { memo, useEffect, useMemo, useRef, useState } from "react";
import { useStore, ViewportPortal } from "@xyflow/react";
import type { GraphState } from "../store";
import type { Point } from "./layout/force";
import { domainColour, locusRadius } from "./palette";

/** A large map below this zoom is drawn on the canvas (labels are gone long before). */
export const FAR_ZOOM = 0.3;
/** The canvas's longer side at most (px): past it, the picture is drawn at a lower resolution. */
const MAX_SIDE = 3072;

export interface FarPicture {
  graph: GraphState;
  positions: Map<string, Point>;
  /** Drawn by React Flow: left off the canvas (their edges too). */
  onTop: Set<string>;
}

export interface Bounds {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The box around every locus (with its radius) and a margin. */
export function farBounds(g: GraphState, positions: Map<string, Point>): Bounds | null {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const id of g.order) {
    const p = positions.get(id);
    if (!p) continue;
    const r = locusRadius(g.loci[id].visit_count);
    if (p.x - r < x0) x0 = p.x - r;
    if (p.y - r < y0) y0 = p.y - r;
    if (p.x + r > x1) x1 = p.x + r;
    if (p.y + r > y1) y1 = p.y + r;
  }
  if (x0 === Infinity) return null;
  const m = 20;
  return { x: x0 - m, y: y0 - m, w: x1 - x0 + 2 * m, h: y1 - y0 + 2 * m };
}

/** Draws the picture at `scale` canvas px per map px onto `ctx` (its box `b`). */
export function drawFar(ctx: CanvasRenderingContext2D, pic: FarPicture, b: Bounds, scale: number): void {
  const { graph: g, positions, onTop } = pic;
  ctx.setTransform(scale, 0, 0, scale, -b.x * scale, -b.y * scale);
  ctx.clearRect(b.x, b.y, b.w, b.h);
  // edges of the walk: one path, a hairline at any zoom (at least one canvas px)
  ctx.beginPath();
  for (const e of g.path) {
    if (onTop.has(e.source) && onTop.has(e.target)) continue;
    const a = positions.get(e.source);
    const c = positions.get(e.target);
    if (!a || !c) continue;
    ctx.moveTo(a.x, a.y);
    ctx.lineTo(c.x, c.y);
  }
  ctx.strokeStyle = "rgba(139, 152, 179, 0.55)";
  ctx.lineWidth = Math.max(2, 1 / scale);
  ctx.stroke();
  // loci: discs in their domain's colour, grouped by colour (one fill per colour)
  const byColour = new Map<string, string[]>();
  for (const id of g.order) {
    if (onTop.has(id)) continue;
    const c = domainColour(g.loci[id].domains[0]);
    const list = byColour.get(c);
    if (list) list.push(id);
    else byColour.set(c, [id]);
  }
  const minR = 1.5 / scale;
  for (const [colour, ids] of byColour) {
    ctx.beginPath();
    for (const id of ids) {
      const p = positions.get(id);
      if (!p) continue;
      const r = Math.max(minR, locusRadius(g.loci[id].visit_count));
      ctx.moveTo(p.x + r, p.y);
      ctx.arc(p.x, p.y, r, 0, 2 * Math.PI);
    }
    ctx.fillStyle = colour;
    ctx.fill();
  }
}

/** The canvas, in map coordinates inside the viewport; redrawn when the picture changes or
 * the zoom settles at a different scale. */
function FarCanvasView({ pic }: { pic: FarPicture }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const zoom = useStore((s) => s.transform[2]);
  const settled = useSettled(zoom);
  const b = useMemo(() => farBounds(pic.graph, pic.positions), [pic]);
  const dpr = typeof window !== "undefined" ? window.devicePixelRatio || 1 : 1;
  const scale = b ? Math.min(settled * dpr, MAX_SIDE / Math.max(b.w, b.h)) : 1;
  const w = b ? Math.max(1, Math.round(b.w * scale)) : 1;
  const h = b ? Math.max(1, Math.round(b.h * scale)) : 1;
  useEffect(() => {
    const c = ref.current;
    if (!c || !b) return;
    const ctx = c.getContext("2d");
    if (!ctx) return;
    drawFar(ctx, pic, b, scale);
  }, [pic, b, scale, w, h]);
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
