"""The walk's resonances as row-aligned arrays (embeddings, strengths, opposites), kept in
step with `walk.resonances`: a step asks about every resonance three times, and a
1,000-step walk holds hundreds of them, too many for a Python loop per question.

The arrays only narrow the search. Every answer is then taken from the resonance objects
themselves, exactly as a loop over them would, so the walk is the same to the last bit."""

from __future__ import annotations

import weakref
from datetime import datetime

import numpy as np

from wander.core.domain.models import Resonance, ResonanceStatus
from wander.core.engine.ports import Knowledge

# A float32 matrix product and a single dot product may differ in the last bits; anything
# within this of the best is worked out exactly.
SIMILARITY_SLACK = 1e-4
_DAY_S = 86400.0


def opposite_labels(knowledge: Knowledge, themes: list[str]) -> frozenset[str]:
    """The corpus's opposites of a resonance's themes. The corpus does not change: kept per
    corpus and theme list (a weak key lets a corpus go)."""
    memo = _OPPOSITES.setdefault(knowledge, {})
    key = tuple(themes)
    if key not in memo:
        if len(memo) > 50_000:  # a long-lived server: start over rather than grow for ever
            memo.clear()
        out: set[str] = set()
        for theme in key:
            i = knowledge.find_label(theme)
            if i is not None:
                out.update(knowledge.concept(j).label for j in knowledge.opposites(i))
        memo[key] = frozenset(out)
    return memo[key]


_OPPOSITES: weakref.WeakKeyDictionary[Knowledge, dict[tuple[str, ...], frozenset[str]]] = weakref.WeakKeyDictionary()


class ResonanceRows:
    """Row i describes walk.resonances[i]; `sync` brings the rows up to date with the list
    (only the entries that are other objects than last time are read again)."""

    def __init__(self, knowledge: Knowledge):
        self.knowledge = knowledge
        self._objects: list[Resonance] = []
        self._embeddings = np.zeros((16, knowledge.dim), dtype=np.float32)
        self._active = np.zeros(16, dtype=bool)
        self._strength = np.zeros(16)
        self._decay = np.zeros(16)
        self._reinforced_s = np.zeros(16)  # NaN: never reinforced (no decay)
        self._opposites: list[frozenset[str]] = []

    def sync(self, resonances: list[Resonance]) -> None:
        if len(resonances) < len(self._objects):  # the list was replaced by a shorter one
            self._objects, self._opposites = [], []
        known = self._objects
        for i, (was, now) in enumerate(zip(known, resonances)):
            if was is not now:
                self._set(i, now)
        for i in range(len(known), len(resonances)):
            self._set(i, resonances[i])

    def _set(self, i: int, r: Resonance) -> None:
        if i >= len(self._active):
            self._grow(2 * len(self._active))
        self._embeddings[i] = r.embedding
        self._active[i] = r.status != ResonanceStatus.INVALIDATED
        self._strength[i] = r.strength
        self._decay[i] = r.decay_rate
        self._reinforced_s[i] = np.nan if r.last_reinforced_at is None else r.last_reinforced_at.timestamp()
        opposites = opposite_labels(self.knowledge, r.themes)
        if i == len(self._objects):
            self._objects.append(r)
            self._opposites.append(opposites)
        else:
            self._objects[i] = r
            self._opposites[i] = opposites

    def _grow(self, size: int) -> None:
        def grown(a: np.ndarray) -> np.ndarray:
            out = np.zeros((size, *a.shape[1:]), dtype=a.dtype)
            out[: len(a)] = a
            return out

        self._embeddings, self._active = grown(self._embeddings), grown(self._active)
        self._strength, self._decay, self._reinforced_s = (
            grown(self._strength),
            grown(self._decay),
            grown(self._reinforced_s),
        )

    @property
    def active(self) -> np.ndarray:
        """Per row: not invalidated."""
        return self._active[: len(self._objects)]

    def similarities(self, vector: np.ndarray) -> np.ndarray:
        """Approximate cosine of each row's embedding to a unit vector."""
        return self._embeddings[: len(self._objects)] @ np.asarray(vector, dtype=np.float32)

    def weakening(self, now: datetime, below: float) -> np.ndarray:
        """Rows whose decayed strength may be under `below` (a superset: decide exactly)."""
        n = len(self._objects)
        days = np.maximum(0.0, (now.timestamp() - self._reinforced_s[:n]) / _DAY_S)
        days = np.nan_to_num(days, nan=0.0)
        approx = self._strength[:n] * (1.0 - self._decay[:n]) ** days
        return approx < below * (1 + 1e-6) + 1e-12

    def opposing(self, concept: str, rows: np.ndarray) -> list[int]:
        """Of the given rows, those with `concept` among their themes' opposites."""
        opposites = self._opposites
        return [int(i) for i in rows if concept in opposites[i]]


def best_rows(sims: np.ndarray, candidates: np.ndarray) -> np.ndarray:
    """The candidate rows (ascending) whose approximate similarity is within the slack of
    the best: the exact best is among them."""
    sub = sims[candidates]
    finite = np.isfinite(sub)  # a NaN row never wins a comparison
    candidates, sub = candidates[finite], sub[finite]
    if not len(candidates):
        return candidates
    return candidates[sub >= sub.max() - SIMILARITY_SLACK]
