// Where the map's nodes are: the dashed candidates it draws (the next step's, or the last
// step's), the force layout of every node, and the semantic (UMAP) layout when it is on;
// a switch between the two glides.
import { useMemo, useState } from "react";
import { adjacencyView, useWander, type AdjacencyEdge, type GhostNode, type GraphState } from "../store";
import { layoutInput, layoutInputCache } from "./layoutInput";
import { candidatesGraph, previewKey, useNextCandidates } from "./nextCandidates";
import { parentsOf, semanticScale, semanticTargets, useAnimatedPositions, type Box, type LayoutMode } from "./layout/semantic";
import type { Layout, LayoutInput, Point, Positions } from "./layout/types";
import { useForceLayout } from "./layout/useForceLayout";
import { useProjection, type Projection } from "./layout/useProjection";

export interface MapLayout {
  /** The candidates drawn: ghosts and their dashed edges; `next` when they are the next step's. */
  adj: { ghosts: GhostNode[]; edges: AdjacencyEdge[] };
  next: boolean;
  input: LayoutInput;
  /** Where each node is shown now (during a switch of layout, on its way). */
  positions: Positions;
  /** Where each node is going (the layout shown, once a switch has glided there). */
  target: Positions;
  /** The layout on screen: the semantic one once its projection has come. */
  shown: LayoutMode;
  /** Changes when the nodes glide to a new picture (a switch, a refit of the projection). */
  animKey: string;
  projection: Projection;
  /** Pins a locus where a person dropped it (the flow layout keeps it there). */
  pin: (id: string, at: Point) => void;
  /** The force layout is still laying out a backlog. */
  laying: boolean;
}

export function useMapLayout(graph: GraphState, mode: LayoutMode, size: Box | null): MapLayout {
  // The dashed candidates: on a live wander that can step, the next step's from the current
  // locus (the engine's preview); else the last step's (an archive, a wander that is over).
  const conn = useWander((s) => s.conn);
  const events = useWander((s) => s.log.length);
  const wantPreview = previewKey(graph, conn, events);
  const preview = useNextCandidates(wantPreview);
  const previewed = wantPreview !== null;
  const fan = useMemo(() => candidatesGraph(graph, previewed, preview), [graph, previewed, preview]);
  const adj = useMemo(() => adjacencyView(fan.graph), [fan.graph]);

  // The force layout runs only when the set of nodes changes (a new locus, new candidates):
  // the cache hands out the same input while its nodes and links are the same.
  const [cache] = useState(layoutInputCache);
  const input = useMemo(() => layoutInput(graph, adj.ghosts, cache), [graph, adj.ghosts, cache]);
  const force = useForceLayout(graph.sessionId, input);

  // The semantic layout: the stored projection scaled to the map's box; until it has come,
  // the flow layout stays on screen.
  const projection = useProjection(graph.sessionId, mode === "semantic", graph.order);
  const semantic = mode === "semantic" && projection.points !== null;
  const flow = force.positions;
  const target = useMemo(() => semanticPlace(semantic ? projection.points : null, { positions: flow }, input, size).positions, [semantic, projection.points, flow, input, size]);
  // a switch of layout, or a new picture of the projection, glides; the flow layout growing does not
  const animKey = semantic ? `semantic:${projection.fitId}:${projection.points?.size}` : "flow";
  const positions = useAnimatedPositions(target, animKey);
  return { adj, next: fan.next, input, positions, target, shown: semantic ? "semantic" : "flow", animKey, projection, pin: force.pin, laying: force.busy };
}

/** The semantic layout of the nodes the force layout placed (`points`: the projection), or
 * the force layout itself while there is no projection. */
function semanticPlace(points: Map<string, Point> | null, force: Layout, input: LayoutInput, size: Box | null): Layout {
  if (!points) return force;
  return { positions: semanticTargets(force.positions, points, parentsOf(input.nodes), semanticScale(points.size, size)) };
}
