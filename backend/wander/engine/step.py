"""One wander step (000 "Wander Step Algorithm"): adjacencies -> scope -> rank -> softmax
select -> dwell -> persist trace, residue, loci and events in one transaction."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

import numpy as np

from wander.domain import scoring
from wander.domain.errors import NoCandidates
from wander.domain.models import (
    Candidate,
    Event,
    Locus,
    Residue,
    SessionStatus,
    SourceType,
    Trace,
    new_id,
)
from wander.engine import events as ev
from wander.engine.adjacency.distance_band import distance_band
from wander.engine.ports import CAKernel, Clock, Dweller, DwellRequest, Store, StepCommit
from wander.engine.walk import Walk

TOP_K = 24  # candidates kept for the softmax draw and shown as dashed edges


@dataclass
class StepResult:
    step_number: int
    from_locus: Locus
    to_locus: Locus
    residue: Residue
    candidates: list[Candidate]
    chosen: Candidate
    probability: float
    events: list[Event] = field(default_factory=list)
    resonances_detected: int = 0


def gather_candidates(walk: Walk) -> list[Candidate]:
    """All strategies' candidates, ranked by composite score, best first."""
    candidates = distance_band(walk, limit=TOP_K)
    candidates.sort(key=lambda c: c.scores.composite if c.scores else 0.0, reverse=True)
    return candidates[:TOP_K]


def _source_type(candidate: Candidate, current: Locus, rank: int) -> SourceType:
    if rank >= TOP_K // 2:
        return SourceType.SERENDIPITOUS  # chosen from the lower half of the ranking
    if not set(candidate.domains) & set(current.domains):
        return SourceType.BRIDGED
    return SourceType.ADJACENT


