"""Which construction opens a facet. A writer offers every text the pair's facts support, in
the order the facts make them telling (a stated corpus relation before a shared domain, say);
the dweller takes the first whose opening this wander has not used for that facet LIMIT times
in its last WINDOW steps, as a writer who has just opened three paragraphs alike opens the
fourth another way. What each text says is true of the pair whichever opens; only which true
thing leads changes.

The last steps' words come with the step's request, loaded with the walk from the store, so
whichever process takes a step (a resumed wander, one of several workers) writes the same
words for the same seed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from wander.core.engine.text_openings import LIMIT, Masker, choose, worn

WINDOW = LIMIT * 3  # the steps before this one that count

__all__ = ["LIMIT", "WINDOW", "Masker", "choose", "used_openings", "worn"]


def used_openings(recent: Sequence[dict[str, str]], masker: Masker) -> dict[str, Counter[str]]:
    """Per facet, in how many of the last WINDOW steps' texts (RECENT, oldest first) each
    sentence opening was used."""
    out: dict[str, Counter[str]] = {}
    for facets in recent[-WINDOW:]:
        for facet, text in facets.items():
            out.setdefault(facet, Counter()).update(set(masker.openings(text)))
    return out
