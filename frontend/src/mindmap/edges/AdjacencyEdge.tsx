import { memo } from "react";
import { BaseEdge, type Edge, type EdgeProps } from "@xyflow/react";
import { rimToRim } from "./geometry";

export type AdjacencyEdgeData = { probability: number; sr: number; tr: number; ghost: boolean };
export type AdjacencyEdgeType = Edge<AdjacencyEdgeData, "adjacency">;

/** A candidate next step of the latest step: dashed, fainter for less probable ones. */
function AdjacencyEdgeView({ id, sourceX, sourceY, targetX, targetY, data }: EdgeProps<AdjacencyEdgeType>) {
  const { x1, y1, x2, y2 } = rimToRim(sourceX, sourceY, data?.sr ?? 0, targetX, targetY, data?.tr ?? 0);
  const p = data?.probability ?? 0;
  return (
    <BaseEdge
      id={id}
      path={`M ${x1},${y1} L ${x2},${y2}`}
      className="adjacency-edge"
      style={{ strokeOpacity: 0.35 + Math.min(0.55, p * 3) }}
      interactionWidth={0}
    />
  );
}
export const AdjacencyEdge = memo(AdjacencyEdgeView);
