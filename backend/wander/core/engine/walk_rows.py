"""The walk's per-concept values over a knowledge base too large for a row of them per wander
(ports.BandSampler, a million concepts): similarities to the seed and the attractor, the
scope, the seed-attractor span, what was visited and what is open to a step, each answered
for the concepts a step asks about (a band draw, the candidates) and never for all of them.
The exact walk keeps whole rows (walk.py); these are read by index the same way."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from wander.core.domain.models import FenceAnchor
from wander.core.engine import fence as fences
from wander.core.engine.ports import Knowledge
from wander.core.engine.scope import drift_sims

SAMPLE = 4096  # concepts drawn once per wander to estimate percentile ranks and the open floor
NEAR = 512  # the attractor's nearest concepts the field's floors are read from
CACHED = 65_536  # values a row keeps before it starts again


def _indices(idx: Any) -> np.ndarray:
    idx = np.asarray(idx)
    if idx.dtype == bool:
        raise TypeError("a per-concept value of a large knowledge base is read by index, not by mask")
    return idx.astype(np.int64, copy=False)


class LazyRow:
    """Every concept's similarity to a vector, computed for the concepts asked about (and
    kept: a step asks about the same few hundred several times)."""

    def __init__(self, knowledge: Knowledge, v: np.ndarray):
        self.knowledge = knowledge
        self.v = np.asarray(v, dtype=np.float32)
        self._n = len(knowledge)
        self._known: dict[int, float] = {}

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, idx: Any) -> Any:
        if np.ndim(idx) == 0:
            return np.float32(self.at(_indices(np.atleast_1d(idx)))[0])
        i = _indices(idx)
        return self.at(i.reshape(-1)).reshape(i.shape)

    def at(self, idx: np.ndarray) -> np.ndarray:
        known = self._known
        out = np.fromiter((known.get(i, np.nan) for i in idx.tolist()), dtype=np.float32, count=len(idx))
        missing = np.isnan(out)
        if missing.any():
            fresh = idx[missing]
            out[missing] = self.knowledge.vectors(fresh) @ self.v
            if len(known) > CACHED:
                known.clear()
            known.update(zip(fresh.tolist(), out[missing].tolist()))
        return out


class SpanRow:
    """Per concept, the lower of its percentile ranks by similarity to the seed and to the
    attractor (walk.Walk.span), the ranks read from a uniform sample of the concepts."""

    def __init__(self, seed: LazyRow, pull: LazyRow, sample: np.ndarray):
        self.seed, self.pull = seed, pull
        self._seed_sorted = np.sort(seed[sample])
        self._pull_sorted = np.sort(pull[sample])

    def __len__(self) -> int:
        return len(self.seed)

    def __getitem__(self, idx: Any) -> Any:
        one = np.ndim(idx) == 0
        i = _indices(np.atleast_1d(idx))
        n = max(1, len(self._seed_sorted))
        ranks = np.minimum(
            np.searchsorted(self._seed_sorted, self.seed[i], side="left") / n,
            np.searchsorted(self._pull_sorted, self.pull[i], side="left") / n,
        ).astype(np.float32)
        return ranks[0] if one else ranks


class ScopeMask:
    """Per concept: in the session's domains, within its drift and inside its fence."""

    def __init__(
        self,
        knowledge: Knowledge,
        domains: np.ndarray,
        seed: LazyRow,
        pull: LazyRow | None,
        max_drift: float,
        fence: Sequence[FenceAnchor],
    ):
        self.knowledge, self.domains, self.seed, self.pull = knowledge, domains, seed, pull
        self.max_drift, self.fence = max_drift, fence

    def __len__(self) -> int:
        return len(self.domains)

    def __getitem__(self, idx: Any) -> Any:
        one = np.ndim(idx) == 0
        i = _indices(np.atleast_1d(idx))
        ok = self.domains[i].copy()
        near = drift_sims(self.seed[i], None if self.pull is None else self.pull[i])
        ok &= 1.0 - near <= self.max_drift
        if self.fence and ok.any():
            ok[ok] = fences.inside_mask(self.fence, self.knowledge.vectors(i[ok]))
        return bool(ok[0]) if one else ok


class IndexSet:
    """The concepts visited so far, as a mask read by index (a set, not a row)."""

    def __init__(self, n: int):
        self._n = n
        self._members: set[int] = set()
        self._sorted = np.zeros(0, dtype=np.int64)

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, idx: Any) -> Any:
        if np.ndim(idx) == 0:
            return int(idx) in self._members
        i = _indices(idx)
        if not len(self._sorted):
            return np.zeros(i.shape, dtype=bool)
        at = np.minimum(np.searchsorted(self._sorted, i), len(self._sorted) - 1)
        return self._sorted[at] == i  # np.isin's cost is its set-up, for a few hundred a step

    def __setitem__(self, index: int, value: bool) -> None:
        if value:
            self._members.add(int(index))
        else:
            self._members.discard(int(index))
        self._sorted = np.array(sorted(self._members), dtype=np.int64)

    def indices(self) -> np.ndarray:
        return self._sorted


class OpenMask:
    """Per concept, for the step under way: in scope, not visited, and no pun on the current
    locus (PUN: indices -> mask), the answers kept for the step."""

    def __init__(self, scope: ScopeMask, visited: IndexSet, pun: Callable[[np.ndarray], np.ndarray]):
        self.scope, self.visited, self.pun = scope, visited, pun
        self._known: dict[int, bool] = {}

    def __len__(self) -> int:
        return len(self.scope)

    def __getitem__(self, idx: Any) -> Any:
        one = np.ndim(idx) == 0
        i = _indices(np.atleast_1d(idx))
        flat = i.reshape(-1)
        known = self._known
        fresh = np.array(sorted({j for j in flat.tolist() if j not in known}), dtype=np.int64)
        if len(fresh):
            ok = self.scope[fresh] & ~self.visited[fresh]
            if ok.any():
                ok[ok] = ~self.pun(fresh[ok])
            known.update(zip(fresh.tolist(), ok.tolist()))
        out = np.fromiter((known[j] for j in flat.tolist()), dtype=bool, count=len(flat)).reshape(i.shape)
        return bool(out[0]) if one else out


def uniform_sample(n: int, size: int = SAMPLE) -> np.ndarray:
    """SIZE concept indices drawn once (the same for every wander over the same knowledge base)."""
    rng = np.random.default_rng(0)
    return np.sort(rng.choice(n, size=min(n, size), replace=False)) if n else np.zeros(0, dtype=np.int64)


def nearest_in_scope(
    knowledge: Knowledge, v: np.ndarray, scope: ScopeMask, k: int = NEAR
) -> tuple[np.ndarray, np.ndarray]:
    """The K concepts nearest V by the knowledge base's graph, those in scope, and their
    similarities, nearest first."""
    found = knowledge.nearest(v, k)
    idx = np.array([i for i, _ in found], dtype=np.int64)
    sims = np.array([s for _, s in found], dtype=np.float32)
    keep = scope[idx] if len(idx) else np.zeros(0, dtype=bool)
    return idx[keep], sims[keep]
