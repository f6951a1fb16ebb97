"""Degenerate themes: corpus categories so broad that sharing them says nothing.

A label that is an ancestor (in the hypernym paths) of more than DEGENERATE_SHARE of the
corpus ("abstract entity", "physical entity", "object", ...) never becomes a theme: a theme
that nearly every concept shares is not a theme. Pure function over the paths."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

DEGENERATE_SHARE = 0.05


def degenerate_labels(paths: Iterable[Sequence[str]], share: float = DEGENERATE_SHARE) -> frozenset[str]:
    """Labels that are ancestors of more than `share` of the concepts whose paths are given."""
    counts: Counter[str] = Counter()
    n = 0
    for path in paths:
        n += 1
        counts.update({p.lower() for p in path})
    return frozenset(label for label, c in counts.items() if c > share * n)


def keep_themes(themes: Sequence[str], degenerate: frozenset[str]) -> list[str]:
    """The themes in order, without degenerate ones and without repeats."""
    out: list[str] = []
    for t in themes:
        key = t.strip().lower()
        if key and key not in degenerate and t not in out:
            out.append(t)
    return out
