// A fixed categorical palette keyed by domain name: the same domain is always the same
// colour, in every session. WordNet's lexicographer domains (the knowledge base's first
// domain of every concept) have hand-picked colours; any other name hashes onto the rest.
export const DOMAIN_COLOURS: Readonly<Record<string, string>> = {
  Tops: "#94a3b8",
  act: "#f97316",
  animal: "#84cc16",
  artifact: "#38bdf8",
  attribute: "#a78bfa",
  body: "#fb7185",
  cognition: "#60a5fa",
  communication: "#22d3ee",
  event: "#fbbf24",
  feeling: "#f472b6",
  food: "#facc15",
  group: "#34d399",
  location: "#2dd4bf",
  motive: "#e879f9",
  object: "#a3a3a3",
  person: "#fdba74",
  phenomenon: "#c084fc",
  plant: "#4ade80",
  possession: "#eab308",
  process: "#0ea5e9",
  quantity: "#818cf8",
  relation: "#f0abfc",
  shape: "#5eead4",
  state: "#f87171",
  substance: "#bef264",
  time: "#fcd34d",
};

const EXTRA = ["#67e8f9", "#fca5a5", "#c4b5fd", "#86efac", "#fde68a", "#f9a8d4", "#93c5fd", "#fdba74", "#a5b4fc", "#5eead4"];
export const UNKNOWN_COLOUR = "#64748b";

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

export function domainColour(domain: string | undefined | null): string {
  if (!domain) return UNKNOWN_COLOUR;
  return DOMAIN_COLOURS[domain] ?? DOMAIN_COLOURS[domain.replace(/^noun\./, "")] ?? EXTRA[hash(domain) % EXTRA.length];
}

/** Circle radius in px for a locus visited `visits` times. */
export function locusRadius(visits: number): number {
  return Math.min(42, 16 + 7 * Math.sqrt(Math.max(0, visits - 1)));
}
export const GHOST_RADIUS = 7;

/** The sizes of the map's other nodes (px): a crystal's diamond, a sub-wander's card. */
export const CRYSTAL_SIZE = 30;
export const SUB_W = 150;
export const SUB_H = 46;
