import type { EdgeTypes } from "@xyflow/react";
import { AdjacencyEdge } from "./AdjacencyEdge";
import { BridgeEdge } from "./BridgeEdge";
import { LinkEdge } from "./LinkEdge";
import { PathEdge } from "./PathEdge";
import { ResonanceEdge } from "./ResonanceEdge";

// Defined once at module scope so React Flow never sees a new object between renders.
export const edgeTypes: EdgeTypes = { path: PathEdge, adjacency: AdjacencyEdge, resonance: ResonanceEdge, link: LinkEdge, bridge: BridgeEdge };
export type { PathEdgeData, PathEdgeType } from "./PathEdge";
export type { AdjacencyEdgeData, AdjacencyEdgeType } from "./AdjacencyEdge";
export type { ResonanceEdgeData, ResonanceEdgeType } from "./ResonanceEdge";
export type { LinkEdgeData, LinkEdgeType } from "./LinkEdge";
export type { BridgeEdgeData, BridgeEdgeType } from "./BridgeEdge";
