// Structural type sunburst (004 7.3): the taxonomy with sandwich counts.
import type { EChartsOption } from "echarts";
import type { HierarchyNode } from "../../api/types.gen";
import { esc } from "./network";
import { typeColour } from "./palette";

export const SUNBURST_HELP =
  "The structural taxonomy with its sandwiches: the inner ring holds the structural types, each as wide as its number of " +
  "sandwiches; where the taxonomy makes a type a kind of another (Stochastic of Epistemic, Optimization of Bound, " +
  "Negotiation of Dialectic) it sits inside its parent; the outer ring is the sandwiches themselves (a type's 40 best by " +
  "V one by one, the rest as one slice). Missing types are " +
  "structures the corpus has not found yet. Click a type to open it.";

type Slice = {
  name: string;
  value: number;
  itemStyle?: { color: string; opacity?: number };
  label?: { show: boolean };
  children?: Slice[];
  validity?: number | null;
};
const TYPES = new Set(["Bound", "Dialectic", "Epistemic", "Temporal", "Perspectival", "Conditional", "Stochastic", "Optimization", "Negotiation", "Definitional"]);

function slice(n: HierarchyNode, inherited: string | null): Slice {
  const isType = !n.id && (TYPES.has(n.name) || (n.children ?? []).length > 0);
  const colour = isType ? typeColour(n.name) : inherited;
  const out: Slice = { name: n.name, value: n.value, validity: n.validity ?? null };
  // a type in its colour; a sandwich in its type's, paler, its name on hover (names are long)
  if (colour) out.itemStyle = isType ? { color: colour } : { color: colour, opacity: 0.6 };
  if (!isType) out.label = { show: false };
  if (n.children && n.children.length) out.children = n.children.map((c) => slice(c, colour));
  return out;
}

export function sunburstOption(root: HierarchyNode): EChartsOption {
  const many = (root.value ?? 0) > 40;
  return {
    tooltip: {
      formatter: (p: unknown) => {
        const d = (p as { data: Slice }).data;
        if (d.children) return `${esc(d.name)}: ${d.value} sandwich${d.value === 1 ? "" : "es"}`;
        if (d.validity == null) return `${esc(d.name)}: sandwiches of lower V, not drawn one by one`;
        return `${esc(d.name)}<br/>V ${Number(d.validity).toFixed(2)}`;
      },
    },
    animation: false,
    series: [
      {
        type: "sunburst",
        data: (root.children ?? []).map((c) => slice(c, null)),
        radius: ["12%", "95%"],
        sort: undefined,
        nodeClick: "rootToNode",
        itemStyle: { borderColor: "#151e2f", borderWidth: 1 },
        label: { rotate: "radial", fontSize: 10, minAngle: many ? 8 : 4 },
        emphasis: { focus: "ancestor", label: { show: true } },
        levels: [{}, { label: { rotate: "tangential", fontSize: 11 } }, {}, {}],
      },
    ],
  };
}
