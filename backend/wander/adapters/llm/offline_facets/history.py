"""What the walk's own history makes true of a step: where it stood two steps back (does the
step turn back toward it, or head well away), and an active resonance whose themes name
the locus it arrives at (the step reinforces what the walk keeps returning to)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from wander.adapters.llm.offline_facets.facts import PairFacts
from wander.core.domain.geometry import normalize
from wander.core.domain.models import Locus

BACK_TOWARD, BACK_AWAY = 0.05, 0.2  # b this much nearer (farther from) where the walk stood two steps back than a


def two_steps_back(f: PairFacts, a: Locus, b: Locus, stood: tuple[str, np.ndarray] | None) -> None:
    """Whether the step turns back toward where the walk stood two steps back, or heads on away."""
    if stood is None or stood[0] in (a.concept, b.concept):
        return
    v = normalize(stood[1])
    sa, sb = float(normalize(a.embedding) @ v), float(normalize(b.embedding) @ v)
    if sb - sa > BACK_TOWARD:
        f.back = (stood[0], "toward")
    elif sa - sb > BACK_AWAY:
        f.back = (stood[0], "away")


def recurring(f: PairFacts, active: Sequence[str]) -> None:
    """The other themes of the first active resonance (its themes comma-separated, as the step
    gives them) that names the locus the step arrives at, by its own words or its lemma."""
    own = {f.b.name.lower(), f.b.lemma.lower()}
    for res in active:
        themes = [t.strip() for t in res.split(",") if t.strip()]
        if own & {t.lower() for t in themes}:
            f.recurring = [t for t in themes if t.lower() not in own][:2]
            return
