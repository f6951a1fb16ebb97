"""The fence: a region of idea space drawn with concepts as anchors.

Inside the fence means: within the cone of at least one include anchor (cosine similarity
to it >= INCLUDE_COS, a cone of about 69 degrees around it), if there are include anchors
at all, and outside the cone of every exclude anchor (cosine similarity < EXCLUDE_COS,
about 53 degrees). A candidate within MARGIN of either boundary is "approaching" it."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from wander.core.domain.models import FenceAnchor

INCLUDE_COS = 0.35
EXCLUDE_COS = 0.6
MARGIN = 0.05


def _stack(anchors: Sequence[FenceAnchor], action: str) -> np.ndarray | None:
    vs = [a.embedding for a in anchors if a.action == action]
    return np.stack(vs).astype(np.float32) if vs else None


def inside_mask(anchors: Sequence[FenceAnchor], vectors: np.ndarray) -> np.ndarray:
    """Per row of unit vectors: inside the fence?"""
    mask = np.ones(len(vectors), dtype=bool)
    inc, exc = _stack(anchors, "include"), _stack(anchors, "exclude")
    if inc is not None:
        mask &= (vectors @ inc.T).max(axis=1) >= INCLUDE_COS
    if exc is not None:
        mask &= (vectors @ exc.T).max(axis=1) < EXCLUDE_COS
    return mask


def inside(anchors: Sequence[FenceAnchor], vector: np.ndarray) -> bool:
    return bool(inside_mask(anchors, np.asarray(vector, dtype=np.float32)[None, :])[0])


def approaching(anchors: Sequence[FenceAnchor], vector: np.ndarray) -> tuple[str, str, float] | None:
    """(anchor concept, 'include' | 'exclude', cosine) when the vector is inside but near a
    boundary; None when it is comfortably inside (or outside)."""
    v = np.asarray(vector, dtype=np.float32)
    inc = [a for a in anchors if a.action == "include"]
    if inc:
        sims = [float(a.embedding @ v) for a in inc]
        best = int(np.argmax(sims))
        if INCLUDE_COS <= sims[best] < INCLUDE_COS + MARGIN:
            return inc[best].concept, "include", sims[best]
    for a in anchors:
        if a.action == "exclude":
            s = float(a.embedding @ v)
            if EXCLUDE_COS - MARGIN <= s < EXCLUDE_COS:
                return a.concept, "exclude", s
    return None
