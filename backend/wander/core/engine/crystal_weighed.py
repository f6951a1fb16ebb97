"""What the sandwich gate weighed at a crystallization: each sandwich it tasted (its words,
their embedding, the verdict), as the crystal keeps the ones passed over, and which the
project's crystals record as weighed already (not weighed again, after a reload too)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wander.core.domain import sandwich
from wander.core.domain.models import Crystal
from wander.core.engine.sandwich_choice import Sandwich
from wander.core.engine.walk import Walk


@dataclass
class Tasted:
    """A sandwich the gate judged: its words, their embedding and the verdict."""

    choice: Sandwich
    insight: str
    embedding: np.ndarray
    val: sandwich.Validity


RANK = {"accepted": 2, "review": 1, "rejected": 0}  # the crystal is the best verdict, then the highest V


def weighed_record(walk: Walk, t: Tasted) -> dict:
    """A sandwich the gate weighed as its crystal keeps it: breads, filling, words, verdict and why."""
    b1, b2, _, _, f_i = t.choice
    return {
        "bread": [b1.concept, b2.concept],
        "bread_ids": [b1.id, b2.id],
        "filling": walk.knowledge.concept(f_i).label,
        "insight": t.insight,
        "V": round(t.val.v, 4),
        "verdict": t.val.verdict,
        "hard_failures": t.val.hard_failures(),
        "reasons": why_not(t.val),
    }


def why_not(val: sandwich.Validity) -> list[str]:
    """Why the gate did not accept a sandwich (its rules broken, else its V short of ACCEPT);
    for an accepted one, what it still noted."""
    out = val.reasons()
    if val.verdict != "accepted" and not val.hard_failures() and val.v < sandwich.ACCEPT:
        out.append(f"V {val.v:.2f} below {sandwich.ACCEPT}")
    return out


def weighed_before(crystals: list[Crystal]) -> set[tuple[frozenset, str | None]]:
    """The sandwiches the project's crystals record as weighed and passed over (a reworked
    first try, the others tasted beside it): not weighed again, after a reload too."""
    out: set[tuple[frozenset, str | None]] = set()
    for c in crystals:
        for r in [c.validity.get("reworked_from") or {}, *(c.validity.get("also_weighed") or [])]:
            if r.get("bread_ids") and r.get("filling"):
                out.add((frozenset(r["bread_ids"]), r["filling"]))
    return out
