// The attractor on the map. It is a direction in meaning, not a place the walk has been: the
// mark stands among the loci nearest it (GET .../attractor), weighted toward the nearest, so
// a person sees which part of the map the walk is drawn toward.
import { useEffect, useRef, useState } from "react";
import { api } from "../api/client";
import type { AttractorOut } from "../api/types.gen";
import type { Point } from "./layout/types";

/** How much a locus's lead in similarity weighs: 0.03 nearer counts e times more. */
const SPREAD = 0.03;
/** The attractor's nearest loci are asked again at most this often while the map grows. */
export const ATTRACTOR_EVERY_MS = 3000;

export interface AttractorPlace {
  at: Point;
  /** The nearest locus on the map and its similarity to the attractor. */
  nearestId: string;
  similarity: number;
  /** How many of the nearest loci are on the map (an archive at an early step has fewer). */
  count: number;
}

/** Where the mark goes: the similarity-weighted middle of the nearest loci that have a place
 * on the map; null without any. */
export function attractorPlace(out: AttractorOut | null, positions: Map<string, Point>): AttractorPlace | null {
  if (!out || !out.attractor) return null;
  const placed = out.nearest.filter((n) => positions.has(n.locus_id));
  if (placed.length === 0) return null;
  const top = Math.max(...placed.map((n) => n.similarity));
  let x = 0;
  let y = 0;
  let w = 0;
  for (const n of placed) {
    const p = positions.get(n.locus_id)!;
    const k = Math.exp((n.similarity - top) / SPREAD);
    x += p.x * k;
    y += p.y * k;
    w += k;
  }
  const best = placed.reduce((a, b) => (b.similarity > a.similarity ? b : a));
  return { at: { x: x / w, y: y / w }, nearestId: best.locus_id, similarity: best.similarity, count: placed.length };
}

/** The attractor's nearest loci for the session, asked when it opens and again (at most every
 * ATTRACTOR_EVERY_MS) as `grown` changes (the map's loci); null until they come, or when
 * asking failed. */
export function useAttractor(sessionId: string | null, attractor: string | null, grown: number): AttractorOut | null {
  const [got, setGot] = useState<{ sid: string; out: AttractorOut } | null>(null);
  const last = useRef(0);
  useEffect(() => {
    if (!sessionId || !attractor) return;
    let live = true;
    const wait = Math.max(0, last.current + ATTRACTOR_EVERY_MS - performance.now());
    const t = setTimeout(() => {
      last.current = performance.now();
      api.attractor(sessionId).then(
        (out) => {
          if (live) setGot({ sid: sessionId, out });
        },
        () => {
          /* no mark: the map is whole without it */
        },
      );
    }, wait);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [sessionId, attractor, grown]);
  return got && got.sid === sessionId ? got.out : null;
}
