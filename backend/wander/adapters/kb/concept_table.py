"""A knowledge base's concepts and the lookups over them (by key, by label, by domain, their
narrower concepts): what the in-memory index (kb/index.py) builds once from a list, and
what a knowledge base too large for a list of objects answers another way (kb/variants.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from wander.core.engine.ports import KnowledgeConcept


class ConceptTable(Protocol):
    domain_names: list[str]  # sorted; a domain's id is its position
    primary: np.ndarray  # per concept, the id of its first domain (-1: none)
    counts: np.ndarray  # per concept, how many domains it belongs to

    def __len__(self) -> int: ...

    def __getitem__(self, index: int) -> KnowledgeConcept: ...

    def index_of(self, key: str) -> int | None: ...

    def find_label(self, text: str) -> int | None:
        """The concept whose label (or bare lemma) is TEXT, lower-cased and with single spaces."""
        ...

    def members(self, domain: int) -> np.ndarray:
        """The concepts filed under a domain (any of theirs), ascending."""
        ...

    def narrower(self, index: int) -> list[int]: ...

    def with_opposites(self) -> np.ndarray:
        """The concepts that name opposites."""
        ...

    def extended(self, concepts: Sequence[KnowledgeConcept]) -> ConceptTable:
        """This table with CONCEPTS appended (their domains may be new ones)."""
        ...


class ListConcepts:
    """Every concept an object in a list, with dictionaries by key and label."""

    def __init__(self, concepts: Sequence[KnowledgeConcept]):
        self.concepts = list(concepts)
        self.by_key = {c.key: i for i, c in enumerate(self.concepts)}
        self.by_label: dict[str, int] = {}
        for i, c in enumerate(self.concepts):
            # first (most common) sense wins for a bare lemma; labels are unique already
            self.by_label.setdefault(c.label.lower(), i)
            self.by_label.setdefault(c.label.split(" (")[0].lower(), i)
        self.domain_names = sorted({d for c in self.concepts for d in c.domains})
        self.domain_ids = {name: i for i, name in enumerate(self.domain_names)}
        self.primary = np.array(
            [self.domain_ids[c.domains[0]] if c.domains else -1 for c in self.concepts], dtype=np.int32
        )
        self.counts = np.array([len(c.domains) for c in self.concepts], dtype=np.int32)
        member_lists: list[list[int]] = [[] for _ in self.domain_names]
        for i, c in enumerate(self.concepts):
            for d in c.domains:
                member_lists[self.domain_ids[d]].append(i)
        self._members = [np.unique(np.array(m, dtype=np.int64)) for m in member_lists]
        self.narrower_of: dict[int, list[int]] = {}
        for i, c in enumerate(self.concepts):
            for key in c.broader:
                j = self.by_key.get(key)
                if j is not None:
                    self.narrower_of.setdefault(j, []).append(i)
        self._opposed = np.array([i for i, c in enumerate(self.concepts) if c.opposites], dtype=np.int64)

    def __len__(self) -> int:
        return len(self.concepts)

    def __getitem__(self, index: int) -> KnowledgeConcept:
        return self.concepts[index]

    def index_of(self, key: str) -> int | None:
        return self.by_key.get(key)

    def find_label(self, text: str) -> int | None:
        return self.by_label.get(text)

    def members(self, domain: int) -> np.ndarray:
        return self._members[domain]

    def narrower(self, index: int) -> list[int]:
        return list(self.narrower_of.get(index, []))

    def with_opposites(self) -> np.ndarray:
        return self._opposed

    def extended(self, concepts: Sequence[KnowledgeConcept]) -> ListConcepts:
        return ListConcepts(self.concepts + list(concepts))
