// Domain x Structure heatmap (004 7.3): which structures appear in which domains.
import type { EChartsOption } from "echarts";
import type { DomainStructureHeatmap } from "../../api/types.gen";

export const HEATMAP_HELP =
  "Rows are the domains with most sandwiches, columns the ten structural types; a cell's colour and number are how many " +
  "sandwiches of that structure touch that domain (a sandwich counts once under each of its domains), brighter for more. " +
  "A row bright in one column only is a domain that thinks in one shape; empty columns are structures no domain has yielded yet.";

export function heatmapOption(hm: DomainStructureHeatmap): EChartsOption {
  const max = Math.max(1, ...hm.cells.map((c) => c.count));
  return {
    tooltip: {
      formatter: (p: unknown) => {
        const v = (p as { value: [number, number, number] }).value;
        return `${hm.domains[v[1]]} × ${hm.types[v[0]]}: ${v[2]} sandwich${v[2] === 1 ? "" : "es"}`;
      },
    },
    grid: { left: 130, right: 16, top: 10, bottom: 90 },
    animation: false,
    xAxis: { type: "category", data: hm.types, splitArea: { show: true }, axisLabel: { rotate: 40, fontSize: 10, interval: 0 } },
    yAxis: { type: "category", data: hm.domains, inverse: true, axisLabel: { fontSize: 10, interval: 0, width: 120, overflow: "truncate" } },
    visualMap: { min: 0, max, calculable: false, orient: "horizontal", left: "center", bottom: 0, itemHeight: 120, text: ["more", "fewer"], inRange: { color: ["#0c4a5e", "#0891b2", "#a5f3fc"] } },
    series: [
      {
        type: "heatmap",
        name: "sandwiches",
        data: hm.cells.map((c) => [hm.types.indexOf(c.structural_type), hm.domains.indexOf(c.domain), c.count]),
        label: { show: true, fontSize: 10, color: "#f8fafc", textBorderColor: "#0b1220", textBorderWidth: 2 },
        emphasis: { itemStyle: { borderColor: "#111", borderWidth: 1 } },
      },
    ],
  };
}
