"""The Knowledge port for a knowledge base too large to scan every step: the in-memory
index, with its nearest neighbours from the ANN graph and its distance band drawn from
coarse cells within a bound (ports.BandSampler; kb/scaled_vectors.py) instead of a pass
over every concept.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from wander.adapters.kb import corpus
from wander.adapters.kb.index import KnowledgeIndex
from wander.adapters.kb.scaled_vectors import ScaledVectors
from wander.core.engine.ports import KnowledgeConcept


class ApproximateIndex(KnowledgeIndex):
    def __init__(
        self,
        concepts: Sequence[KnowledgeConcept],
        matrix: np.ndarray,
        relations: corpus.CorpusRelations | None = None,
        scaled: ScaledVectors | None = None,
        seed: int = 0,
    ):
        """SCALED: the vectors' cells and graph, when built earlier (else built here)."""
        super().__init__(concepts, matrix, relations)
        self.scaled = scaled or ScaledVectors.build(self._matrix, quantized=False, seed=seed)
        if len(self.scaled) != len(self):
            raise ValueError(f"scaled vectors of {len(self.scaled)} concepts for {len(self)} concepts")

    def nearest(self, v: np.ndarray, k: int, exclude: Sequence[int] = ()) -> list[tuple[int, float]]:
        return self.scaled.nearest(v, k, exclude)

    def sample_band(
        self, v: np.ndarray, low: float, high: float, k: int, seed: Sequence[int]
    ) -> tuple[np.ndarray, np.ndarray]:
        draw = self.scaled.sample_band(v, low, high, k, seed)
        return draw.indices, draw.distances
