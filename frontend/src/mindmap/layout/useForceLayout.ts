// The force layout as the map uses it: one layout per wander (its pins loaded), asked for
// the positions of the graph whenever the graph's nodes change.
import { useEffect, useLayoutEffect, useMemo, useSyncExternalStore } from "react";
import { ForceLayoutClient } from "./forceClient";
import { loadPins } from "./pins";
import type { Layout, LayoutInput, Point } from "./types";

export interface ForceLayout extends Layout {
  /** Pins a node where a person put it (for this browser, see pins.ts). */
  pin: (id: string, at: Point) => void;
}

export function useForceLayout(sessionId: string | null, input: LayoutInput): ForceLayout {
  const client = useMemo(() => new ForceLayoutClient(loadPins(sessionId)), [sessionId]);
  useEffect(() => () => client.close(), [client]);
  // (before the paint: without a worker, the positions come at once)
  useLayoutEffect(() => client.ask(input), [client, input]);
  const { positions } = useSyncExternalStore(client.subscribe, client.getSnapshot);
  return { positions, pin: client.pin };
}
