// Sandwich network graph (004 7.3): nodes are sandwiches, edges are relations.
import type { EChartsOption } from "echarts";
import type { SandwichNetwork } from "../../api/types.gen";
import { relationColour, typeColour } from "./palette";

export const NETWORK_HELP =
  "Each dot is a sandwich, coloured by structural type and sized by validity V; a line joins two sandwiches the corpus " +
  "relates (similar structure, a shared bread or filling, inverse, generalization, domain transfer). Clusters are families of " +
  "insights; a lone dot shares nothing yet. Drag to pan, scroll to zoom, hover for the breads and filling.";

export function networkOption(net: SandwichNetwork): EChartsOption {
  const types = [...new Set(net.nodes.map((n) => n.structural_type))];
  return {
    tooltip: {
      formatter: (p: unknown) => {
        const d = (p as { dataType: string; data: Record<string, unknown> }).data;
        if ((p as { dataType: string }).dataType === "edge") return `${d.relation} (${Number(d.similarity).toFixed(2)})`;
        return `<b>${esc(String(d.name))}</b><br/>${esc(String(d.bread_top))} | <b>${esc(String(d.filling))}</b> | ${esc(
          String(d.bread_bottom),
        )}<br/>${d.type}, V ${Number(d.validity).toFixed(2)}`;
      },
    },
    legend: { type: "scroll", bottom: 0, data: types },
    animation: false,
    series: [
      {
        type: "graph",
        layout: "force",
        roam: true,
        draggable: true,
        force: { initLayout: "circular", repulsion: 120, edgeLength: [40, 110], gravity: 0.1, layoutAnimation: false },
        categories: types.map((t) => ({ name: t, itemStyle: { color: typeColour(t) } })),
        data: net.nodes.map((n) => ({
          id: n.id,
          name: n.name,
          category: types.indexOf(n.structural_type),
          symbolSize: 8 + 14 * Math.max(0, n.validity),
          validity: n.validity,
          type: n.structural_type,
          bread_top: n.bread_top,
          filling: n.filling,
          bread_bottom: n.bread_bottom,
        })),
        links: net.edges.map((e) => ({
          source: e.source,
          target: e.target,
          relation: e.relation_type,
          similarity: e.similarity,
          lineStyle: { color: relationColour(e.relation_type), width: 1 + 2 * Math.max(0, e.similarity), opacity: 0.7 },
        })),
        label: { show: net.nodes.length <= 25, position: "right", fontSize: 10, formatter: "{b}", width: 160, overflow: "truncate" },
        labelLayout: { hideOverlap: true },
        emphasis: { focus: "adjacency", label: { show: true } },
      },
    ],
  };
}

export function esc(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] ?? c);
}
