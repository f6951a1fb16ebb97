"""VALIDATOR (004, 3.2.4): V = 0.25 BreadCompat + 0.35 Containment + 0.20 NonTriviality +
0.20 Novelty (domain.sandwich), and the loop's verdict: made (V >= 0.7), trivial (the filling
restates a bread), or rejected for low validity (marginal ones included: 0.5 <= V < 0.7)."""

from __future__ import annotations

import numpy as np

from wander.core.domain import sandwich as sw
from wander.core.sandwich.model import MADE, REJECTED, TRIVIAL, Ingredient


def score(b1: Ingredient, f: Ingredient, b2: Ingredient, existing: np.ndarray) -> sw.Validity:
    return sw.validity(b1.vector, f.vector, b2.vector, existing)


def verdict(v: sw.Validity) -> tuple[str, str]:
    """(outcome, rationale) of a scored sandwich."""
    if max(v.filling_similarities) >= sw.TRIVIAL:
        return TRIVIAL, f"the filling restates a bread (cosine {max(v.filling_similarities):.2f} >= {sw.TRIVIAL})"
    if v.v >= sw.ACCEPT:
        return MADE, f"V = {v.v:.3f} >= {sw.ACCEPT}"
    band = "marginal (review band)" if v.v >= sw.REVIEW else "invalid"
    why = "; ".join(v.reasons()) or "every component middling"
    return REJECTED, f"V = {v.v:.3f} < {sw.ACCEPT}, {band}: {why}"
