import { memo } from "react";
import { Handle, Position, type Node, type NodeProps } from "@xyflow/react";

export type SubwanderNodeData = { seed: string; steps: number; maxSteps: number; status: string; running: boolean; w: number; h: number };
export type SubwanderNodeType = Node<SubwanderNodeData, "subwander">;

const hidden = { opacity: 0, top: "50%", left: "50%", width: 1, height: 1, minWidth: 0, minHeight: 0, border: 0, transform: "translate(-50%, -50%)" };

/** A sub-wander spawned from a locus ("go deeper"): a rounded tab with its seed and progress. */
function SubwanderNodeView({ data }: NodeProps<SubwanderNodeType>) {
  const pct = data.maxSteps ? Math.min(100, (100 * data.steps) / data.maxSteps) : 0;
  return (
    <div className="subwander" style={{ width: data.w, height: data.h }} title={`Sub-wander from “${data.seed}”: open its map`} data-testid="subwander-node">
      <Handle type="target" position={Position.Top} style={hidden} isConnectable={false} />
      <div className="subwander-seed">⤵ {data.seed}</div>
      <div className="subwander-progress" data-testid="subwander-progress">
        {data.steps}/{data.maxSteps} · {data.running ? "running" : data.status}
      </div>
      <div className="subwander-bar">
        <div style={{ width: `${pct}%` }} />
      </div>
      <Handle type="source" position={Position.Bottom} style={hidden} isConnectable={false} />
    </div>
  );
}
export const SubwanderNode = memo(SubwanderNodeView);
