import { useEffect, useRef, useState, type RefObject } from "react";
import { Background, BackgroundVariant, ConnectionMode, getNodesBounds, MiniMap, ReactFlow, useReactFlow, type Node } from "@xyflow/react";
import { useWander, type GraphState } from "../store";
import { edgeTypes } from "./edges";
import { nodeTypes } from "./nodes";
import { LocusMenu } from "./ContextMenu";
import { MapSearch, NoticeLine } from "./MapOverlays";
import { FarCanvas } from "./FarCanvas";
import { BigMiniMap } from "./BigMiniMap";
import { Overview } from "./Overview";
import { AttractorMark } from "./AttractorMark";
import { Legend } from "./Legend";
import { MapTools } from "./MapTools";
import type { Box, LayoutMode } from "./layout/semantic";
import type { Point } from "./layout/types";
import { useFollow, type FollowInput } from "./useFollow";
import { useMapHands } from "./useMapHands";
import { useCanvasPart, useFlowItems } from "./useMapItems";
import { useMapLayout } from "./useMapLayout";
import { useReplayHold } from "./replayHold";
import { CANVAS_ABOVE } from "./viewMoves";

/**
 * The mind map of the open session (live, or an archive at a step). Must be inside a
 * <ReactFlowProvider>. `layout`/`onLayout`: the "Flow" / "Semantic (UMAP)" switch when the
 * page keeps it (the archive view keeps it in its URL); else the map keeps it itself.
 */
export function MindMap({ layout: layoutProp, onLayout }: { layout?: LayoutMode; onLayout?: (m: LayoutMode) => void } = {}) {
  const graphNow = useWander((s) => s.graph);
  const replaying = useWander((s) => s.conn === "connecting");
  const [ownMode, setOwnMode] = useState<LayoutMode>("flow");
  const mode = layoutProp ?? ownMode;
  const box = useRef<HTMLDivElement>(null);
  const resized = useRef(() => {});
  const size = useBoxSize(box, resized);
  // (the layout is fed every batch of a replay; the rest of the map shows it now and then,
  // until the layout has placed the whole backlog)
  const laid = useMapLayout(graphNow, mode, size);
  const { graph, layout } = useReplayHold(replaying || laid.laying, graphNow, laid);
  const { positions, target, shown: shownLayout } = layout;
  /** Positions of nodes being dragged (React Flow is controlled: the map moves them). */
  const [dragging, setDragging] = useState<Record<string, Point>>({});
  const all = useFlowItems(graph, layout, dragging);
  const big = all.nodes.length > CANVAS_ABOVE;
  const hands = useMapHands(box, big, positions, shownLayout, layout.pin, setDragging);
  const currentPos = graph.currentLocusId ? target.get(graph.currentLocusId) : undefined;
  const view: FollowInput = {
    nodes: all.nodes,
    positions,
    target,
    currentPos,
    semantic: shownLayout === "semantic",
    sessionId: graph.sessionId,
    followKey: `${graph.sessionId}|${graph.currentLocusId}|${layout.animKey}`,
    animKey: layout.animKey,
    wholeKey: `${graph.sessionId}|${all.nodes.length}|${graph.currentLocusId}|${layout.animKey}`,
  };
  const follow = useFollow(box, view);
  resized.current = follow.resized;
  useProbeHooks(view);
  const part = useCanvasPart(graph, positions, all, hands.hovered, dragging, follow.follow);
  return (
    <div className={`mindmap${part.labelsOff ? " lod-far" : ""}${big ? " is-large" : ""}`} data-testid="mindmap" data-layout={shownLayout} data-fit-id={shownLayout === "semantic" ? (layout.projection.fitId ?? undefined) : undefined} ref={box}>
      <ArrowMarkers />
      <MapFlow graph={graph} positions={positions} part={part} hands={hands} follow={follow} big={big} />
      <MapTools follow={follow} mode={mode} onMode={onLayout ?? setOwnMode} projection={layout.projection} semantic={shownLayout === "semantic"} />
      <MapSearch />
      <NoticeLine />
      {graph.sessionId ? <LocusMenu sessionId={graph.sessionId} /> : null}
      {graph.order.length === 0 ? <div className="map-empty">Waiting for the first events…</div> : null}
      <Legend next={layout.next} />
    </div>
  );
}

/** React Flow with the map's items, its hands and follow's move handlers, and what it draws
 * over and beside them: dots, the far canvas, overview, attractor and minimap. */
