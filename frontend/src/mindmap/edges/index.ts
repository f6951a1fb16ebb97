import type { EdgeTypes } from "@xyflow/react";
import { AdjacencyEdge } from "./AdjacencyEdge";
import { PathEdge } from "./PathEdge";

// Defined once at module scope so React Flow never sees a new object between renders.
export const edgeTypes: EdgeTypes = { path: PathEdge, adjacency: AdjacencyEdge };
export type { PathEdgeData, PathEdgeType } from "./PathEdge";
export type { AdjacencyEdgeData, AdjacencyEdgeType } from "./AdjacencyEdge";
