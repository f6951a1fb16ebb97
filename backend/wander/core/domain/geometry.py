"""Vector geometry on unit-normalised embeddings: cosine, distance bands, midpoints."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

BAND_LOW = 0.3
BAND_HIGH = 0.7


def normalize(v: np.ndarray) -> np.ndarray:
    """Unit-normalise a vector or each row of a matrix; zero vectors stay zero."""
    v = np.asarray(v, dtype=np.float32)
    # what np.linalg.norm computes, without its dispatch (this runs thousands of times a step)
    norm = np.sqrt(np.add.reduce(v * v, axis=-1, keepdims=True))
    if v.ndim == 1:
        return v / norm if norm[0] > 0 else np.zeros_like(v)
    return np.divide(v, norm, out=np.zeros_like(v), where=norm > 0)


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.dot(normalize(a), normalize(b)))


def cosine_distance(a: np.ndarray, b: np.ndarray) -> float:
    return 1.0 - cosine(a, b)


def distances_to(matrix: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Cosine distances from v to every row of a matrix of unit vectors."""
    if len(matrix) == 0:
        return np.zeros(0, dtype=np.float32)
    return 1.0 - matrix @ normalize(v)


def in_band(distance: float | np.ndarray, low: float = BAND_LOW, high: float = BAND_HIGH):
    return (distance >= low) & (distance <= high)


def band_centrality(distance: np.ndarray | float, low: float = BAND_LOW, high: float = BAND_HIGH) -> np.ndarray:
    """1 at the middle of the band, 0 at its edges and outside it."""
    mid, half = (low + high) / 2, (high - low) / 2
    return np.clip(1.0 - np.abs(np.asarray(distance) - mid) / half, 0.0, 1.0)


def midpoint(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return normalize(normalize(a) + normalize(b))


def offset(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The direction that leads from b towards a (what a has that b lacks)."""
    return normalize(normalize(a) - normalize(b))


def max_similarity(matrix: np.ndarray, v: np.ndarray) -> float:
    """Highest cosine similarity of v to any row, 0 for an empty matrix."""
    if len(matrix) == 0:
        return 0.0
    return float(np.max(matrix @ normalize(v)))


def top_k(sims: np.ndarray, k: int, exclude: Sequence[int] = ()) -> list[tuple[int, float]]:
    """The k highest of a similarity row as (index, similarity), best first, leaving out
    `exclude`."""
    if exclude:
        sims = sims.copy()
        sims[list(exclude)] = -np.inf
    k = min(k, len(sims))
    top = np.argpartition(-sims, k - 1)[:k] if k else np.array([], dtype=int)
    top = top[np.argsort(-sims[top], kind="stable")]
    return [(int(i), float(sims[i])) for i in top]
