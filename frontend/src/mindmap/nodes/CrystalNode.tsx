import { memo } from "react";
import { Handle, Position, type Node, type NodeProps } from "@xyflow/react";

export type CrystalNodeData = {
  insight: string;
  v: number | null;
  verdict: string | null;
  status: string;
  review: "accept" | "reject" | null;
  thumb: string;
  size: number;
  selected: boolean;
};
export type CrystalNodeType = Node<CrystalNodeData, "crystal">;

const hidden = { opacity: 0, top: "50%", left: "50%", width: 1, height: 1, minWidth: 0, minHeight: 0, border: 0, transform: "translate(-50%, -50%)" };

/** A crystallized insight: a diamond showing its Wheeler attractor, gold when validated,
 * amber-dashed while it waits for a person's review. */
function CrystalNodeView({ data }: NodeProps<CrystalNodeType>) {
  const pending = data.verdict === "review" && !data.review;
  const cls = ["crystal", pending ? "is-review" : "", data.status === "invalidated" ? "is-rejected" : "", data.selected ? "is-selected" : ""]
    .filter(Boolean)
    .join(" ");
  return (
    <div className={cls} style={{ width: data.size, height: data.size }} title={`${data.insight}\nV=${data.v?.toFixed(2) ?? "?"} (${data.verdict ?? ""})`} data-testid="crystal-node">
      <Handle type="target" position={Position.Top} style={hidden} isConnectable={false} />
      <div className="crystal-diamond">
        <img src={data.thumb} alt="attractor" className="crystal-thumb" draggable={false} />
      </div>
      <div className="crystal-label" style={{ top: data.size + 2 }}>
        ◆ {data.v !== null ? `V ${data.v.toFixed(2)}` : "crystal"}
      </div>
      <Handle type="source" position={Position.Bottom} style={hidden} isConnectable={false} />
    </div>
  );
}
export const CrystalNode = memo(CrystalNodeView);
