"""The Knowledge port for a knowledge base too large to scan every step: no float32 matrix
(the rows are int8 codes with a scale per row, kb/scaled_vectors.py, and a concept's vector
is read from them, within 0.002 of its cosine), nearest neighbours from the ANN graph, the
distance band drawn from coarse cells within a bound (ports.BandSampler), and each concept's
domain reach read from its graph neighbours instead of a product of the corpus with itself.
Its concepts may be a table that makes them when asked (kb/concept_table.py).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from wander.adapters.kb import corpus
from wander.adapters.kb.concept_table import ConceptTable, ListConcepts
from wander.adapters.kb.index import KnowledgeIndex
from wander.adapters.kb.scaled_vectors import CHUNK, ScaledVectors
from wander.core.engine.ports import KnowledgeConcept

DRAWS_KEPT = 8  # band draws kept: the step's strategies share the current locus's draw
CENTROID_SAMPLE = 4096  # a domain's members its centroid is the mean of, at most


class ApproximateIndex(KnowledgeIndex):
    def __init__(
        self,
        concepts: Sequence[KnowledgeConcept] | ConceptTable,
        matrix: np.ndarray | None = None,
        relations: corpus.CorpusRelations | None = None,
        scaled: ScaledVectors | None = None,
        seed: int = 0,
    ):
        """CONCEPTS: a list, or a table (kb/variants.py); MATRIX: their unit vectors, from
        which SCALED (the int8 rows, cells, graph and neighbour table) is built when not given."""
        table: ConceptTable = concepts if hasattr(concepts, "index_of") else ListConcepts(concepts)  # type: ignore[assignment,arg-type]
        if scaled is None:
            if matrix is None or len(matrix) != len(table):
                raise ValueError("matrix: one unit vector per concept is needed when no scaled vectors are given")
            scaled = ScaledVectors.build(matrix, seed=seed)
        if len(scaled) < len(table):
            raise ValueError(f"scaled vectors of {len(scaled)} concepts for {len(table)} concepts")
        self._use_table(table, relations)
        self.scaled = scaled
        self.dim = scaled.dim
        self._draws: OrderedDict[tuple, tuple[np.ndarray, np.ndarray]] = OrderedDict()
        self._draw_lock = threading.Lock()
        self._pairs: tuple[np.ndarray, np.ndarray] | None = None

    # The vectors may hold concepts added after this index was made (grown): they belong
    # to the grown index, not to this one, so they are left out here.

    def vector(self, index: int) -> np.ndarray:
        return self.scaled.rows(np.array([index]))[0]

    def vectors(self, indices: np.ndarray) -> np.ndarray:
        return self.scaled.rows(np.asarray(indices, dtype=np.int64).reshape(-1))

    def similarities(self, v: np.ndarray) -> np.ndarray:
        """Every concept's similarity to V: a whole pass over the rows (no step asks for it;
        the strategies draw from the band and ask the graph)."""
        v = np.asarray(v, dtype=np.float32)
        if v.ndim != 1:
            return np.stack([self.similarities(col) for col in v.T], axis=1)
        return self.scaled.similarities(v)[: len(self)]

    def nearest(self, v: np.ndarray, k: int, exclude: Sequence[int] = ()) -> list[tuple[int, float]]:
        extra = len(self.scaled) - len(self)
        found = self.scaled.nearest(v, k + extra, exclude)
        return [(i, s) for i, s in found if i < len(self)][:k]

    def sample_band(
        self, v: np.ndarray, low: float, high: float, k: int, seed: Sequence[int]
    ) -> tuple[np.ndarray, np.ndarray]:
        """The band draw; the same draw (read-only arrays) for the same query, as the step's
        strategies ask for it in turn."""
        v = np.asarray(v, dtype=np.float32)
        key = (v.tobytes(), float(low), float(high), int(k), tuple(int(s) for s in seed))
        with self._draw_lock:
            found = self._draws.get(key)
        if found is None:
            draw = self.scaled.sample_band(v, low, high, k, seed)
            mine = draw.indices < len(self)
            found = (draw.indices[mine], draw.distances[mine])
            for a in found:
                a.flags.writeable = False
            with self._draw_lock:
                self._draws[key] = found
                while len(self._draws) > DRAWS_KEPT:
                    self._draws.popitem(last=False)
        return found

    def opposite_pairs(self) -> tuple[np.ndarray, np.ndarray]:
        """Every pair (a, b) of concepts the corpus calls opposites, both ways, sorted (read
        from the concepts that name opposites, not from every concept)."""
        if self._pairs is None:
            pairs = {(int(i), j) for i in self._table.with_opposites() for j in self.opposites(int(i)) if j != i}
            pairs |= {(j, i) for i, j in pairs}
            ordered = sorted(pairs)
            self._pairs = (
                np.array([a for a, _ in ordered], dtype=np.int64),
                np.array([b for _, b in ordered], dtype=np.int64),
            )
        return self._pairs

    # ---- domains: from the table's members and the rows' graph neighbours ----------------

    def domain_centroid(self, name: str) -> np.ndarray | None:
        """Mean embedding of a domain's concepts, from CENTROID_SAMPLE of them at most (evenly
        spaced: a domain of a million-concept base holds tens of thousands; the mean of a few
        thousand is within a hundredth of it), cached."""
        if name not in self._centroids:
            d = self._domain_ids.get(name)
            members = self._table.members(d) if d is not None else np.zeros(0, dtype=np.int64)
            if len(members) > CENTROID_SAMPLE:
                members = members[np.linspace(0, len(members) - 1, CENTROID_SAMPLE).astype(np.int64)]
            self._centroids[name] = self.vectors(members).mean(axis=0) if len(members) else None
        return self._centroids[name]

    def domain_mask(self, allowed: Sequence[str], forbidden: Sequence[str]) -> np.ndarray:
        known = [self._domain_ids[d] for d in allowed if d in self._domain_ids]
        mask = np.full(len(self), not allowed, dtype=bool)
        for d in known:
            mask[self._table.members(d)] = True
        for name in forbidden:
            if name in self._domain_ids:
                mask[self._table.members(self._domain_ids[name])] = False
        return mask

    def _neighbour_domains(self, rows: slice) -> tuple[np.ndarray, np.ndarray]:
        """The graph neighbours' primary domains (-1: a concept of a grown index, or none)
        and similarities, for a slice of the concepts."""
        keys, sims = self.scaled.neighbours_of(rows)
        mine = keys < len(self)
        doms = np.where(mine, self._primary[np.where(mine, keys, 0)], -1)
        return doms, np.asarray(sims, dtype=np.float32)

    def domain_reach(self, threshold: float) -> np.ndarray:
        """Per concept: how many primary domains other than its own its NEIGHBOURS nearest
        concepts (the graph's, kb/scaled_vectors.py) reach at THRESHOLD or nearer: the exact
        index's count, read from a concept's nearest instead of from every domain's members
        (a product of the corpus with itself). Computed once per threshold."""
        if threshold not in self._reach_counts:
            counts = np.zeros(len(self), dtype=np.int32)
            for s in range(0, len(self), CHUNK):
                part = slice(s, min(len(self), s + CHUNK))
                doms, sims = self._neighbour_domains(part)
                doms = np.where((sims >= threshold) & (doms != self._primary[part, None]), doms, -1)
                doms.sort(axis=1)
                fresh = np.c_[doms[:, :1] >= 0, (doms[:, 1:] != doms[:, :-1]) & (doms[:, 1:] >= 0)]
                counts[part] = fresh.sum(axis=1)
            counts.flags.writeable = False
            self._reach_counts[threshold] = counts
        return self._reach_counts[threshold]

    def domain_neighbours(self, index: int, threshold: float) -> list[tuple[str, int, float]]:
        """(domain, nearest concept of that domain among the concept's graph neighbours,
        similarity) for each other primary domain reached, nearest first."""
        doms, sims = self._neighbour_domains(slice(index, index + 1))
        keys, _ = self.scaled.neighbours_of(slice(index, index + 1))
        out, seen = [], {int(self._primary[index]), -1}
        for d, j, s in zip(doms[0].tolist(), keys[0].tolist(), sims[0].tolist()):
            if s >= threshold and d not in seen:
                seen.add(d)
                out.append((self._table.domain_names[d], int(j), float(s)))
        return sorted(out, key=lambda t: -t[2])

    def domain_reach_table(self) -> tuple[np.ndarray, np.ndarray] | None:
        return None  # no concept x domain table at this size: domain_neighbours reads the graph's

    def prepare_domain_reach(self) -> None:
        """Nothing to prepare: the reach per threshold is read from the neighbour table."""

    def adopt_domain_reach(self, reach: np.ndarray, domains: np.ndarray) -> None:
        raise ValueError("an approximate index reads its domain reach from its graph neighbours")

    def content_key(self) -> str:
        if self._content_key is None:
            h = hashlib.sha1(np.ascontiguousarray(self.scaled.matrix[:: max(1, len(self) // 4096)]).tobytes())
            h.update(np.asarray(self.scaled.step if self.scaled.step is not None else ()).tobytes())
            h.update(self._primary.tobytes())
            h.update("\n".join(self._domain_ids).encode())
            self._content_key = h.hexdigest()
        return self._content_key

    def grown(self, concepts: Sequence[KnowledgeConcept], vectors: np.ndarray) -> ApproximateIndex:
        """The knowledge base with CONCEPTS (foraged, imported) added, their unit VECTORS
        joining the rows, cells, ANN graph and neighbour table in place (no rebuild). New
        wanders walk the grown index; one under way keeps the index it started with."""
        if len(concepts) != len(vectors):
            raise ValueError("concepts and vectors differ in number")
        if len(self.scaled) != len(self):
            raise ValueError("this index has been grown already: grow the newest one")
        if dup := [c.key for c in concepts if self.index_of(c.key) is not None]:
            raise ValueError(f"concepts already in the knowledge base: {dup[:3]}")
        table = self._table.extended(concepts)
        self.scaled.add(np.asarray(vectors, dtype=np.float32))
        return ApproximateIndex(table, relations=self._graph, scaled=self.scaled)
