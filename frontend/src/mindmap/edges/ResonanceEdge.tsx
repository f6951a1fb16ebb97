import { memo } from "react";
import { BaseEdge, type Edge, type EdgeProps } from "@xyflow/react";
import { rimToRim, wavePath } from "./geometry";

export type ResonanceEdgeData = { sr: number; tr: number; highlighted: boolean };
export type ResonanceEdgeType = Edge<ResonanceEdgeData, "resonance">;

/** Two loci sharing a confirmed resonance theme: a wavy line whose dashes flow (001). */
function ResonanceEdgeView({ id, sourceX, sourceY, targetX, targetY, data }: EdgeProps<ResonanceEdgeType>) {
  const d = wavePath(rimToRim(sourceX, sourceY, data?.sr ?? 0, targetX, targetY, data?.tr ?? 0));
  return <BaseEdge id={id} path={d} className={data?.highlighted ? "resonance-edge is-highlighted" : "resonance-edge"} interactionWidth={0} />;
}
export const ResonanceEdge = memo(ResonanceEdgeView);
