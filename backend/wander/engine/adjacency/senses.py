"""Senses kept apart: two corpus concepts that share a word (a lemma) but are different
synsets ('wash (work)' and 'wash (water-base paint)') are close in the embedding only
because their texts start with the same word. A step from one to the other is a pun, not
an adjacency, unless the corpus relates them on its own (one is the other's broader
concept): those steps are left out of every strategy's candidates."""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from typing import Any

import numpy as np

from wander.engine.ports import Knowledge, KnowledgeConcept


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


class Senses:
    """Per corpus concept, the other concepts that share one of its words."""

    def __init__(self, knowledge: Knowledge):
        self.knowledge = knowledge
        self._lemmas = [lemmas_of(knowledge.concept(i)) for i in range(len(knowledge))]
        by_word: dict[str, list[int]] = {}
        for i, words in enumerate(self._lemmas):
            for w in words:
                by_word.setdefault(w, []).append(i)
        # only words shared by two concepts or more can make a pun
        self._by_word = {w: np.array(ix, dtype=np.int64) for w, ix in by_word.items() if len(ix) > 1}

    def lemmas(self, index: int) -> frozenset[str]:
        return self._lemmas[index]

    def sharing(self, words: Iterable[str]) -> np.ndarray:
        """Concepts that have one of `words`."""
        found = [self._by_word[w] for w in words if w in self._by_word]
        return np.unique(np.concatenate(found)) if found else np.zeros(0, dtype=np.int64)

    def puns(self, index: int | None, text: str = "") -> np.ndarray:
        """Concepts a step from concept `index` (or, for a locus outside the corpus, from
        `text`) would reach only through a shared word: another sense of one of its words,
        not its broader or narrower concept in the corpus."""
        if index is None:
            return self.sharing([_word(text.split(" (")[0])])
        others = self.sharing(self._lemmas[index])
        related = {index, *self.knowledge.broader(index), *self.knowledge.narrower(index)}
        return others[~np.isin(others, list(related))]

    def is_pun(self, a: int | None, b: int | None, a_text: str = "", b_text: str = "") -> bool:
        """Is a step between two concepts (corpus indices, or texts for loci outside it) a pun?"""
        if a is not None and a == b:
            return False
        words_a = self._lemmas[a] if a is not None else frozenset({_word(a_text.split(" (")[0])})
        words_b = self._lemmas[b] if b is not None else frozenset({_word(b_text.split(" (")[0])})
        if not words_a & words_b:
            return False
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
