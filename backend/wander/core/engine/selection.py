"""A step's stages 1-4 (000 "Wander Step Algorithm"): adjacencies from the four strategies,
kept to the scope and ranked by composite score, then one drawn by softmax."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wander.core.domain import scoring
from wander.core.domain.errors import NoCandidates
from wander.core.domain.models import Candidate
from wander.core.engine import model_spend
from wander.core.engine.candidates import gather_candidates, injected_candidate
from wander.core.engine.step_context import StepContext
from wander.core.engine.walk import Walk


@dataclass
class Choice:
    """Stages 1-4's outcome: the ranked candidates, the one drawn, and the softmax's odds."""

    candidates: list[Candidate]
    chosen: Candidate
    index: int
    probabilities: np.ndarray
    injected: bool = False

    @property
    def probability(self) -> float:
        return float(self.probabilities[self.index])


async def choose(walk: Walk, ctx: StepContext, step_number: int, spend: model_spend.Spend) -> Choice:
    """Adjacencies from the four strategies, kept to the scope and ranked by composite score,
    then one drawn by softmax at the session's temperature (seeded per wander and step); a
    concept a person injected is the one candidate."""
    injected = await injected_candidate(walk, ctx)
    if injected is not None:
        return Choice([injected], injected, 0, np.ones(1), injected=True)
    candidates = await gather_candidates(walk, ctx, spend)
    if not candidates:
        raise NoCandidates(f"no concept in scope is reachable from '{walk.current.concept}'")
    session = walk.session
    scores = np.array([c.scores.composite for c in candidates])
    index = scoring.softmax_select(scores, session.temperature, scoring.step_rng(session.random_seed, step_number))
    probabilities = scoring.softmax_probabilities(scores, session.temperature)
    return Choice(candidates, candidates[index], index, probabilities)
