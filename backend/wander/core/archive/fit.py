"""A projection's fit: 2-D coordinates for a wander's loci, from their embeddings.

A Projector (an adapter: UMAP, or PCA as the cheap fallback) fits; a Fit keeps what it was fitted on,
so new loci are placed between refits by `transform`: the inverse-distance-weighted mean
of the 2-D positions of their k nearest fitted neighbours (cosine). That costs one matrix
product, well under a millisecond for one point, where UMAP's own transform re-runs its
optimiser (about 200 ms); a refit off the hot path then corrects the picture."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np


class Projector(Protocol):
    name: str

    def fit(self, vectors: np.ndarray, seed: int = 0) -> np.ndarray:
        """(n, d) unit vectors -> (n, 2) coordinates."""
        ...


def normalise(xy: np.ndarray) -> np.ndarray:
    """Centre and scale into [-1, 1] on the larger axis, so every fit draws at one size."""
    xy = np.asarray(xy, dtype=np.float64)
    if len(xy) == 0:
        return xy.reshape(0, 2)
    xy = xy - (xy.min(axis=0) + xy.max(axis=0)) / 2
    span = float(np.abs(xy).max())
    return xy / span if span > 0 else xy


def fit_id_for(method: str, ids: list[str], vectors: np.ndarray, seed: int) -> str:
    h = hashlib.sha256(f"{method}:{seed}:".encode())
    for i in ids:
        h.update(i.encode())
    h.update(np.ascontiguousarray(vectors, dtype=np.float32).tobytes())
    return f"{method}-{h.hexdigest()[:16]}"


@dataclass
class Fit:
    fit_id: str
    method: str
    ids: list[str]
    xy: np.ndarray  # (n, 2), normalised
    vectors: np.ndarray = field(repr=False)  # (n, d) the fitted embeddings, unit length

    def points(self) -> dict[str, list[float]]:
        return {i: [round(float(x), 5), round(float(y), 5)] for i, (x, y) in zip(self.ids, self.xy)}

    def transform(self, vectors: np.ndarray, k: int = 5) -> np.ndarray:
        """Place new points among the fitted ones (see the module docstring)."""
        v = unit(np.atleast_2d(vectors))
        if len(self.ids) == 0:
            return np.zeros((len(v), 2))
        sims = v @ self.vectors.T  # (m, n)
        k = min(k, sims.shape[1])
        idx = np.argpartition(-sims, k - 1, axis=1)[:, :k]
        near = np.take_along_axis(sims, idx, axis=1)
        w = 1.0 / np.maximum(1.0 - near, 1e-4)  # inverse cosine distance
        w /= w.sum(axis=1, keepdims=True)
        return np.einsum("mk,mkc->mc", w, self.xy[idx])


def unit(vectors: np.ndarray) -> np.ndarray:
    v = np.asarray(vectors, dtype=np.float32)
    n = np.linalg.norm(v, axis=1, keepdims=True)
    return v / np.where(n == 0, 1, n)


def fit(ids: list[str], vectors: np.ndarray, seed: int = 0, *, projector: Projector) -> Fit:
    v = unit(vectors) if len(ids) else np.zeros((0, 1), dtype=np.float32)
    xy = normalise(projector.fit(v, seed)) if len(ids) else np.zeros((0, 2))
    return Fit(fit_id_for(projector.name, ids, v, seed), projector.name, list(ids), xy, v)
