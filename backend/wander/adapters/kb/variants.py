"""A synthetic knowledge base for benchmarks and tests at a million concepts: the concepts of
a real one (the base), then variants, each a copy of a base concept (its parent) with its own
key, its parent's label numbered, its parent's gloss and domains, and its parent as its
broader concept. Variants are made when asked for (a million objects would take seconds and
hundreds of megabytes); their vectors (the parent's plus noise) are the caller's.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from wander.adapters.kb.concept_table import ConceptTable, ListConcepts
from wander.core.engine.ports import KnowledgeConcept

PREFIX = "variant:"
SOURCE = "variant"
MADE_KEPT = 65_536


class VariantConcepts:
    def __init__(self, base: ListConcepts, parents: np.ndarray):
        """PARENTS: for each variant, the index of its base concept."""
        self.base = base
        self.parents = np.asarray(parents, dtype=np.int32)
        if len(self.parents) and (self.parents.min() < 0 or self.parents.max() >= len(base)):
            raise ValueError("parents: every parent must be a concept of the base")
        self.domain_names = base.domain_names
        self.primary = np.concatenate([base.primary, base.primary[self.parents]])
        self.counts = np.concatenate([base.counts, base.counts[self.parents]])
        order = np.argsort(self.parents, kind="stable")
        self._children = order + len(base)
        self._offsets = np.zeros(len(base) + 1, dtype=np.int64)
        np.cumsum(np.bincount(self.parents, minlength=len(base)), out=self._offsets[1:])
        self._members: dict[int, np.ndarray] = {}
        self._made: dict[int, KnowledgeConcept] = {}  # the variants asked for lately

    def __len__(self) -> int:
        return len(self.base) + len(self.parents)

    def __getitem__(self, index: int) -> KnowledgeConcept:
        n = len(self.base)
        if index < n:
            return self.base[index]
        if index >= len(self):
            raise IndexError(index)
        made = self._made.get(index)
        if made is None:
            p = self.base[int(self.parents[index - n])]
            made = KnowledgeConcept(
                f"{PREFIX}{index}", f"{p.label} #{index}", p.gloss, p.domains, p.path, (), SOURCE, (p.key,)
            )
            if len(self._made) >= MADE_KEPT:
                self._made.clear()
            self._made[index] = made
        return made

    def index_of(self, key: str) -> int | None:
        if key.startswith(PREFIX):
            tail = key[len(PREFIX) :]
            i = int(tail) if tail.isdigit() else -1
            return i if len(self.base) <= i < len(self) else None
        return self.base.index_of(key)

    def find_label(self, text: str) -> int | None:
        head, _, number = text.rpartition(" #")
        if head and number.isdigit() and len(self.base) <= int(number) < len(self):
            i = int(number)
            return i if self[i].label.lower() == text else None
        return self.base.find_label(text)

    def members(self, domain: int) -> np.ndarray:
        found = self._members.get(domain)
        if found is None:  # a pass over the parents, once per domain
            own = self.base.members(domain)
            found = np.concatenate([own, np.flatnonzero(np.isin(self.parents, own)) + len(self.base)])
            self._members[domain] = found
        return found

    def narrower(self, index: int) -> list[int]:
        if index >= len(self.base):
            return []
        kids = self._children[self._offsets[index] : self._offsets[index + 1]]
        return self.base.narrower(index) + kids.tolist()

    def with_opposites(self) -> np.ndarray:
        return self.base.with_opposites()

    def extended(self, concepts: Sequence[KnowledgeConcept]) -> ConceptTable:
        raise ValueError("a synthetic knowledge base does not grow")
