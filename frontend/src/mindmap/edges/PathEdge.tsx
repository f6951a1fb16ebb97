import { memo } from "react";
import { BaseEdge, type Edge, type EdgeProps } from "@xyflow/react";
import { bridgeRails, rimToRim } from "./geometry";

export type PathEdgeData = { step: number; sr: number; tr: number; latest: boolean; bridge?: boolean };
export type PathEdgeType = Edge<PathEdgeData, "path">;

/** A step the walk took: solid, with an arrow at the rim of the locus it reached. */
function PathEdgeView({ id, sourceX, sourceY, targetX, targetY, data }: EdgeProps<PathEdgeType>) {
  const seg = rimToRim(sourceX, sourceY, data?.sr ?? 0, targetX, targetY, (data?.tr ?? 0) + 3);
  const { x1, y1, x2, y2 } = seg;
  if (data?.bridge) {
    // a step that crossed domains: a double line (two rails either side of the path)
    const [a, b] = bridgeRails(seg);
    return (
      <>
        <BaseEdge id={id} path={`M ${a.x1},${a.y1} L ${a.x2},${a.y2} M ${b.x1},${b.y1} L ${b.x2},${b.y2}`}
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
