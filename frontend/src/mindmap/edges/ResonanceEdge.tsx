import { memo } from "react";
import { BaseEdge, type Edge, type EdgeProps } from "@xyflow/react";
import { rimToRim } from "./geometry";

export type ResonanceEdgeData = { sr: number; tr: number; highlighted: boolean };
export type ResonanceEdgeType = Edge<ResonanceEdgeData, "resonance">;

/** Two loci sharing a confirmed resonance theme: a wavy line whose dashes flow (001). */
function ResonanceEdgeView({ id, sourceX, sourceY, targetX, targetY, data }: EdgeProps<ResonanceEdgeType>) {
  const { x1, y1, x2, y2, len } = rimToRim(sourceX, sourceY, data?.sr ?? 0, targetX, targetY, data?.tr ?? 0);
  const n = Math.max(2, Math.round(len / 28));
  const nx = -(y2 - y1) / (len || 1);
  const ny = (x2 - x1) / (len || 1);
  let d = `M ${x1},${y1}`;
  for (let i = 1; i <= n; i++) {
    const t0 = (i - 0.5) / n;
    const t1 = i / n;
    const amp = (i % 2 ? 1 : -1) * 9;
    d += ` Q ${x1 + (x2 - x1) * t0 + nx * amp},${y1 + (y2 - y1) * t0 + ny * amp} ${x1 + (x2 - x1) * t1},${y1 + (y2 - y1) * t1}`;
  }
  return <BaseEdge id={id} path={d} className={data?.highlighted ? "resonance-edge is-highlighted" : "resonance-edge"} interactionWidth={0} />;
}
export const ResonanceEdge = memo(ResonanceEdgeView);
