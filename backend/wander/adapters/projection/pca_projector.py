"""PCA behind the projection port: exact, instant, the fallback for small wanders."""

from __future__ import annotations

import numpy as np


class PcaProjector:
    name = "pca"

    def fit(self, vectors: np.ndarray, seed: int = 0) -> np.ndarray:
        x = np.asarray(vectors, dtype=np.float64)
        if len(x) < 2:
            return np.zeros((len(x), 2))
        x = x - x.mean(axis=0)
        u, s, _ = np.linalg.svd(x, full_matrices=False)
        xy = u[:, :2] * s[:2]
        if xy.shape[1] < 2:
            xy = np.hstack([xy, np.zeros((len(x), 2 - xy.shape[1]))])
        # a sign convention, so the same data always draws the same way round
        signs = np.sign(xy[np.argmax(np.abs(xy), axis=0), range(2)])
        return xy * np.where(signs == 0, 1, signs)
