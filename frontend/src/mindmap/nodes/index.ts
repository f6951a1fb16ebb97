import type { NodeTypes } from "@xyflow/react";
import { FractalNode } from "./FractalNode";
import { GhostNode } from "./GhostNode";
import { LocusNode } from "./LocusNode";

// Defined once at module scope so React Flow never sees a new object between renders.
export const nodeTypes: NodeTypes = { locus: LocusNode, ghost: GhostNode, fractal: FractalNode };
export type { LocusNodeData, LocusNodeType } from "./LocusNode";
export type { GhostNodeData, GhostNodeType } from "./GhostNode";
export type { FractalNodeData, FractalNodeType } from "./FractalNode";
