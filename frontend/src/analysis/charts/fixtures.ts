// Constructed chart data for the tests: a small corpus and an empty one.
import type { SandwichCharts } from "../../api/types.gen";

const node = (id: string, type: string, validity = 0.8) => ({
  id, name: `s${id}`, structural_type: type, validity, origin: "forager", bread_top: "top", filling: "fill", bread_bottom: "bottom",
});

export const SAMPLE: SandwichCharts = {
  network: {
    nodes: [node("1", "Bound"), node("2", "Bound", 0.7), node("3", "Dialectic", 1)],
    edges: [
      { source: "1", target: "2", relation_type: "similar", similarity: 0.9 },
      { source: "3", target: "1", relation_type: "inverse", similarity: 0.5 },
    ],
    relation_types: ["inverse", "similar"],
    total_sandwiches: 3,
  },
  ingredients: {
    name: "ingredients", value: 8,
    children: [
      { name: "bread", value: 7, children: [{ name: "math", value: 7, children: [{ name: "limit", value: 5, children: [] }, { name: "bound", value: 2, children: [] }] }] },
      { name: "filling", value: 1, children: [{ name: "(no domain)", value: 1, children: [{ name: "squeeze", value: 1, children: [] }] }] },
    ],
  },
  types: {
    name: "structural types", value: 3,
    children: [
      { name: "Bound", value: 2, children: [{ name: "s1", value: 1, id: "1", validity: 0.8, children: [] }, { name: "s2", value: 1, id: "2", validity: 0.7, children: [] }] },
      { name: "Dialectic", value: 1, children: [{ name: "Negotiation", value: 1, children: [{ name: "s3", value: 1, id: "3", validity: 1, children: [] }] }] },
    ],
  },
  type_parents: true,
  validity: {
    bin_edges: Array.from({ length: 20 }, (_, i) => i / 20), bin_width: 0.05, period: "day", periods: ["2026-01-01", "2026-01-02"],
    counts: [Array.from({ length: 20 }, (_, i) => (i === 14 ? 2 : 0)), Array.from({ length: 20 }, (_, i) => (i === 19 ? 1 : 0))],
    accept: 0.7, review: 0.5, scores: 3,
  },
  heatmap: { domains: ["math", "philosophy"], types: ["Bound", "Dialectic"], cells: [{ domain: "math", structural_type: "Bound", count: 2 }, { domain: "philosophy", structural_type: "Dialectic", count: 1 }] },
  efficiency: [
    { run_id: "r1", started_at: "2026-01-01T09:00:00+00:00", mode: "autonomous", attempts: 4, made: 1, rate: 0.25, outcomes: { sandwich_made: 1, no_filling: 3 } },
    { run_id: "r2", started_at: "2026-01-02T09:00:00+00:00", mode: "directed", attempts: 0, made: 0, rate: null, outcomes: {} },
  ],
};

export const EMPTY: SandwichCharts = {
  network: { nodes: [], edges: [], relation_types: [], total_sandwiches: 0 },
  ingredients: { name: "ingredients", value: 0, children: [] },
  types: { name: "structural types", value: 0, children: [] },
  type_parents: false,
  validity: { ...SAMPLE.validity, periods: [], counts: [], scores: 0 },
  heatmap: { domains: [], types: ["Bound"], cells: [] },
  efficiency: [],
};
