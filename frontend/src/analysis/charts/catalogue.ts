// The six pictures of 004 7.3, each with its title, what it shows, when it is empty, what it
// counts (the marks it draws) and its ECharts option, in the order the page shows them.
import type { EChartsOption } from "echarts";
import type { SandwichCharts } from "../../api/types.gen";
import { EFFICIENCY_HELP, efficiencyOption } from "./efficiency";
import { HEATMAP_HELP, heatmapOption } from "./heatmap";
import { HISTOGRAM_HELP, histogramOption } from "./histogram";
import { NETWORK_HELP, networkOption } from "./network";
import { SUNBURST_HELP, sunburstOption } from "./sunburst";
import { leafCount, TREEMAP_HELP, treemapOption } from "./treemap";

export interface ChartSpec {
  key: string;
  title: string;
  help: string;
  /** What the empty state says: why there is nothing and what makes something. */
  emptyText: string;
  /** How many marks the chart draws (nodes, tiles, sandwiches, scores, cells, runs); 0: empty. */
  count: (d: SandwichCharts) => number;
  option: (d: SandwichCharts) => EChartsOption;
  /** A line under the explanation about this corpus's picture (what it leaves out), if any. */
  note?: (d: SandwichCharts) => string | null;
  height?: number;
}

const FORAGE = "Forage (the button above) to make sandwiches; every wander's crystals join the corpus too.";

export const CHARTS: ChartSpec[] = [
  {
    key: "network",
    title: "Sandwich network",
    help: NETWORK_HELP,
    emptyText: `No sandwiches yet. ${FORAGE}`,
    count: (d) => d.network.nodes.length,
    option: (d) => networkOption(d.network),
    note: (d) =>
      [
        d.network.total_sandwiches > d.network.nodes.length
          ? `The newest ${d.network.nodes.length} of ${d.network.total_sandwiches} sandwiches.`
          : null,
        d.network.nodes.length > 1 && d.network.edges.length === 0 ? "No relations among these sandwiches yet." : null,
        d.network.relation_types.length ? `Relations: ${d.network.relation_types.map((r) => r.replace(/_/g, " ")).join(", ")}.` : null,
      ]
        .filter(Boolean)
        .join(" ") || null,
    height: 420,
  },
  {
    key: "treemap",
    title: "Ingredient treemap",
    help: TREEMAP_HELP,
    emptyText: `No ingredients yet: they are the breads and fillings of sandwiches. ${FORAGE}`,
    count: (d) => ((d.ingredients.children ?? []).length ? leafCount(d.ingredients) : 0),
    option: (d) => treemapOption(d.ingredients),
    height: 420,
  },
  {
    key: "sunburst",
    title: "Structural type sunburst",
    help: SUNBURST_HELP,
    emptyText: `No sandwich has a structural type yet. ${FORAGE}`,
    count: (d) => d.types.value,
    option: (d) => sunburstOption(d.types),
    note: (d) => (d.type_parents ? "Subtypes sit inside their parent type (the structural_types taxonomy)." : null),
    height: 420,
  },
  {
    key: "validity",
    title: "Validity distribution over time",
    help: HISTOGRAM_HELP,
    emptyText: `No validity scores yet: each sandwich and each marginal one kept for review adds one. ${FORAGE}`,
    count: (d) => d.validity.scores,
    option: (d) => histogramOption(d.validity),
  },
  {
    key: "heatmap",
    title: "Domain × structure heatmap",
    help: HEATMAP_HELP,
    emptyText: `No sandwiches to place by domain and structure yet. ${FORAGE}`,
    count: (d) => d.heatmap.cells.length,
    option: (d) => heatmapOption(d.heatmap),
    height: 380,
  },
  {
    key: "efficiency",
    title: "Foraging efficiency timeline",
    help: EFFICIENCY_HELP,
    emptyText: "No foraging runs yet: press Forage above (or run `wander forage`) and each run appears here.",
    count: (d) => d.efficiency.length,
    option: (d) => efficiencyOption(d.efficiency),
  },
];
