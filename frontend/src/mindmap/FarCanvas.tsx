// A large map's loci and the edges between them are drawn on one canvas inside the map's
// viewport (it pans and zooms with it), at every zoom (issue 10); React Flow draws only what
// must stay interactive or marked (the current, selected, highlighted and hovered loci,
// candidates, crystals, sub-wanders). Hundreds of DOM nodes and SVG edges cost every frame of
// a pan their hit testing, layerization and a fresh raster of the whole view (text halos,
// gradients): 50-130 ms a frame at 300 to 2,000 nodes; the canvas costs one image. Clicks on
// its loci are found by pickLocus. Close in, the canvas covers the area around the view at the
// zoom's resolution (see cull.ts), with labels from LABEL_ZOOM.
import { memo, useEffect, useMemo, useRef, useState } from "react";
import { useStore, ViewportPortal, type Edge, type Node } from "@xyflow/react";
import { resonanceLinks, type GraphState } from "../store";
import type { Point } from "./layout/force";
import { nextCullWindow, type CullWindow } from "./cull";
import { domainColour, locusRadius } from "./palette";
import { bridgeRails, rimToRim, wavePieces } from "./edges/geometry";
import { MIXED, type Region } from "./overview";

/** Below this zoom only the current, selected and highlighted loci keep their labels. */
export const LABEL_ZOOM = 0.45;
/** The canvas's longer side at most (px): past it, the picture is drawn at a lower resolution. */
const MAX_SIDE = 3072;
const LABEL_MAX_WIDTH = 150;

export interface FarPicture {
  graph: GraphState;
  positions: Map<string, Point>;
  /** Drawn by React Flow: left off the canvas (their edges too). */
  onTop: Set<string>;
  /** The far-zoom overview's regions: outlined under the loci (their labels are DOM). */
  regions?: Region[];
}

export interface Bounds {
  x: number;
  y: number;
  w: number;
  h: number;
}

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

/** Draws the picture at `scale` canvas px per map px onto `ctx` (its box `b`); with `labels`,
 * each locus's concept under it as React Flow's nodes show it. */
