// The far canvas's picture (see FarCanvas.tsx): the walk's edges, resonances, bridges off
// the path, fence halos, the loci's discs and, close in, their labels and arrows; drawn
// whole, or as what a live step added over the picture already there.
import { resonanceLinks, type GraphState, type PathEdge } from "../store";
import { bridgeRails, rimToRim, wavePieces } from "./edges/geometry";
import { placedSince } from "./layout/growth";
import type { Point } from "./layout/types";
import { MIXED, type Region } from "./overview";
import { domainColour, locusRadius } from "./palette";

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

/** Draws the picture at `scale` canvas px per map px onto `ctx` (its box `b`); with `labels`,
 * each locus's concept under it as React Flow's nodes show it. */
export function drawFar(ctx: CanvasRenderingContext2D, pic: FarPicture, b: Bounds, scale: number, labels = false, only: Added | null = null): void {
  const g = pic.graph;
  ctx.setTransform(scale, 0, 0, scale, -b.x * scale, -b.y * scale);
  if (!only) ctx.clearRect(b.x, b.y, b.w, b.h);
  // (with `only`: those edges and loci, drawn over the picture already there)
  const pathEdges = only ? only.edges.map((i) => g.path[i]) : g.path;
  const lociIds = only ? only.loci : g.order;
  const near = (p: Point) => p.x > b.x - REACH && p.x < b.x + b.w + REACH && p.y > b.y - REACH && p.y < b.y + b.h + REACH;
  // far out, the overview's regions: tinted outlines under everything
  if (!only && !labels && pic.regions?.length) drawRegions(ctx, pic.regions, scale);
  const heads = drawPath(ctx, pic, pathEdges, b, scale, labels, near);
  if (!only) drawResonances(ctx, pic, scale);
  drawBridges(ctx, pic, scale, labels, only ? new Set(only.loci) : null);
  // closer in, the arrow at the rim of the locus each step reached (as the SVG edges' marker)
  if (heads.length) {
    ctx.beginPath();
    for (const [a, c, r] of heads) arrowHead(ctx, a, c, r + 3);
    ctx.fillStyle = "#8b98b3";
    ctx.fill();
  }
  // fence anchors: their halo, under the disc
  if (g.fences.length) drawFences(ctx, pic, lociIds);
  drawDiscs(ctx, pic, lociIds, scale, labels, near);
  if (labels) drawLabels(ctx, g, lociIds, pic.positions, pic.onTop, near);
}

/** Map px a disc or its label may reach out of the box from outside. */
const REACH = 60;

function drawRegions(ctx: CanvasRenderingContext2D, regions: Region[], scale: number): void {
  for (const r of regions) {
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

/** The walk's edges: one path, a hairline at any zoom (at least one canvas px); closer in
 * (with labels), a bridge is PathEdge's double line (far out its rails would merge). Returns
 * the arrow heads to draw (closer in). */
function drawPath(ctx: CanvasRenderingContext2D, pic: FarPicture, pathEdges: readonly PathEdge[], b: Bounds, scale: number, labels: boolean, near: (p: Point) => boolean): [Point, Point, number][] {
  const { graph: g, positions, onTop } = pic;
  ctx.beginPath();
  const heads: [Point, Point, number][] = [];
  // (an edge wholly beside the box is left out: close in, the box is a small part of a large
  // map, and a path of all its 20,000 edges cost a live step most of its time)
  const bx0 = b.x - REACH;
  const by0 = b.y - REACH;
  const bx1 = b.x + b.w + REACH;
  const by1 = b.y + b.h + REACH;
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
  return heads;
}

/** Confirmed resonances: ResonanceEdge's wavy dashed purple line. Its dashes stay still here:
 * they flow on the SVG edge, but a redraw of the canvas costs 25-60 ms, too much for every frame. */
function drawResonances(ctx: CanvasRenderingContext2D, pic: FarPicture, scale: number): void {
  const { graph: g, positions, onTop } = pic;
  const res = resonanceLinks(g).filter((e) => !(onTop.has(e.source) && onTop.has(e.target)));
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
}

function drawFences(ctx: CanvasRenderingContext2D, pic: FarPicture, lociIds: readonly string[]): void {
  const { graph: g, positions, onTop } = pic;
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

/** The loci: discs in their domain's colour, grouped by colour (one fill per colour). */
function drawDiscs(ctx: CanvasRenderingContext2D, pic: FarPicture, lociIds: readonly string[], scale: number, labels: boolean, near: (p: Point) => boolean): void {
  const { graph: g, positions, onTop } = pic;
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
  // (positions that only grew since: the loci placed meanwhile are drawn, see growth.ts)
  const placed = placedSince(prev.positions, next.positions);
  if (a.sessionId !== g.sessionId || placed === null || prev.regions !== next.regions) return null;
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
  const fresh = new Set<string>(left);
  for (const id of placed) if (g.loci[id]) fresh.add(id);
  for (const id of fresh) loci.add(id);
  const edges: number[] = [];
  for (let i = 0; i < g.path.length; i++) {
    const e = g.path[i];
    if (i >= p0 || fresh.has(e.source) || fresh.has(e.target)) {
      edges.push(i);
      // (an edge drawn over a disc: the disc goes over it again, as in a whole picture)
      loci.add(e.source);
      loci.add(e.target);
    }
  }
  return { edges, loci: [...loci] };
}

/** Bridges between loci off the path (001's Bridge edge, BridgeEdge's amber dashes): close
 * in its two rails, further out one line (the rails would merge). With `of`: only the
 * bridges of those loci (what a live step added: its bridges start at the locus it reached). */
function drawBridges(ctx: CanvasRenderingContext2D, pic: FarPicture, scale: number, labels: boolean, of: Set<string> | null): void {
  const { graph: g, positions, onTop } = pic;
  ctx.beginPath();
  let any = false;
  for (const id in g.bridges) {
    const e = g.bridges[id];
    if ((onTop.has(e.source) && onTop.has(e.target)) || (of && !of.has(e.source) && !of.has(e.target))) continue;
    const a = positions.get(e.source);
    const c = positions.get(e.target);
    const la = g.loci[e.source];
    const lc = g.loci[e.target];
    if (!a || !c || !la || !lc) continue;
    const seg = rimToRim(a.x, a.y, locusRadius(la.visit_count), c.x, c.y, locusRadius(lc.visit_count));
    for (const r of labels ? bridgeRails(seg) : [seg]) {
      ctx.moveTo(r.x1, r.y1);
      ctx.lineTo(r.x2, r.y2);
    }
    any = true;
  }
  if (!any) return;
  ctx.strokeStyle = "rgba(212, 162, 76, 0.85)";
  ctx.lineWidth = Math.max(1.3, 1 / scale);
  ctx.setLineDash([5, 4]);
  ctx.stroke();
  ctx.setLineDash([]);
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

