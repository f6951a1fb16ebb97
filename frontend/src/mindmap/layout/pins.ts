// Where a person pinned loci of a wander (dragged in the Flow layout), kept per browser.
import type { Point } from "./types";

const pinKey = (sid: string | null) => `wander:pins:${sid ?? ""}`;

export function loadPins(sid: string | null): Record<string, Point> {
  try {
    return JSON.parse(localStorage.getItem(pinKey(sid)) ?? "{}") as Record<string, Point>;
  } catch {
    return {};
  }
}

export function savePin(sid: string | null, id: string, at: Point): void {
  const pins = loadPins(sid);
  pins[id] = at;
  try {
    localStorage.setItem(pinKey(sid), JSON.stringify(pins));
  } catch {
    /* private mode: the pin lasts for this page */
  }
}
