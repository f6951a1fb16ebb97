// Proposals on the map: each one's fractal image as a square hanging off its crystal's
// first bread locus (the review panel keeps the list fresh).
import type { Edge, Node } from "@xyflow/react";
import { create } from "zustand";
import type { ProposalOut } from "../api/types.gen";
import type { Point } from "./layout/force";
import type { FractalNodeData } from "./nodes/FractalNode";

export const FRACTAL_SIZE = 56;

export const useProposalList = create<{ list: ProposalOut[]; setList: (list: ProposalOut[]) => void }>((set) => ({
  list: [],
  setList: (list) => set({ list }),
}));

function anchorOf(p: ProposalOut): string | null {
  const loci = (p.evaluation as { evidence?: { loci?: { id: string }[] } }).evidence?.loci;
  return loci && loci.length ? loci[0].id : null;
}

export function fractalNodes(list: ProposalOut[], positions: Map<string, Point>): Node[] {
  const perAnchor = new Map<string, number>();
  const out: Node[] = [];
  for (const p of list) {
    const anchor = anchorOf(p);
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
      data,
      zIndex: 4,
      draggable: false,
      connectable: false,
      selectable: false,
    });
  }
  return out;
}

export function fractalEdges(nodes: Node[], list: ProposalOut[]): Edge[] {
  const shown = new Set(nodes.map((n) => n.id));
  return list
    .filter((p) => shown.has(`fractal:${p.id}`))
    .map((p) => ({
      id: `fractal-edge:${p.id}`,
      type: "straight",
      source: anchorOf(p)!,
      target: `fractal:${p.id}`,
      style: { stroke: "#c084fc", strokeDasharray: "3 3" },
      selectable: false,
    }));
}
