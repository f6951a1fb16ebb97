// What the map's layouts share: the nodes and links they place, the positions they give,
// and the one shape both the force layout and the semantic (UMAP) layout hand the map.

export interface Point {
  x: number;
  y: number;
}

export interface LayoutNode {
  id: string;
  parentId: string | null;
  /** Radius in px (used for spacing and collisions). */
  r: number;
  /** A label: a new node takes the last position of a removed node with the same label
   * (a ghost candidate that the walk then chose becomes a locus where it stood). */
  label?: string;
  /** New nodes with the same group are placed together (e.g. one step's candidates, on an
   * arc around their parent); without a group a node is placed on its own. */
  group?: string;
}

export interface LayoutLink {
  source: string;
  target: string;
}

/** How the force layout spaces nodes (see force.ts). */
export interface LayoutOptions {
  linkDistance: number;
  charge: number;
  padding: number;
  /** Simulation ticks to settle one new node (a group gets twice as many). */
  ticks: number;
  /** Fixed nodes farther than this from every new node stay out of its simulation. */
  neighbourhood: number;
  /** From this many placed nodes (loci, crystals: not the small candidates, which come and
   * go) a new node is placed in its freest direction and stays there: no simulation, no
   * test against the edges drawn. Past this size the map is read from its overview and
   * its regions, and a catch-up of 20,000 loci spent most of its time settling each one. */
  denseFrom: number;
}

/** The graph a layout places: every node with the locus it hangs from, and the links. */
export interface LayoutInput {
  nodes: LayoutNode[];
  links: LayoutLink[];
}

/** A position for each node placed so far. A new map whenever anything changed (a node
 * placed, moved or gone), so that React sees the change; see growth.ts for telling a map
 * that only grew from one where positions moved. */
export type Positions = Map<string, Point>;

/**
 * What a layout gives the map, the force layout and the semantic one alike: the positions
 * of the nodes placed so far (a node not placed yet is not drawn).
 */
export interface Layout {
  positions: Positions;
}

/** A change to the positions a layout handed out last: `fresh` when positions moved or went
 * (`gone`: removed; `set`: placed or moved), else `set` only holds nodes newly placed. */
export interface PositionChange {
  fresh: boolean;
  gone: string[];
  set: string[];
}
