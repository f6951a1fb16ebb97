// The force layout as the map uses it: one layout per wander (its pins loaded), asked for
// the positions of the graph whenever the graph's nodes change.
import { useEffect, useMemo, useSyncExternalStore } from "react";
import { ForceLayoutClient } from "./forceClient";
import { loadPins } from "./pins";
import type { Layout, LayoutInput, Point } from "./types";

export interface ForceLayout extends Layout {
  /** Pins a node where a person put it (for this browser, see pins.ts). */
  pin: (id: string, at: Point) => void;
  /** A backlog is being laid out (in the worker): the positions lag the graph. */
  busy: boolean;
}

export function useForceLayout(sessionId: string | null, input: LayoutInput): ForceLayout {
  const client = useMemo(() => new ForceLayoutClient(loadPins(sessionId)), [sessionId]);
  useEffect(() => () => client.close(), [client]);
  // Asked in the render: laid out in the page (a live step), the positions are read just
  // below, so the step is drawn in this render (asked in an effect, its positions took a
  // second render of the whole map); laid out in the worker (a backlog), they come later.
  useMemo(() => client.ask(input, true), [client, input]);
  const { positions } = useSyncExternalStore(client.subscribe, client.getSnapshot);
  return { positions, pin: client.pin, busy: client.busy };
}
