// Loci drawn on the canvas (FarCanvas) are not DOM nodes: a click, shift-click or right-click
// on the pane finds the locus under the pointer here.
import type { GraphState } from "../store";
import type { Point } from "./layout/types";
import { locusRadius } from "./palette";

/** The locus whose disc is under `at` (map coordinates), within `slack` map px of its rim;
 * the nearest rim wins. Null when none is that close. */
export function pickLocus(g: Pick<GraphState, "order" | "loci">, positions: Map<string, Point>, at: Point, slack: number): string | null {
  let best: string | null = null;
  let bestD = Infinity;
  for (const id of g.order) {
    const p = positions.get(id);
    if (!p) continue;
    const d = Math.hypot(p.x - at.x, p.y - at.y) - locusRadius(g.loci[id].visit_count);
    if (d <= slack && d < bestD) {
      bestD = d;
      best = id;
    }
  }
  return best;
}
