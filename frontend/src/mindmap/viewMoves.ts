// The view's moves that following and "Whole map" make: fit the map, or centre the current
// locus at a reading zoom; how long a move glides. Pure of React: the hooks that call them
// (useFollow.ts) say when.
import { getNodesBounds, getViewportForBounds, type Node, type ReactFlowInstance } from "@xyflow/react";
import { FOLLOW_ZOOM } from "./followSlack";
import type { Point, Positions } from "./layout/types";

/** Past this many nodes, the loci are drawn on a canvas (see FarCanvas). */
export const CANVAS_ABOVE = 300;
/** Below this zoom labels are too small to read: follow the current locus instead of fitting all. */
const READABLE_ZOOM = 0.75;
/** Room the semantic layout's fit leaves for the map's tools (top left), the legend's toggle (top right) and the minimap. */
const SEMANTIC_PADDING = { top: "80px", left: "40px", bottom: "60px", right: "120px" } as const;

/** What a move of the view reads: the map's nodes where they are shown (`positions`) and
 * where they are going (`target`), the current locus's destination, and the layout. */
export interface ViewState {
  nodes: Node[];
  positions: Positions;
  target: Positions;
  currentPos: Point | undefined;
  semantic: boolean;
}

/**
 * How long a move of the view glides: `asked` on a small map; a large one (over
 * CANVAS_ABOVE nodes) jumps. A glide across a large map redraws the canvas for each area
 * it passes over (30-45 ms each with labels, see FarCanvas): it kept the page busy and events
 * that came meanwhile waited behind it. This holds for every move following makes
 * (a step, Fit & follow, a resize) and for Whole map and a search's focus.
 */
export function glideFor(nodes: number, asked: number): number {
  return nodes > CANVAS_ABOVE ? 0 : asked;
}

/** Following's move: the whole map while it fits at a readable zoom, else the current locus
 * in the middle at FOLLOW_ZOOM (the semantic layout, a picture of the whole wander, is always
 * fitted whole). Returns the glide's duration. */
export function followMove(rf: ReactFlowInstance, el: HTMLElement, v: ViewState, asked: number): number {
  const duration = glideFor(v.nodes.length, asked);
  const b = getNodesBounds(destinedAll(v));
  const pad = 140;
  const fitZoom = Math.min(el.clientWidth / (b.width + pad), el.clientHeight / (b.height + pad));
  if (fitZoom >= READABLE_ZOOM || !v.currentPos || v.semantic) {
    // the semantic picture fills the whole box: keep it clear of the tools, legend and minimap
    const padding = v.semantic ? SEMANTIC_PADDING : 0.2;
    void rf.setViewport(getViewportForBounds(b, el.clientWidth, el.clientHeight, 0.02, 1.3, padding), { duration });
  } else void rf.setCenter(v.currentPos.x, v.currentPos.y, { zoom: FOLLOW_ZOOM, duration });
  return duration;
}

/** Fits the whole map. Not React Flow's fitView: it sees only the nodes React Flow holds (not
 * the canvas's), and it only queues the fit, which on a 300-step map (238 loci) never ran:
 * the view stayed where it was. */
export function wholeMove(rf: ReactFlowInstance, el: HTMLElement, v: ViewState, asked: number): void {
  const padding = v.semantic ? SEMANTIC_PADDING : 0.15;
  void rf.setViewport(getViewportForBounds(getNodesBounds(destinedAll(v)), el.clientWidth, el.clientHeight, 0.02, 3, padding), { duration: glideFor(v.nodes.length, asked) });
}

/** The nodes where their layout is taking them (a switch of layout, a new projection glides
 * them there: the view is fitted to the end of the glide). */
function destinedAll(v: ViewState): Node[] {
  return v.positions === v.target ? v.nodes : v.nodes.map((n) => destined(n, v.positions, v.target));
}

/** Node `n` moved to where its layout is taking it. */
function destined(n: Node, at: Positions, to: Positions): Node {
  const a = at.get(n.id);
  const b = to.get(n.id);
  if (!a || !b || (a.x === b.x && a.y === b.y)) return n;
  return { ...n, position: { x: n.position.x + b.x - a.x, y: n.position.y + b.y - a.y } };
}