async def take_step(
    walk: Walk, store: Store, dweller: Dweller, clock: Clock, ca: CAKernel | None = None, worker_id: str | None = None
) -> StepResult:
    session = walk.session
    if session.status != SessionStatus.ACTIVE:
        raise RuntimeError(f"session {session.id} is {session.status}, not active")
    step_number = session.step_count + 1
    current = walk.current
    candidates = gather_candidates(walk)
    if not candidates:
        raise NoCandidates(f"no concept in scope is reachable from '{current.concept}'")
    scores = np.array([c.scores.composite for c in candidates])
    rng = scoring.step_rng(session.random_seed, step_number)
    chosen_index = scoring.softmax_select(scores, session.temperature, rng)
    probs = scoring.softmax_probabilities(scores, session.temperature)
    chosen = candidates[chosen_index]
    now = clock.now()

    new_loci: list[Locus] = []
    if chosen.locus_id:
        target = copy.copy(walk.by_id[chosen.locus_id])
    else:
        target = Locus(
            id=new_id(),
            session_id=session.id,
            concept=chosen.concept,
            embedding=np.asarray(chosen.embedding, dtype=np.float32),
            source_type=_source_type(chosen, current, chosen_index),
            domains=list(chosen.domains),
            abstraction_level=chosen.abstraction_level,
            kb_key=chosen.kb_key,
            first_encountered=now,
        )
        new_loci.append(target)
    target.visit_count += 1
    target.last_visited = now
    target.novelty_score = chosen.scores.novelty
    target.uncertainty = chosen.scores.uncertainty
    ca_state = None
    if ca is not None:
        # CONVERGED lowers uncertainty, OSCILLATING raises it, CHAOTIC flags the text (DESIGN 1).
        signal = ca.signal(target.concept, target.embedding)
        ca_state = {"state": signal.state, "adjustment": signal.adjustment, "needs_rephrasing": signal.needs_rephrasing}
        target.uncertainty = float(np.clip(target.uncertainty + signal.adjustment, 0.0, 1.0))
    target.adjacent_to = [*target.adjacent_to, {"locus_id": current.id, "distance": round(chosen.distance, 4),
                                                "strength": round(chosen.scores.composite, 4)}]  # fmt: skip

    residue = await dweller.dwell(
        DwellRequest(session=session, current=current, encountered=target, recent_themes=list(walk.recent_themes))
    )
    target.interestingness = residue.interestingness
    target.actionability = residue.actionability

    trace = Trace(
        id=new_id(),
        session_id=session.id,
        step_number=step_number,
        from_locus_id=current.id,
        to_locus_id=target.id,
        adjacencies_considered=len(candidates),
        selection_scores={**chosen.scores.as_dict(), "probability": round(float(probs[chosen_index]), 4),
                          "distance": round(chosen.distance, 4), "strategy": chosen.strategy,
                          **({"ca": ca_state} if ca_state else {})},
        selection_reason=f"{chosen.strategy}: {chosen.reason}; rank {chosen_index + 1} of {len(candidates)}, "
        f"p={probs[chosen_index]:.3f} at T={session.temperature}",
        model_used=residue.model_used,
        tokens_used=residue.tokens_used,
        cost_cents=residue.cost_cents,
        worker_id=worker_id,
        created_at=now,
    )

    advanced = copy.copy(session)
    advanced.step_count = step_number
    advanced.current_locus_id = target.id
    advanced.last_step_at = now
    usage = {
        "local_calls": int(residue.route == "local"),
        "cloud_calls": int(residue.route == "cloud"),
        "cloud_spent_cents": residue.cost_cents if residue.route == "cloud" else 0,
    }
    advanced.local_calls = session.local_calls + usage["local_calls"]
    advanced.cloud_calls = session.cloud_calls + usage["cloud_calls"]
    advanced.cloud_spent_cents = session.cloud_spent_cents + usage["cloud_spent_cents"]
    drafts = [
        ev.draft(ev.STEP_STARTED, session.id, step_number=step_number, from_locus_id=current.id),
        ev.draft(ev.ADJACENCIES_FOUND, session.id, step_number=step_number, from_locus_id=current.id,
                 candidates=[ev.candidate_summary(c, float(p)) for c, p in zip(candidates, probs)]),
        ev.draft(ev.LOCUS_VISITED, session.id, step_number=step_number, locus=ev.locus_summary(target),
                 new=bool(new_loci)),
        ev.draft(ev.STEP_COMPLETED, session.id, step_number=step_number, from_locus=ev.locus_summary(current),
                 to_locus=ev.locus_summary(target), trace_id=trace.id, residue=ev.residue_summary(residue),
                 selection_reason=trace.selection_reason, resonances_detected=0),
    ]  # fmt: skip
    budget = session.cloud_budget_cents
    if budget > 0 and session.cloud_spent_cents < 0.8 * budget <= advanced.cloud_spent_cents:
        drafts.append(ev.draft(ev.BUDGET_LOW, session.id, spent_cents=advanced.cloud_spent_cents,
                               budget_cents=budget, share=round(advanced.cloud_spent_cents / budget, 4)))  # fmt: skip
    if step_number >= session.max_steps:
        advanced.status = SessionStatus.COMPLETED
        advanced.completed_at = now
        advanced.stopped_reason = "max_steps"
        drafts.append(ev.draft(ev.SESSION_COMPLETED, session.id, reason="max_steps", step_count=step_number))

    residue_id = new_id()
    committed = await store.commit_step(
        StepCommit(
            session=advanced,
            expected_step_count=session.step_count,
            usage=usage,
            new_loci=new_loci,
            visited_locus=target,
            trace=trace,
            residue=residue,
            residue_id=residue_id,
            events=drafts,
        )
    )
    # Only after the commit does the in-memory walk move on.
    walk.session = advanced
    if new_loci:
        walk.add_locus(target)
    else:
        walk.by_id[target.id].__dict__.update(target.__dict__)
    walk.recent_themes.extend(residue.themes)
    return StepResult(step_number, current, target, residue, candidates, chosen, float(probs[chosen_index]), committed)
