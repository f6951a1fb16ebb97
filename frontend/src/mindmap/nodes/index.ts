import type { NodeTypes } from "@xyflow/react";
import { CrystalNode } from "./CrystalNode";
import { FractalNode } from "./FractalNode";
import { GhostNode } from "./GhostNode";
import { LocusNode } from "./LocusNode";
import { SubwanderNode } from "./SubwanderNode";

// Every node kind of the map is registered here, once, at module scope (React Flow must
// never see a new object between renders). A new kind adds one line.
export const nodeTypes: NodeTypes = {
  locus: LocusNode,
  ghost: GhostNode,
  crystal: CrystalNode,
  subwander: SubwanderNode,
  fractal: FractalNode,
};
export type { LocusNodeData, LocusNodeType } from "./LocusNode";
export type { GhostNodeData, GhostNodeType } from "./GhostNode";
export type { CrystalNodeData, CrystalNodeType } from "./CrystalNode";
export type { SubwanderNodeData, SubwanderNodeType } from "./SubwanderNode";
export type { FractalNodeData, FractalNodeType } from "./FractalNode";
