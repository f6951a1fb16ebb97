// Proposals on the map: each one's fractal image as a square hanging off its crystal (the
// crystal node when the map draws one, else the crystal's first locus); the review panel
// keeps the list fresh (the store's `proposals`).
import type { Edge, Node } from "@xyflow/react";
import type { ProposalOut } from "../api/types.gen";
import type { Point } from "./layout/types";
import type { FractalNodeData } from "./nodes/FractalNode";

export const FRACTAL_SIZE = 56;

function anchorOf(p: ProposalOut, positions: Map<string, Point>): string | null {
  if (positions.has(`crystal:${p.crystal_id}`)) return `crystal:${p.crystal_id}`;
  const loci = (p.evaluation as { evidence?: { loci?: { id: string }[] } }).evidence?.loci;
  return loci && loci.length ? loci[0].id : null;
}

export function fractalNodes(list: ProposalOut[], positions: Map<string, Point>): Node[] {
  const perAnchor = new Map<string, number>();
  const out: Node[] = [];
  for (const p of list) {
    const anchor = anchorOf(p, positions);
    const at = anchor ? positions.get(anchor) : undefined;
    if (!anchor || !at) continue;
    const i = perAnchor.get(anchor) ?? 0;
    perAnchor.set(anchor, i + 1);
    const data: FractalNodeData = { proposalId: p.id, imageUrl: p.image_url, status: p.status, size: FRACTAL_SIZE };
    out.push({
      id: `fractal:${p.id}`,
      type: "fractal",
      position: { x: at.x + 50 + i * (FRACTAL_SIZE + 10), y: at.y - 50 - FRACTAL_SIZE },
      width: FRACTAL_SIZE,
      height: FRACTAL_SIZE,
      data: { ...data, anchor } as FractalNodeData,
      zIndex: 4,
      draggable: false,
      connectable: false,
      selectable: false,
    });
  }
  return out;
}

export function fractalEdges(nodes: Node[]): Edge[] {
  return nodes.map((n) => ({
    id: `fractal-edge:${n.id}`,
    type: "straight",
    source: (n.data as FractalNodeData).anchor!,
    target: n.id,
    style: { stroke: "#c084fc", strokeDasharray: "3 3" },
    selectable: false,
  }));
}
