// The next step's candidates from the current locus (GET .../next-candidates: the engine's
// read-only preview), drawn as the dashed "click: go here next" fan. Asked for once the live
// wander rests (a run at full speed changes the map many times a second: the preview would
// be stale before it came); an archive, or a wander that is over, keeps the last step's
// candidates, named as such.
import { useEffect, useState } from "react";
import { api } from "../api/client";
import type { AdjacenciesFoundPayload } from "../api/types.gen";
import type { Adjacency, GraphState } from "../store";
import type { ConnState } from "../api/ws";

/** How long the map must rest (no new event) before the preview is asked for. */
export const PREVIEW_QUIET_MS = 600;

/** What the preview is asked for: null when the map shows no preview (not live, or a wander
 * that can take no step); else a key that changes whenever the answer may (a step, a person's
 * go here next or fence: any event). */
export function previewKey(g: GraphState, conn: ConnState, events: number): string | null {
  if (conn !== "live" || !g.sessionId || !g.currentLocusId) return null;
  if (g.status !== "active" && g.status !== "paused") return null;
  return `${g.sessionId}|${g.currentLocusId}|${events}`;
}

/** The graph the dashed candidates are drawn from: with the preview (when the map shows one)
 * as its adjacency, or none while it is being asked for; else the graph as it is (the last
 * step's candidates). `next`: the candidates drawn are the next step's. */
export function candidatesGraph(g: GraphState, previewed: boolean, preview: Adjacency | null): { graph: GraphState; next: boolean } {
  if (!previewed) return { graph: g, next: false };
  const fits = preview !== null && preview.fromId === g.currentLocusId;
  return { graph: fits ? { ...g, adjacency: preview } : { ...g, adjacency: null }, next: fits };
}

export function toAdjacency(p: AdjacenciesFoundPayload): Adjacency {
  return { step: p.step_number, fromId: p.from_locus_id, candidates: p.candidates };
}

/** The preview for `key` (see previewKey), once the map has rested PREVIEW_QUIET_MS; null
 * meanwhile, without one, or when asking failed (the map then draws no candidates). */
export function useNextCandidates(key: string | null): Adjacency | null {
  const [got, setGot] = useState<{ key: string; adj: Adjacency } | null>(null);
  useEffect(() => {
    if (key === null) return;
    const sid = key.split("|")[0];
    let live = true;
    const t = setTimeout(() => {
      api.nextCandidates(sid).then(
        (p) => {
          if (live) setGot({ key, adj: toAdjacency(p) });
        },
        () => {
          /* no preview: the map draws no candidates (a step, a refresh asks again) */
        },
      );
    }, PREVIEW_QUIET_MS);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [key]);
  if (key === null || !got) return null;
  // the answer for an earlier key still serves while it is of the current locus (a person's
  // hint or a checkpoint between steps changes the key, not where the fan starts)
  return got.key.split("|")[0] === key.split("|")[0] ? got.adj : null;
}
