"""Approximate nearest neighbours over the knowledge base: a usearch HNSW graph.

The graph keeps its vectors as float16 (half of float32's memory); the hits are re-scored
exactly from the caller's rows, so similarities are the true cosines and only the choice of
candidates is approximate. Not int8: usearch rounds a unit vector's components to 127ths
(a 384-dimensional one's are a few hundredths, so a handful of levels each), and at a
million concepts, where each one's nearest lie within a few thousandths of each other, the
graph built from those distances found 4-6 of the 10 nearest. Concept indices are the graph's keys, so concepts
added later (foraged, imported) are new keys in the same graph.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from usearch.index import BatchMatches, Index

CONNECTIVITY = 8  # graph degree: recall against build time (1M x 384: 10 minutes on two loaded cores)
EXPANSION_ADD = 32
EXPANSION_SEARCH = 128
OVERFETCH = 2  # hits asked of the graph per neighbour wanted, before exact re-scoring


class AnnIndex:
    def __init__(self, dim: int, index: Index | None = None, threads: int = 0):
        self.dim = dim
        self.threads = threads  # 0: every core
        self._index = index or Index(
            ndim=dim,
            metric="ip",
            dtype="f16",
            connectivity=CONNECTIVITY,
            expansion_add=EXPANSION_ADD,
            expansion_search=EXPANSION_SEARCH,
        )

    def __len__(self) -> int:
        return len(self._index)

    def add(self, start: int, vectors: np.ndarray) -> None:
        """Add unit VECTORS as keys start, start+1, ..."""
        if len(vectors) == 0:
            return
        keys = np.arange(start, start + len(vectors), dtype=np.uint64)
        self._index.add(keys, np.asarray(vectors, dtype=np.float32), threads=self.threads)

    def search(
        self,
        v: np.ndarray,
        k: int,
        dots: Callable[[np.ndarray, np.ndarray], np.ndarray],
        exclude: Sequence[int] = (),
        also: np.ndarray | None = None,
    ) -> list[tuple[int, float]]:
        """The K nearest concepts to V, (index, exact similarity: row . V) best first; ROWS
        gives the concepts' unit vectors."""
        if k <= 0 or len(self._index) == 0:
            return []
        v = np.asarray(v, dtype=np.float32)
        norm = float(np.sqrt(v @ v))
        if norm == 0.0:
            return []
        ask = min(len(self._index), OVERFETCH * (k + len(exclude)) + 8)
        hits = self._index.search(v / norm, ask, threads=1)
        keys = np.asarray(hits.keys, dtype=np.int64)
        if also is not None and len(also):
            keys = np.unique(np.concatenate([keys, np.asarray(also, dtype=np.int64)]))
        if len(exclude):
            keys = keys[~np.isin(keys, np.asarray(exclude, dtype=np.int64))]
        sims = dots(keys, v)
        order = np.argsort(-sims, kind="stable")[:k]
        return [(int(keys[j]), float(sims[j])) for j in order]

    @property
    def expansion(self) -> int:
        """The graph's search width (EXPANSION_SEARCH unless changed)."""
        return int(self._index.expansion_search)

    @expansion.setter
    def expansion(self, value: int) -> None:
        self._index.expansion_search = value  # type: ignore[misc]  # has a setter

    def batch(self, vectors: np.ndarray, k: int, threads: int = 0) -> np.ndarray:
        """The graph's K nearest keys of each of unit VECTORS (rows of -1 where fewer)."""
        hits = self._index.search(np.asarray(vectors, dtype=np.float32), min(k, len(self._index)), threads=threads)
        if isinstance(hits, BatchMatches):
            keys = np.asarray(hits.keys, dtype=np.int64).reshape(len(vectors), -1)
            counts = np.asarray(hits.counts).reshape(-1)
        else:  # one vector: one list of matches
            keys = np.asarray(hits.keys, dtype=np.int64).reshape(1, -1)
            counts = np.array([keys.shape[1]])
        keys[np.arange(keys.shape[1])[None, :] >= counts[:, None]] = -1
        out = np.full((len(vectors), k), -1, dtype=np.int64)
        out[:, : keys.shape[1]] = keys
        return out

    def save(self, path: Path) -> None:
        self._index.save(str(path))

    @classmethod
    def load(cls, path: Path, dim: int) -> AnnIndex:
        index = Index.restore(str(path))
        if index is None or index.ndim != dim:
            raise ValueError(f"{path} holds no ANN index of {dim} dimensions")
        index.expansion_search = EXPANSION_SEARCH  # type: ignore[misc]  # has a setter; a query-time setting the file does not keep
        return cls(dim, index)
