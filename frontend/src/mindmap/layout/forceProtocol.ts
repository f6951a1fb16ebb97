// The messages between the force layout's worker (forceWorker.ts) and its client
// (forceClient.ts).
import type { LayoutLink, LayoutNode, Point } from "./types";

/** Positions in the order they were placed: ids, and their x and y in `xy`. */
export interface PlacedList {
  ids: string[];
  xy: Float64Array;
}

export type ToWorker =
  /** Go on from the page's layout: these nodes and links laid out at these positions. */
  | { kind: "adopt"; nodes: LayoutNode[]; links: LayoutLink[]; placed: PlacedList; pins: Record<string, Point> }
  /** Lay out the nodes and links past the prefix the worker holds. */
  | { kind: "update"; keepNodes: number; nodes: LayoutNode[]; keepLinks: number; links: LayoutLink[] }
  | { kind: "pin"; id: string; at: Point };

/** What an update changed: positions removed (`gone`) and set (`set`); `fresh` when anything
 * moved or went (see IncrementalLayout.lastChange). */
export interface FromWorker {
  fresh: boolean;
  gone: string[];
  set: PlacedList;
}

export function toList(positions: Map<string, Point>, ids: Iterable<string> = positions.keys()): PlacedList {
  const list = [...ids];
  const xy = new Float64Array(2 * list.length);
  list.forEach((id, i) => {
    const p = positions.get(id)!;
    xy[2 * i] = p.x;
    xy[2 * i + 1] = p.y;
  });
  return { ids: list, xy };
}

export function fromList(list: PlacedList): Map<string, Point> {
  const out = new Map<string, Point>();
  list.ids.forEach((id, i) => out.set(id, { x: list.xy[2 * i], y: list.xy[2 * i + 1] }));
  return out;
}
