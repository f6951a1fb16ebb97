import { memo } from "react";
import { BaseEdge, type Edge, type EdgeProps } from "@xyflow/react";
import { rimToRim } from "./geometry";

export type LinkEdgeData = { sr: number; tr: number; kind: "crystal" | "subwander" };
export type LinkEdgeType = Edge<LinkEdgeData, "link">;

/** A crystal to its bread loci, a sub-wander to the locus it went deeper from: thin dotted. */
function LinkEdgeView({ id, sourceX, sourceY, targetX, targetY, data }: EdgeProps<LinkEdgeType>) {
  const { x1, y1, x2, y2 } = rimToRim(sourceX, sourceY, data?.sr ?? 0, targetX, targetY, data?.tr ?? 0);
  return <BaseEdge id={id} path={`M ${x1},${y1} L ${x2},${y2}`} className={`link-edge is-${data?.kind ?? "crystal"}`} interactionWidth={0} />;
}
export const LinkEdge = memo(LinkEdgeView);
