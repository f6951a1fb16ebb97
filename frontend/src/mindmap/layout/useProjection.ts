// The stored 2-D projection of one wander's loci, for the semantic (UMAP) layout. Its own
// small state (not the map store): fetched while the semantic layout is on, fetched again
// when the map holds loci the projection has not placed yet (the endpoint places loci
// found since the fit by transform) and when a `wander.projection.updated` event says the
// backend refitted it.
import { useEffect, useRef, useState } from "react";
import { archiveApi } from "../../api/archive";
import type { EventOut, ProjectionOut } from "../../api/types.gen";
import { useWander } from "../../store";
import type { Point } from "./types";

export interface Projection {
  sessionId: string | null;
  /** Projected x, y (in [-1, 1]) per locus id; null until the first answer. */
  points: Map<string, Point> | null;
  fitId: string | null;
  method: ProjectionOut["method"] | null;
  error: string | null;
  loading: boolean;
}

const NONE: Projection = { sessionId: null, points: null, fitId: null, method: null, error: null, loading: false };

/** The latest refit announced in `log` for `sessionId` (its fit id), or null. */
export function lastRefit(log: readonly EventOut[], sessionId: string | null): string | null {
  for (let i = log.length - 1; i >= 0; i--) {
    const e = log[i];
    if (e.subject === "wander.projection.updated" && (!sessionId || e.payload.session_id === sessionId)) return e.payload.fit_id;
  }
  return null;
}

/**
 * Keeps `lastRefit` cheap on a growing log: the store's log only ever grows by
 * concatenation, so only the events after the last one seen are looked at.
 */
export function refitTracker(): (log: readonly EventOut[], sessionId: string | null) => string | null {
  let seen: readonly EventOut[] | null = null;
  let seenSession: string | null = null;
  let found: string | null = null;
  return (log, sessionId) => {
    if (log === seen && sessionId === seenSession) return found;
    const prefix = seen !== null && sessionId === seenSession && seen.length > 0 && log.length >= seen.length && log[seen.length - 1] === seen[seen.length - 1];
    const tail = prefix ? log.slice(seen!.length) : log;
    found = lastRefit(tail, sessionId) ?? (prefix ? found : null);
    seen = log;
    seenSession = sessionId;
    return found;
  };
}

/** Does `loci` hold an id the projection has not placed? */
export function missingFrom(points: Map<string, Point> | null, loci: readonly string[]): boolean {
  if (!points) return true;
  for (const id of loci) if (!points.has(id)) return true;
  return false;
}

/** Projection points keyed by locus id. */
export function pointsOf(p: ProjectionOut): Map<string, Point> {
  return new Map(p.points.map((pt) => [pt.locus_id, { x: pt.x, y: pt.y }]));
}

/** Wait this long after a change before asking again (a step brings several loci at once). */
const SETTLE_MS = 250;

/**
 * The projection of `sessionId` while `enabled` (the semantic layout is on). `loci`: the ids
 * of the loci on the map; one the projection lacks makes it ask again (once per growth, so a
 * locus the server cannot place never loops).
 */
export function useProjection(sessionId: string | null, enabled: boolean, loci: readonly string[]): Projection {
  const track = useRef(refitTracker());
  const refit = useWander((s) => track.current(s.log, sessionId));
  const [state, setState] = useState<Projection>(NONE);
  const current = state.sessionId === sessionId ? state : NONE;
  const missing = missingFrom(current.points, loci);
  /** What the last request was made for: how many loci, which announced fit. */
  const asked = useRef<{ sessionId: string | null; loci: number; refit: string | null; failed: boolean }>({ sessionId: null, loci: -1, refit: null, failed: false });

  const lociCount = loci.length;
  const havePoints = current.points !== null;
  useEffect(() => {
    if (!enabled || !sessionId) return;
    const a = asked.current;
    const first = a.sessionId !== sessionId;
    const grew = missing && lociCount > a.loci;
    const refitted = refit !== null && refit !== a.refit;
    if (!first && !grew && !refitted && !a.failed) return;
    let alive = true;
    let answered = false;
    const t = setTimeout(
      () => {
        asked.current = { sessionId, loci: lociCount, refit, failed: false };
        setState((s) => (s.sessionId === sessionId ? { ...s, loading: true } : { ...NONE, sessionId, loading: true }));
        archiveApi
          .projection(sessionId)
          .then((p) => {
            if (!alive) return;
            answered = true;
            setState({ sessionId, points: pointsOf(p), fitId: p.fit_id, method: p.method, error: null, loading: false });
          })
          .catch((err: unknown) => {
            if (!alive) return;
            answered = true;
            asked.current = { ...asked.current, failed: true }; // tried again on the next change or switch
            // keep the last picture: the flow layout stays usable
            setState((s) => ({ ...s, sessionId, error: err instanceof Error ? err.message : String(err), loading: false }));
          });
      },
      havePoints ? SETTLE_MS : 0, // no picture yet: ask at once
    );
    return () => {
      alive = false;
      clearTimeout(t);
      // a request cut short (the layout switched off, the map grew) is made again next time
      if (!answered) asked.current = { ...asked.current, failed: true };
    };
  }, [sessionId, enabled, lociCount, missing, refit, havePoints]);

  return current;
}
