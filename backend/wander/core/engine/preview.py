"""What the next step would consider from the current locus, read-only: the same candidate
generation as the step (engine/candidates.py), with the probabilities its softmax would draw from,
but no step taken, nothing written and no event published. The step's generators are seeded
per (wander, step number), so previewing draws nothing the step would otherwise draw."""

from __future__ import annotations

import numpy as np

from shared_schemas.events import AdjacenciesFoundPayload
from wander.core.domain import scoring
from wander.core.engine import events as ev
from wander.core.engine.candidates import gather_candidates, injected_candidate
from wander.core.engine.step_context import StepContext
from wander.core.engine.walk import Walk


async def next_candidates(walk: Walk, ctx: StepContext) -> AdjacenciesFoundPayload:
    """The candidates of step `step_count + 1` from the current locus, best first. A pending
    "go here next" is the one candidate (the step will take it); a model's proposals are
    left out (asking a model costs a call for a picture), so with a proposer configured the
    step may consider a few more."""
    session = walk.session
    injected = await injected_candidate(walk, ctx)
    if injected is not None:
        candidates, probs = [injected], np.ones(1)
    else:
        candidates = await gather_candidates(walk, None)
        scores = np.array([c.scores.composite if c.scores else 0.0 for c in candidates])
        probs = scoring.softmax_probabilities(scores, session.temperature) if len(scores) else np.zeros(0)
    return AdjacenciesFoundPayload(
        session_id=session.id,
        step_number=session.step_count + 1,
        from_locus_id=walk.current.id,
        candidates=[ev.candidate_summary(c, float(p)) for c, p in zip(candidates, probs)],
    )
