"""The degenerate-theme filter over the knowledge base, computed once per index."""

from __future__ import annotations

import weakref

import numpy as np

from wander.core.domain.themes import degenerate_labels
from wander.core.engine.ports import Knowledge

PATHS_READ = 50_000  # concepts whose hypernym paths tell a corpus's shares, at most (evenly spaced)

_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_PATHS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def corpus_paths(kb: Knowledge) -> list[tuple[str, ...]]:
    """The hypernym paths the shares of a label are counted over: every concept's, or in a
    larger knowledge base PATHS_READ concepts' evenly spaced (a share of 5% estimated from
    50,000 is within 0.3% of it; reading a million concepts' paths took seconds), kept."""
    try:
        return _PATHS[kb]
    except KeyError:
        n = len(kb)
        which = range(n) if n <= PATHS_READ else np.linspace(0, n - 1, PATHS_READ).astype(np.int64).tolist()
        paths = [kb.concept(i).path for i in which]
        _PATHS[kb] = paths
        return paths


def degenerate_themes(kb: Knowledge) -> frozenset[str]:
    """Labels that are ancestors of more than 5% of the knowledge base: never themes."""
    try:
        return _CACHE[kb]
    except KeyError:
        labels = degenerate_labels(corpus_paths(kb))
        _CACHE[kb] = labels
        return labels
