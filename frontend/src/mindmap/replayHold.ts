// While a backlog replays (a first connection's catch-up: 20,000 loci of a long walk come in
// some twenty batches) and until the layout has placed it, the map shows its graph and
// positions now and then, not at every batch: each showing goes over every node (React
// Flow's items, the canvas's part and picture, the overview's regions, the minimap), and at
// every batch that work held up the next batch and the layout's worker on a two-core
// machine. It shows them again once SHOW_EVERY_MS have passed and the loci placed have
// doubled since the last showing: a few showings in all, however slow the machine (a time
// alone let a catch-up slowed by load show, and pay for, more of them). The layout itself
// is fed every batch (useMapLayout, before the hold).
import { useState } from "react";
import type { GraphState } from "../store";

/** How often (ms) a replaying map shows how far it has come. */
export const SHOW_EVERY_MS = 1500;

export interface Shown<L> {
  graph: GraphState;
  layout: L;
}

/** Holds `shown` between showings while `replaying`: the first graph with placed nodes is
 * shown at once, then the latest once `every` ms have passed and it has placed at least
 * twice the nodes shown (checked at a render: the replay's batches and the layout's answers
 * render the map), and everything at once when the replay ends or the map opens another
 * walk. `now`: the clock (tests). */
export class ReplayHold<L extends { positions: Map<string, unknown> }> {
  private held: Shown<L> | null = null;
  private at = -Infinity;

  constructor(
    private readonly every = SHOW_EVERY_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  show(replaying: boolean, shown: Shown<L>): Shown<L> {
    const held = this.held;
    const t = this.now();
    const placed = held?.layout.positions.size ?? 0;
    const due = t - this.at >= this.every && shown.layout.positions.size >= 2 * placed;
    const keep = replaying && held !== null && held.graph.sessionId === shown.graph.sessionId && placed > 0 && !due;
    if (keep) return held;
    if (held === null || held.graph !== shown.graph || held.layout !== shown.layout) {
      this.held = shown;
      this.at = t;
    }
    return this.held!;
  }
}

/** The map's graph and layout as shown (see ReplayHold). */
export function useReplayHold<L extends { positions: Map<string, unknown> }>(replaying: boolean, graph: GraphState, layout: L): Shown<L> {
  const [hold] = useState(() => new ReplayHold<L>());
  return hold.show(replaying, { graph, layout });
}
