import { memo } from "react";
import { Handle, Position, type Node, type NodeProps } from "@xyflow/react";
import { domainColour } from "../palette";

export type GhostNodeData = {
  concept: string;
  domains: string[];
  probability: number;
  reason: string;
  strategy: string;
  r: number;
};
export type GhostNodeType = Node<GhostNodeData, "ghost">;

const hidden = { opacity: 0, top: "50%", left: "50%", width: 1, height: 1, minWidth: 0, minHeight: 0, border: 0, transform: "translate(-50%, -50%)" };

/** A candidate of a step (the next one from the current locus, or the latest one taken) that the walk has not reached: a small hollow dot. */
function GhostNodeView({ data }: NodeProps<GhostNodeType>) {
  const d = data.r * 2;
  return (
    <div
      className="ghost"
      style={{ width: d, height: d, ["--c" as string]: domainColour(data.domains[0]) }}
      title={`${data.concept}: a candidate of the step from the locus its dashed line leaves (p=${data.probability.toFixed(3)})\n${data.strategy}: ${data.reason}\nClick: the next step goes there`}
      data-testid="ghost-node"
    >
      <Handle type="target" position={Position.Top} style={hidden} isConnectable={false} />
      <div className="ghost-label" style={{ top: d + 2 }}>
        {data.concept}
      </div>
    </div>
  );
}
export const GhostNode = memo(GhostNodeView);
