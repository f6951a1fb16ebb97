"""The degenerate-theme filter over the knowledge base, computed once per index."""

from __future__ import annotations

import weakref

from wander.core.domain.themes import degenerate_labels
from wander.core.engine.ports import Knowledge

_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def degenerate_themes(kb: Knowledge) -> frozenset[str]:
    """Labels that are ancestors of more than 5% of the knowledge base: never themes."""
    try:
        return _CACHE[kb]
    except KeyError:
        labels = degenerate_labels(kb.concept(i).path for i in range(len(kb)))
        _CACHE[kb] = labels
        return labels
