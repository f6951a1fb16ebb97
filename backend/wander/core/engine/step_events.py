"""The events a step writes beside its record (the fence approached, the adjacencies found,
the locus visited, the step completed, the budget low), and the end of the wander or the
circuit breaker that pauses it."""

from __future__ import annotations

from datetime import datetime

from shared_schemas.events import (
    AdjacenciesFoundPayload,
    BudgetLowPayload,
    CircuitTrippedPayload,
    FenceApproachedPayload,
    LocusVisitedPayload,
    SessionCompletedPayload,
    SessionPausedPayload,
    StepCompletedPayload,
)
from wander.core.domain.models import Candidate, EventDraft, Locus, Residue, Session, SessionStatus, Trace
from wander.core.engine import breakers, connections, resonance
from wander.core.engine import events as ev
from wander.core.engine import fence as fences
from wander.core.engine.selection import Choice
from wander.core.engine.walk import Walk


def fence_warning(session: Session, step_number: int, candidates: list[Candidate]) -> list[EventDraft]:
    """wander.fence.approached for the first candidate within the fence's margin, if any."""
    if not session.fence:
        return []
    for c in candidates:
        near = fences.approaching(session.fence, c.embedding)
        if near:
            payload = FenceApproachedPayload(
                session_id=session.id,
                step_number=step_number,
                concept=c.concept,
                anchor=near[0],
                boundary=near[1],  # type: ignore[arg-type]  # include | exclude
                cosine=round(near[2], 4),
            )
            return [ev.draft(payload)]
    return []


def completed(
    session: Session,
    step_number: int,
    current: Locus,
    target: Locus,
    choice: Choice,
    trace: Trace,
    residue: Residue,
    res: resonance.ResonanceOutcome,
    learned: connections.Learned,
    new_loci: list[Locus],
) -> list[EventDraft]:
    """wander.adjacencies.found, wander.locus.visited and wander.step.completed."""
    chosen = choice.chosen
    return [
        ev.draft(
            AdjacenciesFoundPayload(
                session_id=session.id,
                step_number=step_number,
                from_locus_id=current.id,
                candidates=[ev.candidate_summary(c, float(p)) for c, p in zip(choice.candidates, choice.probabilities)],
            )
        ),
        ev.draft(
            LocusVisitedPayload(
                session_id=session.id, step_number=step_number, locus=ev.locus_summary(target), new=bool(new_loci)
            )
        ),
        ev.draft(
            StepCompletedPayload(
                session_id=session.id,
                step_number=step_number,
                from_locus=ev.locus_summary(current),
                to_locus=ev.locus_summary(target),
                trace_id=trace.id,
                residue=ev.residue_summary(residue),
                selection_reason=trace.selection_reason,
                resonances_detected=res.detected,
                strategy=chosen.strategy,
                why=chosen.why,
                bridges=learned.bridges,
                contradictions=learned.contradictions,
            )
        ),
    ]


def budget_low(session: Session, advanced: Session) -> list[EventDraft]:
    """wander.budget.low once, on the step that crosses 80% of the cloud budget."""
    budget = session.cloud_budget_cents
    if not (budget > 0 and session.cloud_spent_cents < 0.8 * budget <= advanced.cloud_spent_cents):
        return []
    spent = advanced.cloud_spent_cents
    return [
        ev.draft(
            BudgetLowPayload(
                session_id=session.id, spent_cents=spent, budget_cents=budget, share=round(spent / budget, 4)
            )
        )
    ]


def end_or_pause(
    walk: Walk, advanced: Session, target: Locus, step_number: int, now: datetime
) -> tuple[str | None, list[EventDraft]]:
    """The last step completes the wander; otherwise the first breaker that trips pauses it.
    Returns the breaker's name (None when none tripped) and the events to write."""
    sid = advanced.id
    if step_number >= advanced.max_steps:
        advanced.status, advanced.completed_at, advanced.stopped_reason = SessionStatus.COMPLETED, now, "max_steps"
        payload = SessionCompletedPayload(
            session_id=sid, status="completed", reason="max_steps", step_count=step_number
        )
        return None, [ev.draft(payload)]
    targets = [b.id for _, b in walk.relations[-breakers.LOOP_WINDOW :]] + [target.id]
    # only the window's loci are named
    concepts = {i: walk.by_id[i].concept for i in targets if i in walk.by_id} | {target.id: target.concept}
    for check in (
        breakers.budget_exhausted(advanced),
        breakers.loop_detected(targets, concepts),
        breakers.drift_exceeded(advanced, target),
        breakers.checkpoint_due(advanced, step_number),
    ):
        if not check:
            continue
        reason, detail = check[0], check[1]
        advanced.status, advanced.stopped_reason = SessionStatus.PAUSED, reason
        drafts = []
        if reason != "checkpoint":
            drafts.append(
                ev.draft(CircuitTrippedPayload(session_id=sid, reason=reason, detail=detail, step_number=step_number))
            )
        drafts.append(
            ev.draft(
                SessionPausedPayload(
                    session_id=sid, status="paused", reason=reason, detail=detail, step_count=step_number
                )
            )
        )
        return reason, drafts
    return None, []
