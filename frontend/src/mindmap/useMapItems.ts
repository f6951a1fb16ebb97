// What the map draws: React Flow's nodes and edges for the graph where its layout put them
// (proposals' fractals too), and, on a large map, which of them React Flow keeps and what
// the far canvas draws (the rest, see FarCanvas), with the far-zoom overview's regions.
import { useMemo, useState } from "react";
import { useStore, type Edge, type Node } from "@xyflow/react";
import { useWander, type GraphState } from "../store";
import { flowPart, LABEL_ZOOM } from "./FarCanvas";
import type { FarPicture } from "./farDraw";
import { flowEdges, flowNodes, type FlowCache, type MapExtras } from "./flow";
import { fractalEdges, fractalNodes } from "./fractals";
import type { Point, Positions } from "./layout/types";
import { OVERVIEW_FROM, regionsOf, type Region } from "./overview";
import type { MapLayout } from "./useMapLayout";
import { CANVAS_ABOVE } from "./viewMoves";

const NO_REGIONS: Region[] = [];

/** Every node and edge of the map, as React Flow takes them (`nodes`: those being dragged
 * where the pointer holds them). */
export function useFlowItems(graph: GraphState, layout: MapLayout, dragging: Record<string, Point>): { nodes: Node[]; edges: Edge[] } {
  const selectedId = useWander((s) => s.selectedId);
  const highlight = useWander((s) => s.highlight);
  const crystalId = useWander((s) => s.crystalId);
  const compareId = useWander((s) => s.compareId);
  const proposals = useWander((s) => s.proposals);
  const { adj, positions } = layout;
  const extras: MapExtras = useMemo(() => ({ highlight: new Set(highlight), crystalId, compareId }), [highlight, crystalId, compareId]);
  const [nodeCache] = useState<FlowCache>(() => new Map());
  const [edgeCache] = useState<FlowCache>(() => new Map());
  const fractals = useMemo(() => fractalNodes(proposals, positions), [proposals, positions]);
  const laidOut = useMemo(() => {
    const ns = flowNodes(graph, adj.ghosts, positions, selectedId, nodeCache, extras);
    return fractals.length ? ns.concat(fractals) : ns;
  }, [graph, adj, positions, selectedId, nodeCache, extras, fractals]);
  const nodes = useMemo(() => {
    const ids = Object.keys(dragging);
    if (!ids.length) return laidOut;
    return laidOut.map((n) => {
      const p = dragging[n.id];
      return p ? { ...n, position: p, dragging: true } : n;
    });
  }, [laidOut, dragging]);
  const edges = useMemo(() => {
    const es = flowEdges(graph, adj.edges, edgeCache, extras);
    return fractals.length ? es.concat(fractalEdges(fractals)) : es;
  }, [graph, adj, edgeCache, extras, fractals]);
  return { nodes, edges };
}

export interface CanvasPart {
  /** What React Flow draws. */
  nodes: Node[];
  edges: Edge[];
  /** The far canvas's picture (null: a small map, all in React Flow). */
  farPic: FarPicture | null;
  regions: Region[];
  /** Zoomed out past the labels. */
  labelsOff: boolean;
}

/**
 * A large map draws its loci and the walk's edges on a canvas, at every zoom: React Flow
 * keeps what is marked or interactive (see FarCanvas), the locus under the pointer (so that
 * it can be dragged, a pin or a hint, and shows its title) and those being dragged. While
 * following, the current locus is not draggable: a drag that starts on it pans the map (it
 * pinned the locus the view was about to move to).
 */
export function useCanvasPart(graph: GraphState, positions: Positions, all: { nodes: Node[]; edges: Edge[] }, hovered: string | null, dragging: Record<string, Point>, follow: boolean): CanvasPart {
  const selectedId = useWander((s) => s.selectedId);
  const highlight = useWander((s) => s.highlight);
  const compareId = useWander((s) => s.compareId);
  const big = all.nodes.length > CANVAS_ABOVE;
  const labelsOff = useStore((s) => s.transform[2] < LABEL_ZOOM);
  // (the locus the latest step left too: React Flow draws that step, marked as the latest)
  const latestFrom = graph.path.length ? graph.path[graph.path.length - 1].source : null;
  const onTopKey = [graph.currentLocusId, latestFrom, selectedId, compareId, ...highlight, ...Object.keys(graph.hints), ...Object.keys(dragging)].join(",");
  const onTop = useMemo(() => new Set(onTopKey.split(",").filter(Boolean)), [onTopKey]);
  const regions = useRegions(graph, positions, labelsOff);
  const farPic = useFarPicture(big, graph, positions, onTop, regions);
  const shown = useMemo(() => (big ? flowPart(all.nodes, all.edges, (id) => onTop.has(id) || id === hovered) : all), [big, all, onTop, hovered]);
  const curId = graph.currentLocusId;
  const nodes = useMemo(() => {
    const i = follow && curId ? shown.nodes.findIndex((n) => n.id === curId) : -1;
    if (i < 0) return shown.nodes;
    const out = shown.nodes.slice();
    out[i] = { ...out[i], draggable: false };
    return out;
  }, [shown.nodes, follow, curId]);
  return { nodes, edges: shown.edges, farPic, regions, labelsOff };
}

/** The far-zoom overview's regions (see overview.ts): on the canvas of a large map (an image:
 * a pan costs nothing more), else drawn by Overview; their labels by Overview either way. */
function useRegions(graph: GraphState, positions: Positions, labelsOff: boolean): Region[] {
  const overviewOn = labelsOff && graph.order.length >= OVERVIEW_FROM;
  return useMemo(() => (overviewOn ? regionsOf(graph, positions) : NO_REGIONS), [overviewOn, graph, positions]);
}

/** The far canvas's picture (while a backlog replays, MindMap shows its graph and positions
 * now and then, not at every batch: see replayHold.ts). */
function useFarPicture(big: boolean, graph: GraphState, positions: Positions, onTop: Set<string>, regions: Region[]): FarPicture | null {
  return useMemo(() => (big ? { graph, positions, onTop, regions } : null), [big, graph, positions, onTop, regions]);
}
