// The archive timeline: the graph at any step is the fold of the event log up to that
// step's last seq (the same pure reducer the live map uses).
import type { CrystalSummary, EventOut, ResonanceSummary } from "../api/types.gen";
import { emptyGraph, reduceEvents, type GraphState } from "../store";

/** ends[n] = the last seq of step n (ends[0]: before the first step started). A step is
 * known by its number: a step started again (one a pause or a conflict cut short is started
 * anew under the same number) is one step, and a step that started but never completed (the
 * wander stopped or paused under it) is none; so a wander of 150 steps has 150. */
export function stepEnds(events: EventOut[]): number[] {
  const sorted = [...events].sort((a, b) => a.seq - b.seq);
  const ends: number[] = [];
  let last = 0;
  let completed = 0;
  for (const ev of sorted) {
    if (ev.subject === "wander.step.started") {
      // everything before the first start of step k belongs to step k - 1 (and the steps
      // before it that have no end yet: none, as a rule)
      while (ends.length < ev.payload.step_number) ends.push(last);
    } else if (ev.subject === "wander.step.completed") completed = Math.max(completed, ev.payload.step_number);
    last = ev.seq;
  }
  // the last completed step runs to the end of the log (its crystals, a pause, the end)
  ends.length = Math.min(ends.length, completed);
  ends.push(last);
  return ends;
}

/** The graph as it stood after event `seq`. */
export function foldAt(sessionId: string, events: EventOut[], seq: number): GraphState {
  const upTo = events.filter((e) => e.seq <= seq).sort((a, b) => a.seq - b.seq);
  return reduceEvents(emptyGraph(sessionId), upTo);
}

/** A resonance as the archive shows it: the summary its events carry. */
export type ResonanceAt = ResonanceSummary;

/** Each resonance as its latest event up to `seq` left it. */
export function resonancesAt(events: EventOut[], seq: number): ResonanceAt[] {
  const byId = new Map<string, ResonanceAt>();
  for (const e of events) {
    if (e.seq > seq) continue;
    switch (e.subject) {
      case "wander.resonance.detected":
      case "wander.resonance.strengthened":
      case "wander.resonance.confirmed":
        // `subject` narrows the union: the payload is that subject's, with its resonance
        byId.set(e.payload.resonance.id, e.payload.resonance);
        break;
      default:
        break;
    }
  }
  return [...byId.values()].sort((a, b) => b.strength - a.strength);
}

/** A crystal as the archive shows it: the summary wander.crystal.formed carries. */
export type CrystalAt = CrystalSummary;

export function crystalsAt(events: EventOut[], seq: number): CrystalAt[] {
  const out: CrystalAt[] = [];
  for (const e of events) if (e.seq <= seq && e.subject === "wander.crystal.formed") out.push(e.payload.crystal);
  return out;
}

/** ?step=N of the URL, clamped to 0..max; max when absent or not a number. */
export function stepFromSearch(search: string, max: number): number {
  const raw = new URLSearchParams(search).get("step");
  if (raw === null || raw.trim() === "" || !/^\d+$/.test(raw.trim())) return max;
  return Math.max(0, Math.min(max, Number(raw)));
}
