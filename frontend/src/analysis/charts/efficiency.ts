// Foraging efficiency timeline (004 7.3): success rate over sessions.
import type { EChartsOption } from "echarts";
import type { EfficiencyPoint } from "../../api/types.gen";

export const EFFICIENCY_HELP =
  "Each foraging run, oldest on the left: its attempts stacked by what came of them (a sandwich made, no bread, no filling, " +
  "trivial, rejected, already seen, a source error), and its success rate (sandwiches made over attempts, the line, right " +
  "axis). 004's target is a rate above 30 % (the dashed line).";

const OUTCOME_COLOURS: Record<string, string> = {
  sandwich_made: "#0891b2",
  no_bread: "#cbd5e1",
  no_filling: "#94a3b8",
  trivial: "#a78bfa",
  rejected: "#f97316",
  already_seen: "#facc15",
  source_error: "#ef4444",
};
export const OUTCOMES = Object.keys(OUTCOME_COLOURS);

export function runLabel(p: EfficiencyPoint, i: number): string {
  const t = new Date(p.started_at);
  const hhmm = Number.isNaN(t.getTime()) ? "" : ` ${t.toISOString().slice(5, 16).replace("T", " ")}`;
  return `#${i + 1}${hhmm}`;
}

export function efficiencyOption(runs: EfficiencyPoint[]): EChartsOption {
  const seen = OUTCOMES.filter((o) => runs.some((r) => (r.outcomes[o] ?? 0) > 0));
  const extra = [...new Set(runs.flatMap((r) => Object.keys(r.outcomes)))].filter((o) => !OUTCOMES.includes(o)).sort();
  const kinds = [...seen, ...extra];
  return {
    tooltip: { trigger: "axis", className: "chart-tooltip" },
    legend: { type: "scroll", top: 0, data: [...kinds.map((k) => k.replace(/_/g, " ")), "success rate"] },
    grid: { left: 44, right: 48, top: 36, bottom: runs.length > 25 ? 70 : 44 },
    animation: false,
    xAxis: { type: "category", data: runs.map(runLabel), axisLabel: { fontSize: 10, rotate: runs.length > 8 ? 35 : 0 } },
    yAxis: [
      { type: "value", name: "attempts", minInterval: 1 },
      { type: "value", name: "rate", min: 0, max: 100, axisLabel: { formatter: "{value} %" }, splitLine: { show: false } },
    ],
    dataZoom: runs.length > 25 ? [{ type: "slider", bottom: 8, startValue: runs.length - 25, endValue: runs.length - 1 }] : [],
    series: [
      ...kinds.map((k) => ({
        type: "bar" as const,
        name: k.replace(/_/g, " "),
        stack: "attempts",
        data: runs.map((r) => r.outcomes[k] ?? 0),
        itemStyle: { color: OUTCOME_COLOURS[k] ?? "#64748b" },
      })),
      {
        type: "line" as const,
        name: "success rate",
        yAxisIndex: 1,
        data: runs.map((r) => (r.rate == null ? null : Math.round(r.rate * 1000) / 10)),
        itemStyle: { color: "#16a34a" },
        lineStyle: { width: 2 },
        symbolSize: 6,
        markLine: { silent: true, symbol: "none", lineStyle: { type: "dashed", color: "#16a34a" }, label: { formatter: "target 30 %", position: "insideEndTop" }, data: [{ yAxis: 30 }] },
      },
    ],
  };
}