export function drawFar(ctx: CanvasRenderingContext2D, pic: FarPicture, b: Bounds, scale: number, labels = false, only: Added | null = null): void {
  const { graph: g, positions, onTop } = pic;
  ctx.setTransform(scale, 0, 0, scale, -b.x * scale, -b.y * scale);
  if (!only) ctx.clearRect(b.x, b.y, b.w, b.h);
  // (with `only`: those edges and loci, drawn over the picture already there)
  const pathEdges = only ? only.edges.map((i) => g.path[i]) : g.path;
  const lociIds = only ? only.loci : g.order;
  const reach = 60; // map px a disc or its label may reach out of the box from outside
  const near = (p: Point) => p.x > b.x - reach && p.x < b.x + b.w + reach && p.y > b.y - reach && p.y < b.y + b.h + reach;
  // far out, the overview's regions: tinted outlines under everything
  if (!only && !labels && pic.regions?.length) {
    for (const r of pic.regions) {
      if (r.hull.length < 3) continue;
      ctx.beginPath();
      ctx.moveTo(r.hull[0].x, r.hull[0].y);
      for (const p of r.hull.slice(1)) ctx.lineTo(p.x, p.y);
      ctx.closePath();
      const colour = domainColour(r.domain.split(MIXED)[0]);
      ctx.globalAlpha = 0.1;
      ctx.fillStyle = colour;
      ctx.fill();
      ctx.globalAlpha = 0.55;
      ctx.strokeStyle = colour;
      ctx.lineWidth = 1.5 / scale;
      ctx.lineJoin = "round";
      ctx.stroke();
      ctx.globalAlpha = 1;
    }
  }
  // edges of the walk: one path, a hairline at any zoom (at least one canvas px); closer in
  // (with labels), a bridge is PathEdge's double line (far out its rails would merge)
  ctx.beginPath();
  const heads: [Point, Point, number][] = [];
  // (an edge wholly beside the box is left out: close in, the box is a small part of a large
  // map, and a path of all its 20,000 edges cost a live step most of its time)
  const bx0 = b.x - reach;
  const by0 = b.y - reach;
  const bx1 = b.x + b.w + reach;
  const by1 = b.y + b.h + reach;
  for (const e of pathEdges) {
    if (onTop.has(e.source) && onTop.has(e.target)) continue;
    const a = positions.get(e.source);
    const c = positions.get(e.target);
    if (!a || !c) continue;
    if ((a.x < bx0 && c.x < bx0) || (a.x > bx1 && c.x > bx1) || (a.y < by0 && c.y < by0) || (a.y > by1 && c.y > by1)) continue;
    const tr = locusRadius(g.loci[e.target]?.visit_count ?? 1);
    if (labels && e.bridge) {
      for (const r of bridgeRails(rimToRim(a.x, a.y, locusRadius(g.loci[e.source]?.visit_count ?? 1), c.x, c.y, tr + 3))) {
        ctx.moveTo(r.x1, r.y1);
        ctx.lineTo(r.x2, r.y2);
      }
    } else {
      ctx.moveTo(a.x, a.y);
      ctx.lineTo(c.x, c.y);
    }
    if (labels && near(c)) heads.push([a, c, tr]);
  }
  ctx.strokeStyle = labels ? "#8b98b3" : "rgba(139, 152, 179, 0.55)";
  ctx.lineWidth = Math.max(labels ? 1.5 : 2, 1 / scale);
  ctx.stroke();
  // confirmed resonances: ResonanceEdge's wavy dashed purple line. Its dashes stay still here:
  // they flow on the SVG edge, but a redraw of the canvas costs 25-60 ms, too much for every frame.
  const res = only ? [] : resonanceLinks(g).filter((e) => !(onTop.has(e.source) && onTop.has(e.target)));
  if (res.length) {
    ctx.beginPath();
    for (const e of res) {
      const a = positions.get(e.source);
      const c = positions.get(e.target);
      if (!a || !c) continue;
      const s = rimToRim(a.x, a.y, locusRadius(g.loci[e.source].visit_count), c.x, c.y, locusRadius(g.loci[e.target].visit_count));
      ctx.moveTo(s.x1, s.y1);
      for (const q of wavePieces(s)) ctx.quadraticCurveTo(q.cx, q.cy, q.x, q.y);
    }
    ctx.strokeStyle = "rgba(192, 132, 252, 0.8)";
    ctx.lineWidth = Math.max(1.6, 1 / scale);
    ctx.setLineDash([6, 4]);
    ctx.stroke();
    ctx.setLineDash([]);
  }
  // closer in, the arrow at the rim of the locus each step reached (as the SVG edges' marker)
  if (heads.length) {
    ctx.beginPath();
    for (const [a, c, r] of heads) arrowHead(ctx, a, c, r + 3);
    ctx.fillStyle = "#8b98b3";
    ctx.fill();
  }
  // fence anchors: their halo, under the disc
  if (g.fences.length) {
    const fence = new Map(g.fences.map((f) => [f.concept.toLowerCase(), f.action]));
    for (const id of lociIds) {
      const action = fence.get(g.loci[id].concept.toLowerCase());
      const p = positions.get(id);
      if (!action || !p || onTop.has(id)) continue;
      ctx.beginPath();
      ctx.arc(p.x, p.y, locusRadius(g.loci[id].visit_count) + 24, 0, 2 * Math.PI);
      ctx.fillStyle = action === "include" ? "rgba(74, 222, 128, 0.4)" : "rgba(248, 113, 113, 0.4)";
      ctx.fill();
    }
  }
  // loci: discs in their domain's colour, grouped by colour (one fill per colour)
  const byColour = new Map<string, string[]>();
  for (const id of lociIds) {
    if (onTop.has(id)) continue;
    const p = positions.get(id);
    if (!p || !near(p)) continue;
    const c = domainColour(g.loci[id].domains[0]);
    const list = byColour.get(c);
    if (list) list.push(id);
    else byColour.set(c, [id]);
  }
  const minR = 1.5 / scale;
  for (const [colour, ids] of byColour) {
    ctx.beginPath();
    for (const id of ids) {
      const p = positions.get(id)!;
      const r = Math.max(minR, locusRadius(g.loci[id].visit_count));
      ctx.moveTo(p.x + r, p.y);
      ctx.arc(p.x, p.y, r, 0, 2 * Math.PI);
    }
    ctx.fillStyle = colour;
    ctx.fill();
    if (labels) {
      // the disc's rim, as the DOM node's border
      ctx.strokeStyle = "rgba(12, 17, 27, 0.5)";
      ctx.lineWidth = 2;
      ctx.stroke();
    }
  }
  if (labels) drawLabels(ctx, g, lociIds, positions, onTop, near);
}