function MapFlow({ graph, positions, part, hands, follow, big }: { graph: GraphState; positions: Map<string, Point>; part: ReturnType<typeof useCanvasPart>; hands: ReturnType<typeof useMapHands>; follow: ReturnType<typeof useFollow>; big: boolean }) {
  return (
    <ReactFlow
      nodes={part.nodes}
      edges={part.edges}
      nodeTypes={nodeTypes}
      edgeTypes={edgeTypes}
      onNodeClick={hands.onNodeClick}
      onNodeContextMenu={hands.onNodeContextMenu}
      onNodesChange={hands.onNodesChange}
      onNodeDragStop={hands.onNodeDragStop}
      onPaneClick={hands.onPaneClick}
      onPaneContextMenu={hands.onPaneContextMenu}
      onMoveStart={follow.onMoveStart}
      onMoveEnd={follow.onMoveEnd}
      nodesDraggable
      nodeDragThreshold={3}
      // a click whose pointer slips a pixel or two before the release is still a click
      // (React Flow's default 0 dropped it: a shaky select, compare or pick on the canvas)
      nodeClickDistance={3}
      paneClickDistance={3}
      nodesConnectable={false}
      connectionMode={ConnectionMode.Loose}
      elementsSelectable
      minZoom={0.02}
      maxZoom={3}
      proOptions={{ hideAttribution: true }}
      colorMode="dark"
    >
      {/* a large map has no dot grid: it is drawn anew at every frame of a pan (its pattern
          moves with the view), which doubled the frame time of the canvas's pan */}
      {big ? null : <Background variant={BackgroundVariant.Dots} gap={28} size={1.2} color="#253049" />}
      {part.farPic ? <FarCanvas pic={part.farPic} /> : null}
      <Overview graph={graph} positions={positions} regions={part.regions} shapes={!big} />
      <AttractorMark graph={graph} positions={positions} />
      {big ? (
        <BigMiniMap graph={graph} positions={positions} currentId={graph.currentLocusId} />
      ) : (
        <MiniMap pannable zoomable position="bottom-right" nodeColor={miniColour} maskColor="rgba(8, 12, 20, 0.65)" ariaLabel="minimap" />
      )}
    </ReactFlow>
  );
}

function ArrowMarkers() {
  return (
    <svg width="0" height="0" style={{ position: "absolute" }} aria-hidden>
      <defs>
        <marker id="wander-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" fill="#8b98b3" />
        </marker>
        <marker id="wander-arrow-latest" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" fill="#fde047" />
        </marker>
      </defs>
    </svg>
  );
}

/** The map's box size, measured again after a resize (then `resized` is told). */
function useBoxSize(box: RefObject<HTMLDivElement | null>, resized: RefObject<() => void>): Box | null {
  const [size, setSize] = useState<Box | null>(null);
  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    let t: ReturnType<typeof setTimeout> | undefined;
    const ro = new ResizeObserver(() => {
      clearTimeout(t);
      t = setTimeout(() => {
        setSize((s) => (s && Math.abs(s.width - el.clientWidth) < 40 && Math.abs(s.height - el.clientHeight) < 40 ? s : { width: el.clientWidth, height: el.clientHeight }));
        resized.current();
      }, 60);
    });
    ro.observe(el);
    return () => {
      clearTimeout(t);
      ro.disconnect();
    };
  }, [box, resized]);
  return size;
}

/** The hooks the benchmark (bench/mindmap_probe.mjs: the same view run after run) and the
 * e2e tests (e2e/tests/largemap.spec.ts: where a locus is on the screen, drawn on the canvas
 * or not) call on the page. */
function useProbeHooks(view: FollowInput): void {
  const rf = useReactFlow();
  const latest = useRef(view);
  latest.current = view;
  useEffect(() => {
    window.__wanderViewMiddle = (zoom) => {
      const b = getNodesBounds(latest.current.nodes);
      void rf.setCenter(b.x + b.width / 2, b.y + b.height / 2, { zoom });
    };
    window.__wanderLocusAt = (id) => {
      const p = latest.current.positions.get(id);
      return p ? rf.flowToScreenPosition(p) : null;
    };
    return () => {
      delete window.__wanderViewMiddle;
      delete window.__wanderLocusAt;
    };
  }, [rf]);
}

function miniColour(n: Node): string {
  if (n.type === "crystal") return "#fbbf24";
  if (n.type === "subwander") return "#c084fc";
  if (n.type === "ghost") return "#334155";
  return (n.data as { current?: boolean }).current ? "#fde047" : "#64748b";
}
