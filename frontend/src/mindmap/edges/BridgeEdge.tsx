import { memo } from "react";
import { BaseEdge, type Edge, type EdgeProps } from "@xyflow/react";
import { bridgeRails, rimToRim } from "./geometry";

export type BridgeEdgeData = { sr: number; tr: number; bridgeType: string; strength: number };
export type BridgeEdgeType = Edge<BridgeEdgeData, "bridge">;

/** Two loci of different domains the walk found near each other, off its path (001's Bridge
 * edge): a dashed double line, apart from the path's solid one. */
function BridgeEdgeView({ id, sourceX, sourceY, targetX, targetY, data }: EdgeProps<BridgeEdgeType>) {
  const [a, b] = bridgeRails(rimToRim(sourceX, sourceY, data?.sr ?? 0, targetX, targetY, data?.tr ?? 0));
  return (
    <BaseEdge
      id={id}
      path={`M ${a.x1},${a.y1} L ${a.x2},${a.y2} M ${b.x1},${b.y1} L ${b.x2},${b.y2}`}
      className="bridge-edge"
      interactionWidth={0}
    />
  );
}
export const BridgeEdge = memo(BridgeEdgeView);
