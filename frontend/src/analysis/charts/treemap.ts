// Ingredient treemap (004 7.3): a hierarchical view of ingredient usage.
import type { EChartsOption } from "echarts";
import type { HierarchyNode } from "../../api/types.gen";

export const TREEMAP_HELP =
  "Every ingredient the corpus has used, as a tile whose area is how many sandwiches use it, grouped by role (bread or " +
  "filling) and then by the ingredient's domain. A few large tiles mean the forager keeps coming back to the same concepts; " +
  "many small ones, a diverse corpus. Click a group to zoom in.";

type Tile = { name: string; value: number; children?: Tile[] };
const tiles = (n: HierarchyNode): Tile =>
  n.children && n.children.length ? { name: n.name, value: n.value, children: n.children.map(tiles) } : { name: n.name, value: n.value };

export function treemapOption(root: HierarchyNode): EChartsOption {
  return {
    tooltip: { formatter: (p: unknown) => { const q = p as { name: string; value: number; treePathInfo?: { name: string }[] }; return `${(q.treePathInfo ?? []).slice(1).map((x) => x.name).join(" › ")}: ${q.value} use${q.value === 1 ? "" : "s"}`; } },
    animation: false,
    series: [
      {
        type: "treemap",
        name: "ingredients",
        data: (root.children ?? []).map(tiles),
        leafDepth: 3,
        roam: false,
        nodeClick: "zoomToNode",
        breadcrumb: { show: true, bottom: 4 },
        upperLabel: { show: true, height: 18, color: "#fff" },
        label: { show: true, formatter: "{b}", fontSize: 11 },
        levels: [
          { itemStyle: { borderColor: "#334155", borderWidth: 3, gapWidth: 3 }, color: ["#0891b2", "#a855f7"] },
          { itemStyle: { borderColor: "#475569", borderWidth: 2, gapWidth: 2 }, colorSaturation: [0.35, 0.6] },
          { itemStyle: { borderColorSaturation: 0.6, gapWidth: 1, borderWidth: 1 }, colorSaturation: [0.3, 0.7] },
        ],
      },
    ],
  };
}

/** How many ingredients the treemap draws (its leaves). */
export function leafCount(n: HierarchyNode): number {
  return n.children && n.children.length ? n.children.reduce((s, c) => s + leafCount(c), 0) : 1;
}
