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

    # The vectors may hold concepts added after this index was made (grown): they belong
    # to the grown index, not to this one, so they are left out here.

    def nearest(self, v: np.ndarray, k: int, exclude: Sequence[int] = ()) -> list[tuple[int, float]]:
        extra = len(self.scaled) - len(self)
        found = self.scaled.nearest(v, k + extra, exclude)
        return [(i, s) for i, s in found if i < len(self)][:k]

    def sample_band(
        self, v: np.ndarray, low: float, high: float, k: int, seed: Sequence[int]
    ) -> tuple[np.ndarray, np.ndarray]:
        draw = self.scaled.sample_band(v, low, high, k, seed)
        mine = draw.indices < len(self)
        return draw.indices[mine], draw.distances[mine]

    def grown(self, concepts: Sequence[KnowledgeConcept], vectors: np.ndarray) -> ApproximateIndex:
        """The knowledge base with CONCEPTS (foraged, imported) added, their unit VECTORS
        joining the cells and the ANN graph in place (no rebuild). New wanders walk the grown
        index; one under way keeps the index it started with, whose arrays match it."""
        if len(concepts) != len(vectors):
            raise ValueError("concepts and vectors differ in number")
        if len(self.scaled) != len(self):
            raise ValueError("this index has been grown already: grow the newest one")
        known = {self.concept(i).key for i in range(len(self))}
        if dup := [c.key for c in concepts if c.key in known]:
            raise ValueError(f"concepts already in the knowledge base: {dup[:3]}")
        vectors = np.asarray(vectors, dtype=np.float32)
        self.scaled.add(vectors)
        everything = [self.concept(i) for i in range(len(self))] + list(concepts)
        return ApproximateIndex(everything, np.concatenate([self._matrix, vectors]), self._graph, self.scaled)
