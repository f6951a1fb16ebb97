// Validity distribution (004 7.3): a histogram of validity scores over time.
import type { EChartsOption } from "echarts";
import type { ValidityHistogram } from "../../api/types.gen";

export const HISTOGRAM_HELP =
  "How the validity scores V fall, in bins of 0.05, one colour per period (oldest palest), stacked: the corpus's " +
  "sandwiches and the marginal ones waiting in (or rejected from) the review queue. The shaded bands are the gate: from 0.5 a " +
  "sandwich is kept for review, from 0.7 it is accepted. Scores drifting left over time mean the forager is finding weaker " +
  "structures.";

export function binLabel(edge: number, width: number): string {
  return `${edge.toFixed(2)}–${(edge + width).toFixed(2)}`;
}

type AxisParam = { seriesName: string; value: [number, number]; marker: string };

/** Bars on a value axis from 0 to 1, each at its bin's middle, so the gate's bands sit at 0.5 and 0.7 exactly. */
export function histogramOption(h: ValidityHistogram): EChartsOption {
  const n = h.periods.length;
  const mid = (i: number) => Math.round((h.bin_edges[i] + h.bin_width / 2) * 1000) / 1000;
  return {
    tooltip: {
      trigger: "axis",
      axisPointer: { type: "shadow" },
      formatter: (ps: unknown) => {
        const list = (ps as AxisParam[]).filter((p) => p.value[1] > 0);
        const first = (ps as AxisParam[])[0];
        if (!first) return "";
        const head = `V ${binLabel(first.value[0] - h.bin_width / 2, h.bin_width)}`;
        return [head, ...list.map((p) => `${p.marker}${p.seriesName}: ${p.value[1]}`)].join("<br/>");
      },
    },
    legend: { type: "scroll", top: 0, data: h.periods },
    grid: { left: 40, right: 24, top: 36, bottom: 36 },
    animation: false,
    xAxis: { type: "value", name: "V", min: 0, max: 1, interval: 0.1, axisLabel: { formatter: (v: number) => v.toFixed(1) } },
    yAxis: { type: "value", name: "scores", minInterval: 1 },
    series: h.periods.map((p, i) => ({
      type: "bar" as const,
      name: p,
      stack: "scores",
      barWidth: "90%",
      data: h.counts[i].map((c, b) => [mid(b), c]),
      itemStyle: { color: `rgba(34, 211, 238, ${n === 1 ? 0.9 : 0.3 + (0.6 * i) / (n - 1)})` },
      ...(i === 0
        ? {
            markArea: {
              silent: true,
              label: { position: "insideTop" as const, fontSize: 10, color: "#cbd5e1" },
              data: [
                [{ name: "review", xAxis: h.review, itemStyle: { color: "rgba(245, 158, 11, 0.12)" } }, { xAxis: h.accept }],
                [{ name: "accept", xAxis: h.accept, itemStyle: { color: "rgba(34, 197, 94, 0.12)" } }, { xAxis: 1 }],
              ],
            },
          }
        : {}),
    })),
  };
}
