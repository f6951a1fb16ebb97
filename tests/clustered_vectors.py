"""Unit vectors in clusters, for the tests' synthetic knowledge bases (a large knowledge
base's index, band sampler and step are checked on a few thousand of them)."""

from __future__ import annotations

import numpy as np


def clustered(rng: np.random.Generator, n: int, dim: int, clusters: int, noise: float) -> tuple[np.ndarray, np.ndarray]:
    """N unit vectors around CLUSTERS random centres (NOISE: the spread about them), and
    each vector's cluster. Draws from RNG in a fixed order: centres, clusters, noise."""
    centres = rng.standard_normal((clusters, dim)).astype(np.float32)
    which = rng.integers(0, clusters, n)
    m = centres[which] + noise * rng.standard_normal((n, dim)).astype(np.float32)
    m /= np.linalg.norm(m, axis=1, keepdims=True)
    return m, which