/** What a redraw adds over the picture already drawn: path edges (indexes into the graph's
 * path) and loci (their discs and labels, drawn after the edges). */
export interface Added {
  edges: number[];
  loci: string[];
}

/** What `next` adds to the picture `prev` drew, when the only changes are a walk's: loci and
 * path edges added, loci revisited (a larger disc), loci that React Flow held and no longer
 * holds (the locus the walk left). Null when the picture must be drawn whole (another
 * wander, positions that moved, a resonance, a fence, the regions). A live step at 20,000
 * loci redrew the whole area around the view: 60 ms with its labels and arrows. */
export function addedSince(prev: FarPicture, next: FarPicture): Added | null {
  const a = prev.graph;
  const g = next.graph;
  if (a.sessionId !== g.sessionId || prev.positions !== next.positions || prev.regions !== next.regions) return null;
  if (a.resonances !== g.resonances || a.fences !== g.fences) return null;
  const n0 = a.order.length;
  const p0 = a.path.length;
  if (g.order.length < n0 || g.path.length < p0) return null;
  if (n0 && g.order[n0 - 1] !== a.order[n0 - 1]) return null;
  if (p0 && g.path[p0 - 1] !== a.path[p0 - 1]) return null;
  const left = new Set<string>();
  for (const id of prev.onTop) if (!next.onTop.has(id) && g.loci[id]) left.add(id);
  const loci = new Set<string>();
  for (let i = 0; i < n0; i++) {
    const id = g.order[i];
    if (g.loci[id] !== a.loci[id]) loci.add(id); // revisited
  }
  for (let i = n0; i < g.order.length; i++) loci.add(g.order[i]);
  for (const id of left) loci.add(id);
  const edges: number[] = [];
  for (let i = 0; i < g.path.length; i++) {
    const e = g.path[i];
    if (i >= p0 || left.has(e.source) || left.has(e.target)) {
      edges.push(i);
      // (an edge drawn over a disc: the disc goes over it again, as in a whole picture)
      loci.add(e.source);
      loci.add(e.target);
    }
  }
  return { edges, loci: [...loci] };
}

/** A filled triangle pointing from `a` to `c`, its tip `back` map px short of `c`. */
function arrowHead(ctx: CanvasRenderingContext2D, a: Point, c: Point, back: number): void {
  const len = Math.hypot(c.x - a.x, c.y - a.y);
  if (len <= back + 1) return;
  const ux = (c.x - a.x) / len;
  const uy = (c.y - a.y) / len;
  const tx = c.x - ux * back;
  const ty = c.y - uy * back;
  const size = 9;
  ctx.moveTo(tx, ty);
  ctx.lineTo(tx - ux * size - uy * size * 0.5, ty - uy * size + ux * size * 0.5);
  ctx.lineTo(tx - ux * size + uy * size * 0.5, ty - uy * size - ux * size * 0.5);
  ctx.closePath();
}

/** Each locus's concept (and its visits, inside the disc, past one) as the DOM node shows it:
 * centred under the disc, on a dark halo, wrapped at LABEL_MAX_WIDTH. */
