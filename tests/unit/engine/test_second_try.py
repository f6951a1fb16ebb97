"""A crystal the gate did not accept gets one second try: a rejected first try gives way to
it, one held for review only to a better verdict (or the same verdict with a higher V); the
try that was outdone is kept, as the crystal's first try or as weighed beside it."""

import numpy as np

from wander.core.domain import sandwich as gate
from wander.core.engine.crystal_weighed import Tasted
from wander.core.engine.crystallizer import second_try

RELATED = gate.Structure(bread_relation="relation:parts")
NONE = np.zeros((0, 3), dtype=np.float32)


def unit(*xs):
    v = np.array(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def tasted(s12: float, near: float) -> Tasted:
    """A sandwich of breads `s12` alike and a filling `near` to each, judged."""
    b1, b2 = unit(1, 0, 0), unit(s12, np.sqrt(1 - s12**2), 0)
    mid = (b1 + b2) / np.linalg.norm(b1 + b2)
    cos = near / float(mid @ b1)
    f = cos * mid + np.sqrt(1 - cos**2) * np.array([0, 0, 1.0], dtype=np.float32)
    val = gate.validity(b1, f, b2, NONE, structure=RELATED)
    return Tasted((None, None, 0, 1, 2), "words", f, val)  # type: ignore[arg-type]


ACCEPTED = tasted(0.33, 0.6)
REVIEW = tasted(0.5, 0.48)  # does not mediate: held for review
REVIEW_LOWER = tasted(0.5, 0.46)
REJECTED = tasted(0.2, 0.5)  # unrelated breads


def test_the_verdicts_are_what_the_cases_say():
    assert [t.val.verdict for t in (ACCEPTED, REVIEW, REVIEW_LOWER, REJECTED)] == [
        "accepted",
        "review",
        "review",
        "rejected",
    ]
    assert REVIEW.val.v > REVIEW_LOWER.val.v


def test_a_rejected_first_try_gives_way_to_the_second_whatever_it_is():
    assert second_try(REJECTED, ACCEPTED) == (ACCEPTED, REJECTED, None)
    assert second_try(REJECTED, REJECTED) == (REJECTED, REJECTED, None)


def test_one_held_for_review_gives_way_only_to_a_better_one():
    assert second_try(REVIEW, ACCEPTED) == (ACCEPTED, REVIEW, None)
    assert second_try(REVIEW_LOWER, REVIEW) == (REVIEW, REVIEW_LOWER, None)
    # not to a lower V, nor to a rejected second try: that one is kept as weighed beside it
    assert second_try(REVIEW, REVIEW_LOWER) == (REVIEW, None, REVIEW_LOWER)
    assert second_try(REVIEW, REJECTED) == (REVIEW, None, REJECTED)
