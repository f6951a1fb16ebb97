"""Senses kept apart: two corpus concepts that share a word (a lemma) but are different
synsets ('wash (work)' and 'wash (water-base paint)'), or one of which is a compound whose
head is the other's word in another sense ('work table' and 'table (array)'), are close in
the embedding only because their texts share the word. A step from one to the other is a pun, not
an adjacency, unless the corpus relates them on its own (one is the other's broader
concept): those steps are left out of every strategy's candidates."""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from typing import Any

import numpy as np

from wander.core.engine.adjacency.sense_slips import Slips
from wander.core.engine.ports import Knowledge, KnowledgeConcept


def _word(text: str) -> str:
    return " ".join(text.replace("_", " ").lower().split())


def lemmas_of(concept: KnowledgeConcept) -> frozenset[str]:
    """The words of a concept: its label without the sense hint ('wash (work)' -> 'wash'),
    the first word of its key ('washer.n.03' -> 'washer') and the synset's other lemmas
    where the corpus lists them (`lemmas`)."""
    words = {_word(concept.label.split(" (")[0])}
    head = concept.key.rsplit(".", 2)[0] if concept.key.count(".") >= 2 else ""
    if head:
        words.add(_word(head))
    extra: Iterable[str] = getattr(concept, "lemmas", None) or ()
    words |= {_word(w) for w in extra}
    words.discard("")
    return frozenset(words)


def heads_of(words: Iterable[str]) -> frozenset[str]:
    """The head words of a concept's compound words ('work table' -> 'table'): the kind a
    compound names, in one of that word's senses."""
    return frozenset(h for w in words if " " in w and len(h := w.rsplit(" ", 1)[1]) >= 3)


LINEAGE = 6  # levels within which a compound and its head's concept are kin, not a pun


WORDS_KEPT = 200_000  # concepts whose words are kept (all of them in a corpus this size or less)


class Senses:
    """Per corpus concept, the other concepts that share one of its words, or whose
    compound's head is one of its words ('work table' and 'table (array)').

    A concept's words are read when asked for; the index from words to concepts (puns,
    sharing) is a pass over every concept, made on first use: a walk over a knowledge
    base too large for it asks is_pun of the concepts a step considers instead."""

    def __init__(self, knowledge: Knowledge):
        self.knowledge = knowledge
        self._words: dict[int, frozenset[str]] = {}
        self._index: tuple[dict[str, np.ndarray], dict[str, np.ndarray]] | None = None
        self._puns: dict[int, np.ndarray] = {}
        self._ups: dict[int, set[int]] = {}
        self._slips: Slips | None = None

    @property
    def slips(self) -> Slips:
        """The sense slips the shared-word check misses (sense_slips.py)."""
        if self._slips is None:
            self._slips = Slips(self)
        return self._slips

    def _lemmas_of(self, index: int) -> frozenset[str]:
        found = self._words.get(index)
        if found is None:
            if len(self._words) >= WORDS_KEPT:
                self._words.clear()
            found = self._words[index] = lemmas_of(self.knowledge.concept(index))
        return found

    def _heads(self, index: int) -> frozenset[str]:
        return heads_of(self._lemmas_of(index))

    def _word_index(self) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
        """(word -> concepts having it, head word -> concepts whose compounds have it)."""
        if self._index is None:
            by_word: dict[str, list[int]] = {}
            by_head: dict[str, list[int]] = {}
            for i in range(len(self.knowledge)):
                words = self._lemmas_of(i)
                for w in words:
                    by_word.setdefault(w, []).append(i)
                for h in heads_of(words):
                    by_head.setdefault(h, []).append(i)
            # only words shared by two concepts or more can make a pun
            self._index = (
                {w: np.array(ix, dtype=np.int64) for w, ix in by_word.items() if len(ix) > 1},
                {w: np.array(ix, dtype=np.int64) for w, ix in by_head.items()},
            )
        return self._index

    def _up(self, index: int) -> set[int]:
        """The concept's broader concepts in the corpus, up to LINEAGE levels."""
        cached = self._ups.get(index)
        if cached is not None:
            return cached
        found: set[int] = set()
        frontier = [index]
        for _ in range(LINEAGE):
            frontier = [b for k in frontier for b in self.knowledge.broader(k) if b not in found]
            found.update(frontier)
            if not frontier:
                break
        self._ups[index] = found
        return found

    def _kin(self, a: int, b: int) -> bool:
        return b in self._up(a) or a in self._up(b)

    def _compounds(self, index: int) -> np.ndarray:
        """Concepts that meet this one only through a compound's head word, not as kin."""
        words = self._lemmas_of(index)
        by_word, by_head = self._word_index()
        found = [by_head[w] for w in words if w in by_head]
        found += [by_word[h] for h in self._heads(index) if h in by_word]
        if not found:
            return np.zeros(0, dtype=np.int64)
        others = np.unique(np.concatenate(found))
        return np.array([j for j in others.tolist() if j != index and not self._kin(index, j)], dtype=np.int64)

    def lemmas(self, index: int) -> frozenset[str]:
        return self._lemmas_of(index)

    def sharing(self, words: Iterable[str]) -> np.ndarray:
        """Concepts that have one of `words`."""
        by_word = self._word_index()[0]
        found = [by_word[w] for w in words if w in by_word]
        return np.unique(np.concatenate(found)) if found else np.zeros(0, dtype=np.int64)

    def puns(self, index: int | None, text: str = "") -> np.ndarray:
        """Concepts a step from concept `index` (or, for a locus outside the corpus, from
        `text`) would reach only through a shared word: another sense of one of its words,
        not its broader or narrower concept in the corpus."""
        if index is None:
            return self.sharing([_word(text.split(" (")[0])])
        found = self._puns.get(index)
        if found is None:
            others = self.sharing(self._lemmas_of(index))
            related = {index, *self.knowledge.broader(index), *self.knowledge.narrower(index)}
            found = np.union1d(others[~np.isin(others, list(related))], self._compounds(index)).astype(np.int64)
            found = np.union1d(found, self.slips.of(index)).astype(np.int64)
            if len(self._puns) > 4096:
                self._puns.clear()
            self._puns[index] = found
        return found

    def is_pun(self, a: int | None, b: int | None, a_text: str = "", b_text: str = "") -> bool:
        """Is a step between two concepts (corpus indices, or texts for loci outside it) a pun?"""
        if a is not None and a == b:
            return False
        words_a = self._lemmas_of(a) if a is not None else frozenset({_word(a_text.split(" (")[0])})
        words_b = self._lemmas_of(b) if b is not None else frozenset({_word(b_text.split(" (")[0])})
        if not words_a & words_b:
            if a is None or b is None:
                return False
            # a compound's head word in another sense: 'table (array)' -> 'work table'
            if heads_of(words_b) & words_a or heads_of(words_a) & words_b:
                return not self._kin(a, b)
            return self.slips.is_slip(a, b)  # 'haircut' -> 'cut', 'test drive' -> 'vehicle (medium)'

        if a is not None and b is not None:
            kb = self.knowledge
            if b in kb.broader(a) or a in kb.broader(b):
                return False
        return True


_CACHE: Any = weakref.WeakKeyDictionary()


def senses_of(knowledge: Knowledge) -> Senses:
    """The Senses of a knowledge base, built once (a pass over its concepts, ~20 ms at 14k)."""
    try:
        found = _CACHE.get(knowledge)
    except TypeError:  # not weakly referenceable: build it each time (test doubles)
        return Senses(knowledge)
    if found is None:
        found = Senses(knowledge)
        _CACHE[knowledge] = found
    return found
