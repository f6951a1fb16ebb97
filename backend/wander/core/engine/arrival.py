"""Where a step arrives: its own copy of the locus it reaches, scored, with the CA's signal
on its text and the edge it came by."""

from __future__ import annotations

import copy
from datetime import datetime
from typing import Any

import numpy as np

from wander.core.domain.models import Candidate, Locus, SourceType, new_id
from wander.core.engine.selection import Choice
from wander.core.engine.step_context import StepContext
from wander.core.engine.walk import Walk

TOP_K = 24  # a ranking's upper half: chosen below it is a serendipitous step


def arrive(
    walk: Walk, ctx: StepContext, current: Locus, choice: Choice, now: datetime
) -> tuple[Locus, list[Locus], dict[str, Any] | None]:
    """The step's own copy of the locus it reaches (a new one for a concept not yet visited),
    with its visit counted, its scores, the CA's signal on its text, and the edge it came by.
    Returns the locus, the new loci (it, or none) and the CA's state for the trace."""
    chosen = choice.chosen
    new_loci: list[Locus] = []
    if chosen.locus_id:
        target = copy.copy(walk.by_id[chosen.locus_id])
    else:
        target = Locus(
            id=new_id(),
            session_id=walk.session.id,
            concept=chosen.concept,
            embedding=np.asarray(chosen.embedding, dtype=np.float32),
            source_type=source_type(chosen, current, choice.index),
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
    if ctx.ca is not None:
        # CONVERGED lowers uncertainty, OSCILLATING raises it, CHAOTIC flags the text (DESIGN 1).
        signal = ctx.ca.signal(target.concept, target.embedding)
        ca_state = {
            "state": signal.state,
            "outcome": signal.outcome,
            "adjustment": signal.adjustment,
            "needs_rephrasing": signal.needs_rephrasing,
        }
        target.uncertainty = float(np.clip(target.uncertainty + signal.adjustment, 0.0, 1.0))
    target.adjacent_to = [
        *target.adjacent_to,
        {"locus_id": current.id, "distance": round(chosen.distance, 4), "strength": round(chosen.scores.composite, 4)},
    ]
    return target, new_loci, ca_state


def source_type(candidate: Candidate, current: Locus, rank: int) -> SourceType:
    if candidate.strategy == "bridging" or not set(candidate.domains) & set(current.domains):
        return SourceType.BRIDGED
    if rank >= TOP_K // 2:
        return SourceType.SERENDIPITOUS  # chosen from the lower half of the ranking
    return SourceType.ADJACENT
