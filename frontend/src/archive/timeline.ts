// The archive timeline: the graph at any step is the fold of the event log up to that
// step's last seq (the same pure reducer the live map uses).
import type { EventOut } from "../api/types.gen";
import { emptyGraph, reduceEvents, type GraphState } from "../store";

/** ends[n] = the last seq of step n (ends[0]: before the first step started). */
export function stepEnds(events: EventOut[]): number[] {
  const sorted = [...events].sort((a, b) => a.seq - b.seq);
  const ends: number[] = [];
  let last = 0;
  for (const ev of sorted) {
    if (ev.subject === "wander.step.started") ends.push(last);
    last = ev.seq;
  }
  ends.push(last);
  return ends;
}

/** The graph as it stood after event `seq`. */
export function foldAt(sessionId: string, events: EventOut[], seq: number): GraphState {
  const upTo = events.filter((e) => e.seq <= seq).sort((a, b) => a.seq - b.seq);
  return reduceEvents(emptyGraph(sessionId), upTo);
}

export interface ResonanceAt {
  id: string;
  themes: string[];
  occurrences: number;
  strength: number;
  status: string;
}

/** Each resonance as its latest event up to `seq` left it. */
export function resonancesAt(events: EventOut[], seq: number): ResonanceAt[] {
  const byId = new Map<string, ResonanceAt>();
  for (const e of events) {
    if (e.seq > seq || !e.subject.startsWith("wander.resonance.")) continue;
    const r = (e.payload as { resonance?: ResonanceAt }).resonance;
    if (r?.id) byId.set(r.id, r);
  }
  return [...byId.values()].sort((a, b) => b.strength - a.strength);
}

export interface CrystalAt {
  id: string;
  insight: string;
  structural_type: string | null;
  V: number | null;
  verdict: string | null;
}

export function crystalsAt(events: EventOut[], seq: number): CrystalAt[] {
  return events
    .filter((e) => e.seq <= seq && e.subject === "wander.crystal.formed")
    .map((e) => (e.payload as { crystal: CrystalAt }).crystal);
}

/** ?step=N of the URL, clamped to 0..max; max when absent or not a number. */
export function stepFromSearch(search: string, max: number): number {
  const raw = new URLSearchParams(search).get("step");
  if (raw === null || raw.trim() === "" || !/^\d+$/.test(raw.trim())) return max;
  return Math.max(0, Math.min(max, Number(raw)));
}
