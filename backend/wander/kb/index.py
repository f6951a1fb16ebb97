"""The Knowledge port in memory: every concept's unit embedding in one float32 matrix.

A wander step scores the whole knowledge base against the current locus; one matrix
product over ~15k x 384 floats takes a few milliseconds, far less than a round trip to
pgvector per candidate. Postgres (with its HNSW index) stays the store of record and
serves the search endpoints.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from wander.engine.ports import KnowledgeConcept


class KnowledgeIndex:
    def __init__(self, concepts: Sequence[KnowledgeConcept], matrix: np.ndarray):
        if len(concepts) != len(matrix):
            raise ValueError("concepts and matrix rows differ in number")
        self._concepts = list(concepts)
        self._matrix = np.ascontiguousarray(matrix, dtype=np.float32)
        self.dim = int(self._matrix.shape[1]) if len(self._matrix) else 0
        self._by_key = {c.key: i for i, c in enumerate(self._concepts)}
        self._by_label: dict[str, int] = {}
        for i, c in enumerate(self._concepts):
            # first (most common) sense wins for a bare lemma; labels are unique already
            self._by_label.setdefault(c.label.lower(), i)
            self._by_label.setdefault(c.label.split(" (")[0].lower(), i)
        names = sorted({d for c in self._concepts for d in c.domains})
        self._domain_ids = {name: i for i, name in enumerate(names)}
        self._primary = np.array(
            [self._domain_ids[c.domains[0]] if c.domains else -1 for c in self._concepts], dtype=np.int32
        )
        self._counts = np.array([len(c.domains) for c in self._concepts], dtype=np.int32)
        self._membership = np.zeros((len(names), len(self._concepts)), dtype=bool)
        for i, c in enumerate(self._concepts):
            for d in c.domains:
                self._membership[self._domain_ids[d], i] = True

    def __len__(self) -> int:
        return len(self._concepts)

    def domains(self) -> set[str]:
        return set(self._domain_ids)

    def concept(self, index: int) -> KnowledgeConcept:
        return self._concepts[index]

    def vector(self, index: int) -> np.ndarray:
        return self._matrix[index]

    def vectors(self, indices: np.ndarray) -> np.ndarray:
        return self._matrix[indices]

    def index_of(self, key: str) -> int | None:
        return self._by_key.get(key)

    def find_label(self, text: str) -> int | None:
        return self._by_label.get(" ".join(text.lower().split()))

    def similarities(self, v: np.ndarray) -> np.ndarray:
        return self._matrix @ np.asarray(v, dtype=np.float32)

    def primary_domain_ids(self) -> np.ndarray:
        return self._primary

    def domain_counts(self) -> np.ndarray:
        return self._counts

    def domain_id(self, name: str) -> int:
        return self._domain_ids.get(name, -2)

    def domain_mask(self, allowed: Sequence[str], forbidden: Sequence[str]) -> np.ndarray:
        mask = np.ones(len(self._concepts), dtype=bool)
        known_allowed = [self._domain_ids[d] for d in allowed if d in self._domain_ids]
        if allowed:
            mask = self._membership[known_allowed].any(axis=0) if known_allowed else ~mask
        for d in forbidden:
            if d in self._domain_ids:
                mask &= ~self._membership[self._domain_ids[d]]
        return mask

    def nearest(self, v: np.ndarray, k: int, exclude: Sequence[int] = ()) -> list[tuple[int, float]]:
        sims = self.similarities(v)
        if exclude:
            sims = sims.copy()
            sims[list(exclude)] = -np.inf
        k = min(k, len(sims))
        top = np.argpartition(-sims, k - 1)[:k] if k else np.array([], dtype=int)
        top = top[np.argsort(-sims[top], kind="stable")]
        return [(int(i), float(sims[i])) for i in top]