function drawLabels(ctx: CanvasRenderingContext2D, g: GraphState, ids: readonly string[], positions: Map<string, Point>, onTop: Set<string>, near: (p: Point) => boolean): void {
  const family = getComputedStyle(ctx.canvas).fontFamily || "sans-serif";
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  ctx.lineJoin = "round";
  ctx.strokeStyle = "#0c111b";
  ctx.lineWidth = 4;
  ctx.font = `500 13px ${family}`;
  const lineH = 13 * 1.2;
  ctx.fillStyle = "#e6e9f0";
  for (const id of ids) {
    const p = positions.get(id);
    if (onTop.has(id) || !p || !near(p)) continue;
    const n = g.loci[id];
    let y = p.y + locusRadius(n.visit_count) + 4 + (lineH - 13) / 2;
    for (const line of wrap(ctx, n.concept, LABEL_MAX_WIDTH)) {
      ctx.strokeText(line, p.x, y);
      ctx.fillText(line, p.x, y);
      y += lineH;
    }
  }
  ctx.font = `700 11px ${family}`;
  ctx.textBaseline = "middle";
  ctx.fillStyle = "#0c111b";
  for (const id of ids) {
    const p = positions.get(id);
    const v = g.loci[id].visit_count;
    if (v > 1 && p && !onTop.has(id) && near(p)) ctx.fillText(String(v), p.x, p.y);
  }
}

/** `text` in lines no wider than `max` (a word longer than that keeps its own line). */
export function wrap(ctx: Pick<CanvasRenderingContext2D, "measureText">, text: string, max: number): string[] {
  if (ctx.measureText(text).width <= max) return [text];
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    const next = line ? `${line} ${word}` : word;
    if (line && ctx.measureText(next).width > max) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/** The canvas, in map coordinates inside the viewport; redrawn when the picture changes, the
 * zoom settles at a different scale, or the view leaves the area drawn (see cull.ts). */
function FarCanvasView({ pic }: { pic: FarPicture }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const zoom = useStore((s) => s.transform[2]);
  const settled = useSettled(zoom);
  const [hold] = useState(() => ({ win: null as CullWindow | null }));
  const win = useStore((s) => (hold.win = nextCullWindow(hold.win, s.transform, s.width, s.height)));
  const all = useMemo(() => farBounds(pic.graph, pic.positions), [pic]);
  // (a new window over the same part of the map, as when it all fits in the view, draws nothing new)
  const clip = all ? clipToWindow(all, win) : null;
  const area = clip ? `${clip.x},${clip.y},${clip.w},${clip.h}` : "";
  const b = useMemo(() => clip, [area]); // eslint-disable-line react-hooks/exhaustive-deps
  const dpr = typeof window !== "undefined" ? window.devicePixelRatio || 1 : 1;
  const scale = b ? Math.min(settled * dpr, MAX_SIDE / Math.max(b.w, b.h)) : 1;
  const w = b ? Math.max(1, Math.round(b.w * scale)) : 1;
  const h = b ? Math.max(1, Math.round(b.h * scale)) : 1;
  const labels = settled >= LABEL_ZOOM;
  // what is on the canvas now: a new picture over the same area, scale and labels is drawn
  // as what it adds (see addedSince)
  const [drawn] = useState(() => ({ pic: null as FarPicture | null, area: "", scale: 0, w: 0, h: 0, labels: false }));
  useEffect(() => {
    const c = ref.current;
    if (!c || !b) return;
    const ctx = c.getContext("2d");
    if (!ctx) return;
    const t = performance.now();
    const same = drawn.pic && drawn.area === area && drawn.scale === scale && drawn.w === w && drawn.h === h && drawn.labels === labels;
    const only = same ? addedSince(drawn.pic!, pic) : null;
    drawFar(ctx, pic, b, scale, labels, only);
    Object.assign(drawn, { pic, area, scale, w, h, labels });
    performance.measure("wander:far-draw", { start: t }); // (read by bench/mindmap_probe.mjs)
    c.dataset.loci = String(pic.graph.order.length); // how many loci the picture holds (the bench's catch-up waits for all)
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
