import { Handle, Position, type Node, type NodeProps } from "@xyflow/react";

export type FractalNodeData = {
  proposalId: string;
  imageUrl: string;
  status: string;
  size: number;
  anchor?: string; // the node it hangs off (crystal or locus)
};
export type FractalNodeType = Node<FractalNodeData, "fractal">;

const RING: Record<string, string> = { pending: "#fbbf24", approved: "#4ade80", rejected: "#f87171", executed: "#7dd3fc" };

/** A proposal's fractal image (its encoded, authenticated record) as a square on the map. */
export function FractalSquare({ imageUrl, status, size, title }: { imageUrl: string; status: string; size: number; title?: string }) {
  return (
    <div
      className="fractal-square"
      data-status={status}
      title={title ?? `proposal (${status})`}
      style={{ width: size, height: size, borderColor: RING[status] ?? "#8b98b3" }}
    >
      <img src={imageUrl} alt={`fractal encoding of a ${status} proposal`} width={size - 4} height={size - 4} />
    </div>
  );
}

export function FractalNode({ data }: NodeProps<FractalNodeType>) {
  return (
    <>
      <Handle type="target" position={Position.Top} style={{ opacity: 0 }} />
      <FractalSquare imageUrl={data.imageUrl} status={data.status} size={data.size} />
    </>
  );
}
