import { memo } from "react";
import { BaseEdge, type Edge, type EdgeProps } from "@xyflow/react";
import { rimToRim } from "./geometry";

export type PathEdgeData = { step: number; sr: number; tr: number; latest: boolean; bridge?: boolean };
export type PathEdgeType = Edge<PathEdgeData, "path">;

/** A step the walk took: solid, with an arrow at the rim of the locus it reached. */
function PathEdgeView({ id, sourceX, sourceY, targetX, targetY, data }: EdgeProps<PathEdgeType>) {
  const { x1, y1, x2, y2, len } = rimToRim(sourceX, sourceY, data?.sr ?? 0, targetX, targetY, (data?.tr ?? 0) + 3);
  if (data?.bridge) {
    // a step that crossed domains: a double line (two rails either side of the path)
    const ox = (-(y2 - y1) / (len || 1)) * 2.5;
    const oy = ((x2 - x1) / (len || 1)) * 2.5;
    return (
      <>
        <BaseEdge id={id} path={`M ${x1 + ox},${y1 + oy} L ${x2 + ox},${y2 + oy} M ${x1 - ox},${y1 - oy} L ${x2 - ox},${y2 - oy}`}
          className={data?.latest ? "path-edge is-bridge is-latest" : "path-edge is-bridge"} interactionWidth={0} />
        <path d={`M ${x1},${y1} L ${x2},${y2}`} fill="none" stroke="none" markerEnd={data?.latest ? "url(#wander-arrow-latest)" : "url(#wander-arrow)"} />
      </>
    );
  }
  return (
    <BaseEdge
      id={id}
      path={`M ${x1},${y1} L ${x2},${y2}`}
      markerEnd={data?.latest ? "url(#wander-arrow-latest)" : "url(#wander-arrow)"}
      className={data?.latest ? "path-edge is-latest" : "path-edge"}
      interactionWidth={0}
    />
  );
}
export const PathEdge = memo(PathEdgeView);
