// Builders for realistic session events (shapes from types.gen.ts).
import type { CandidateOut, EventOut, LocusOut, ResidueOut } from "../api/types.gen";

export const SID = "s-1";

export function locus(id: string, concept: string, extra: Partial<LocusOut> = {}): LocusOut {
  return {
    id,
    concept,
    domains: ["cognition"],
    source_type: "ADJACENT",
    kb_key: `${concept.replace(/ /g, "_")}.n.01`,
    visit_count: 1,
    abstraction_level: 0.5,
    novelty_score: 0.6,
    interestingness: 0.7,
    actionability: 0.3,
    uncertainty: 0.4,
    ...extra,
  };
}

export function residue(tag: string): ResidueOut {
  return {
    connection: `connection ${tag}`,
    tension: `tension ${tag}`,
    bridge: `bridge ${tag}`,
    surprise: `surprise ${tag}`,
    possibility: `possibility ${tag}`,
    themes: [`theme ${tag}`],
    interestingness: 0.7,
    actionability: 0.3,
    model_used: "offline",
  };
}

export function candidate(concept: string, p: number, locus_id: string | null = null): CandidateOut {
  return {
    concept,
    kb_key: `${concept.replace(/ /g, "_")}.n.01`,
    locus_id,
    domains: ["act"],
    strategy: "distance_band",
    reason: "in band",
    distance: 0.5,
    scores: { composite: p },
    probability: p,
  };
}

let ts = 0;
/** The payload the contract gives a subject, without the session_id that `ev` adds. */
export type PayloadOf<S extends EventOut["subject"]> = Omit<Extract<EventOut, { subject: S }>["payload"], "session_id">;

export function ev<S extends EventOut["subject"]>(seq: number, subject: S, payload: PayloadOf<S>, session_id = SID): EventOut {
  ts += 1;
  const at = new Date(1_700_000_000_000 + ts * 1000).toISOString();
  // TypeScript cannot follow a generic subject into the union; PayloadOf<S> keeps the pair matched.
  const event: unknown = { session_id, seq, subject, ts: at, payload: { session_id, ...payload } };
  return event as EventOut;
}

/** The events `wander serve` writes for a new session and `n` steps along a line of loci. */
export function walkEvents(n: number, opts: { candidates?: (step: number) => CandidateOut[] } = {}): EventOut[] {
  const ids = Array.from({ length: n + 1 }, (_, i) => `L${i}`);
  const names = ["information asymmetry", ...Array.from({ length: n }, (_, i) => `concept ${i + 1}`)];
  const out: EventOut[] = [];
  let seq = 0;
  out.push(ev(++seq, "wander.session.created", { name: names[0], seed_concept: names[0], attractor: "opportunity", max_steps: n }));
  const seed = locus(ids[0], names[0], { source_type: "SEED" });
  out.push(ev(++seq, "wander.locus.visited", { step_number: 0, locus: seed, new: true }));
  for (let s = 1; s <= n; s++) {
    const from = locus(ids[s - 1], names[s - 1], s === 1 ? { source_type: "SEED" } : {});
    const to = locus(ids[s], names[s]);
    out.push(ev(++seq, "wander.step.started", { step_number: s, from_locus_id: from.id }));
    const cands = opts.candidates?.(s) ?? [candidate(names[s], 0.4), candidate(`alt ${s}a`, 0.3), candidate(`alt ${s}b`, 0.2)];
    out.push(ev(++seq, "wander.adjacencies.found", { step_number: s, from_locus_id: from.id, candidates: cands }));
    out.push(ev(++seq, "wander.locus.visited", { step_number: s, locus: to, new: true }));
    out.push(
      ev(++seq, "wander.step.completed", {
        step_number: s,
        from_locus: from,
        to_locus: to,
        trace_id: `t${s}`,
        residue: residue(String(s)),
        selection_reason: "rank 1",
        resonances_detected: 0,
      }),
    );
  }
  return out;
}
