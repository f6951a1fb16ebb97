"""The sandwiches' names as a reader reads them: the lemmas of breads and fillings embedded
(in one batch per crystallization, kept), for the gate's names-alike rule
(crystal_structure.names_alike)."""

from __future__ import annotations

import numpy as np

from wander.core.engine import crystal_structure
from wander.core.engine.ports import Embedder, Knowledge
from wander.core.engine.sandwich_choice import NamesAlike, Sandwich

NAMES_KEPT = 20_000  # concept names whose embeddings a reader keeps


class NameReader:
    def __init__(self, embedder: Embedder):
        self.embedder = embedder
        self._names: dict[str, np.ndarray] = {}  # concept names (lemmas) -> their embedding

    def alike(self, kb: Knowledge, candidates: list[Sandwich]) -> NamesAlike:
        """Why a sandwich's names say a word again, for these candidates (their names
        embedded in one batch; the cache is emptied when it would pass NAMES_KEPT)."""
        lemmas = {crystal_structure.lemma(kb, i) for c in candidates for i in c[2:]}
        todo = sorted(x for x in lemmas if x not in self._names)
        if len(self._names) + len(todo) > NAMES_KEPT:
            self._names.clear()
            todo = sorted(lemmas)
        if todo:
            self._names.update(zip(todo, self.embedder.embed(todo)))

        def alike(c: Sandwich) -> str | None:
            return crystal_structure.names_alike(kb, c[4], c[2], c[3], self._names.__getitem__)

        return alike
