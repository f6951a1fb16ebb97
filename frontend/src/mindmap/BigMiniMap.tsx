// The minimap of a large map: every locus as a dot on one canvas (drawn when the map
// changes) and the view as a rectangle over it. React Flow's minimap draws one SVG node per
// node, each with its own store subscription: at thousands of nodes every change of the
// flow's store ran thousands of selectors. A click or drag on it centres the view there.
import { memo, useDeferredValue, useEffect, useMemo, useRef } from "react";
import { Panel, useReactFlow, useStore } from "@xyflow/react";
import type { GraphState } from "../store";
import { farBounds } from "./FarCanvas";
import type { Bounds } from "./farDraw";
import type { Point } from "./layout/types";

const W = 200;
const H = 150;

// what the minimap shows: the map and the view (x, y, w, h) together, with a margin
function shownBounds(bounds: Bounds, [vx, vy, vw, vh]: number[]): Bounds {
  const x = Math.min(bounds.x, vx);
  const y = Math.min(bounds.y, vy);
  const w = Math.max(bounds.x + bounds.w, vx + vw) - x;
  const h = Math.max(bounds.y + bounds.h, vy + vh) - y;
  const s = Math.max(w / W, h / H) * 1.08;
  return { x: x + w / 2 - (W * s) / 2, y: y + h / 2 - (H * s) / 2, w: W * s, h: H * s };
}

// every locus a dot, the current one a larger yellow dot
function drawDots(
  ctx: CanvasRenderingContext2D,
  shown: Bounds,
  order: string[],
  positions: Map<string, Point>,
  currentId: string | null,
) {
  const s = W / shown.w;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, W, H);
  ctx.fillStyle = "#64748b";
  for (const id of order) {
    const p = positions.get(id);
    if (p) ctx.fillRect((p.x - shown.x) * s - 1, (p.y - shown.y) * s - 1, 2, 2);
  }
  const cur = currentId ? positions.get(currentId) : undefined;
  if (cur) {
    ctx.fillStyle = "#fde047";
    ctx.fillRect((cur.x - shown.x) * s - 2, (cur.y - shown.y) * s - 2, 4, 4);
  }
}

function BigMiniMapView(props: { graph: GraphState; positions: Map<string, Point>; currentId: string | null }) {
  // The map's dots follow a moment later, in a render React may interrupt: bounding and
  // redrawing thousands of loci is not in the way of a live step reaching the map.
  const graph = useDeferredValue(props.graph);
  const positions = useDeferredValue(props.positions);
  const currentId = useDeferredValue(props.currentId);
  const ref = useRef<HTMLCanvasElement>(null);
  const rf = useReactFlow();
  const bounds: Bounds | null = useMemo(() => farBounds(graph, positions), [graph, positions]);
  // the view's rectangle in map coordinates
  const view = useStore((s) => {
    const [tx, ty, z] = s.transform;
    return `${-tx / z},${-ty / z},${s.width / z},${s.height / z}`;
  });
  const [vx, vy, vw, vh] = view.split(",").map(Number);
  const shown: Bounds | null = bounds ? shownBounds(bounds, [vx, vy, vw, vh]) : null;
  // redrawn when the map changes, or when the view leaves what is drawn (rarely while panning)
  const drawnFor = useRef<string>("");
  const key = shown ? `${shown.x.toFixed(0)},${shown.y.toFixed(0)},${shown.w.toFixed(0)}` : "";
  useEffect(() => {
    const c = ref.current;
    const ctx = c?.getContext("2d");
    if (!c || !ctx || !shown) return;
    const k = `${key}:${graph.order.length}:${positions.size}:${currentId}`;
    if (drawnFor.current === k) return;
    drawnFor.current = k;
    drawDots(ctx, shown, graph.order, positions, currentId);
  });
  if (!shown) return null;
  const s = W / shown.w;
  const centreAt = (e: React.PointerEvent<HTMLDivElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    const x = shown.x + (e.clientX - r.left) / s;
    const y = shown.y + (e.clientY - r.top) / s;
    void rf.setCenter(x, y, { zoom: rf.getZoom() });
  };
  return (
    <Panel position="bottom-right" className="react-flow__minimap big-minimap" aria-label="minimap">
      <div
        style={{ position: "relative", width: W, height: H, background: "rgba(8, 12, 20, 0.65)", cursor: "pointer" }}
        onPointerDown={(e) => {
          e.currentTarget.setPointerCapture(e.pointerId);
          centreAt(e);
        }}
        onPointerMove={(e) => {
          if (e.buttons & 1) centreAt(e);
        }}
      >
        <canvas ref={ref} width={W} height={H} style={{ position: "absolute", inset: 0 }} />
        <div
          style={{
            position: "absolute",
            left: (vx - shown.x) * s,
            top: (vy - shown.y) * s,
            width: vw * s,
            height: vh * s,
            border: "1px solid #94a3b8",
            pointerEvents: "none",
          }}
        />
      </div>
    </Panel>
  );
}
export const BigMiniMap = memo(BigMiniMapView);
