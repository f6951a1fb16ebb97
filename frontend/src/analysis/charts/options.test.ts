// @vitest-environment node
// The option builders of the six pictures, on constructed data: what each series holds.
import { describe, expect, it } from "vitest";
import type { EfficiencyPoint, HierarchyNode } from "../../api/types.gen";
import { CHARTS } from "./catalogue";
import { efficiencyOption } from "./efficiency";
import { EMPTY, SAMPLE } from "./fixtures";
import { heatmapOption } from "./heatmap";
import { binLabel, histogramOption } from "./histogram";
import { networkOption } from "./network";
import { typeColour } from "./palette";
import { sunburstOption } from "./sunburst";
import { leafCount, treemapOption } from "./treemap";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

describe("the six pictures' options", () => {
  it("network: a node per sandwich coloured by type and sized by V, a link per relation", () => {
    const s = (networkOption(SAMPLE.network).series as Any[])[0];
    expect(s.type).toBe("graph");
    expect(s.data.map((d: Any) => d.id)).toEqual(["1", "2", "3"]);
    expect(s.categories.map((c: Any) => c.name)).toEqual(["Bound", "Dialectic"]);
    expect(s.categories[1].itemStyle.color).toBe(typeColour("Dialectic"));
    expect(s.data[2].category).toBe(1);
    expect(s.data[2].symbolSize).toBeGreaterThan(s.data[1].symbolSize); // V 1.0 over V 0.7
    expect(s.links.map((l: Any) => [l.source, l.target, l.relation])).toEqual([["1", "2", "similar"], ["3", "1", "inverse"]]);
    expect(s.links[0].lineStyle.color).not.toBe(s.links[1].lineStyle.color);
  });

  it("treemap: roles, domains and ingredients valued by use", () => {
    const s = (treemapOption(SAMPLE.ingredients).series as Any[])[0];
    expect(s.type).toBe("treemap");
    expect(s.data.map((d: Any) => [d.name, d.value])).toEqual([["bread", 7], ["filling", 1]]);
    expect(s.data[0].children[0].children.map((d: Any) => [d.name, d.value])).toEqual([["limit", 5], ["bound", 2]]);
    expect(leafCount(SAMPLE.ingredients)).toBe(3);
  });

  it("sunburst: types (with a subtype inside its parent) and their sandwiches, in the type's colour", () => {
    const s = (sunburstOption(SAMPLE.types).series as Any[])[0];
    expect(s.type).toBe("sunburst");
    expect(s.data.map((d: Any) => [d.name, d.value])).toEqual([["Bound", 2], ["Dialectic", 1]]);
    expect(s.data[0].itemStyle.color).toBe(typeColour("Bound"));
    const negotiation = s.data[1].children[0];
    expect(negotiation.name).toBe("Negotiation");
    expect(negotiation.itemStyle.color).toBe(typeColour("Negotiation"));
    expect(negotiation.children[0]).toMatchObject({ name: "s3", value: 1, validity: 1 });
    expect(negotiation.children[0].itemStyle).toEqual({ color: typeColour("Negotiation"), opacity: 0.6 }); // its type's, paler
    expect(negotiation.children[0].label).toEqual({ show: false }); // a sandwich's long name shows on hover
  });

  it("histogram: one stacked series per period, each bin at its middle on a 0-1 axis, the review and accept bands marked", () => {
    const o = histogramOption(SAMPLE.validity) as Any;
    expect([o.xAxis.type, o.xAxis.min, o.xAxis.max]).toEqual(["value", 0, 1]);
    expect(o.series.map((x: Any) => [x.name, x.stack])).toEqual([["2026-01-01", "scores"], ["2026-01-02", "scores"]]);
    expect(o.series[0].data).toHaveLength(20);
    expect(o.series[0].data[14]).toEqual([0.725, 2]);
    expect(o.series[1].data[19]).toEqual([0.975, 1]);
    const [review, accept] = o.series[0].markArea.data;
    expect([review[0].name, review[0].xAxis, review[1].xAxis]).toEqual(["review", 0.5, 0.7]);
    expect([accept[0].name, accept[0].xAxis, accept[1].xAxis]).toEqual(["accept", 0.7, 1]);
    expect(o.series[1].markArea).toBeUndefined();
    expect(binLabel(0.7, 0.05)).toBe("0.70–0.75");
    const tip = o.tooltip.formatter([{ seriesName: "2026-01-01", value: [0.725, 2], marker: "" }, { seriesName: "2026-01-02", value: [0.725, 0], marker: "" }]);
    expect(tip).toBe("V 0.70–0.75<br/>2026-01-01: 2");
  });

  it("heatmap: a [type, domain, count] cell per pair, the scale up to the largest", () => {
    const o = heatmapOption(SAMPLE.heatmap) as Any;
    expect(o.series[0].data).toEqual([[0, 0, 2], [1, 1, 1]]);
    expect(o.visualMap.max).toBe(2);
    expect(o.yAxis.data).toEqual(["math", "philosophy"]);
  });

  it("efficiency: attempts stacked by outcome per run, and the success rate in percent", () => {
    const o = efficiencyOption(SAMPLE.efficiency as EfficiencyPoint[]) as Any;
    expect(o.xAxis.data).toEqual(["#1 01-01 09:00", "#2 01-02 09:00"]);
    const bars = o.series.filter((x: Any) => x.type === "bar");
    expect(bars.map((b: Any) => [b.name, b.data])).toEqual([["sandwich made", [1, 0]], ["no filling", [3, 0]]]);
    const line = o.series.find((x: Any) => x.type === "line");
    expect(line.data).toEqual([25, null]);
    expect(line.markLine.data[0].yAxis).toBe(30);
  });
});

describe("the catalogue and its colours", () => {
  it("the catalogue counts each picture's marks, and 0 on an empty corpus", () => {
    expect(CHARTS.map((c) => c.key)).toEqual(["network", "treemap", "sunburst", "validity", "heatmap", "efficiency"]);
    expect(CHARTS.map((c) => c.count(SAMPLE))).toEqual([3, 3, 3, 3, 2, 2]);
    expect(CHARTS.map((c) => c.count(EMPTY))).toEqual([0, 0, 0, 0, 0, 0]);
    for (const c of CHARTS) expect(c.help.length).toBeGreaterThan(80);
  });

  it("a type outside the taxonomy still gets a steady colour", () => {
    const t: HierarchyNode = { name: "root", value: 1, children: [{ name: "Novel", value: 1, children: [{ name: "x", value: 1, id: "9", validity: 0.9, children: [] }] }] };
    const s = (sunburstOption(t).series as Any[])[0];
    expect(s.data[0].itemStyle.color).toBe(typeColour("Novel"));
    expect(typeColour("Novel")).toBe(typeColour("Novel"));
  });
});

describe("the notes under a picture", () => {
  const note = (key: string, d: typeof SAMPLE) => CHARTS.find((c) => c.key === key)!.note!(d);
  it("the network says when it shows only the newest sandwiches, or has no relation yet", () => {
    expect(note("network", SAMPLE)).toBe("Relations: inverse, similar.");
    const many = { ...SAMPLE, network: { ...SAMPLE.network, edges: [], relation_types: [], total_sandwiches: 250 } };
    expect(note("network", many)).toBe("The newest 3 of 250 sandwiches. No relations among these sandwiches yet.");
  });
  it("the sunburst says when subtypes sit inside their parents", () => {
    expect(note("sunburst", SAMPLE)).toMatch(/inside their parent/);
    expect(note("sunburst", { ...SAMPLE, type_parents: false })).toBeNull();
  });
});
