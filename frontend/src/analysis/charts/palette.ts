// One colour per structural type (the taxonomy's order), shared by the network, the sunburst
// and the heatmap's legend, so a type reads the same in every picture.
export const TYPE_ORDER = [
  "Bound",
  "Dialectic",
  "Epistemic",
  "Temporal",
  "Perspectival",
  "Conditional",
  "Stochastic",
  "Optimization",
  "Negotiation",
  "Definitional",
];
const COLOURS = ["#0891b2", "#a855f7", "#16a34a", "#ea580c", "#db2777", "#2563eb", "#65a30d", "#0d9488", "#c026d3", "#b45309"];

export function typeColour(type: string): string {
  const i = TYPE_ORDER.indexOf(type);
  if (i >= 0) return COLOURS[i];
  let h = 0;
  for (const ch of type) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return COLOURS[h % COLOURS.length];
}

export const RELATION_COLOURS: Record<string, string> = {
  similar: "#64748b",
  similar_structure: "#64748b",
  same_bread: "#f59e0b",
  same_filling: "#22c55e",
  same_type: "#94a3b8",
  inverse: "#ef4444",
  generalization: "#8b5cf6",
  domain_transfer: "#0ea5e9",
};

export const relationColour = (kind: string) => RELATION_COLOURS[kind] ?? "#9ca3af";
