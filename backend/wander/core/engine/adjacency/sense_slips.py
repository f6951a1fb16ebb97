"""Sense slips the shared-word check misses (adjacency/senses.py): a step that is near in the
embedding only through a word both texts hold, used in two senses, where the two concepts
do not share it among their own words.

- A one-word compound whose tail is another concept's word: 'haircut' -> 'cut' (a share of
  the profits). 'work table' splits at its space (senses.heads_of); 'haircut' does not.
- A gloss that uses a word in one sense, and a concept that is another sense of it: 'test
  drive' ("test of the roadworthiness of a vehicle ...") -> 'vehicle (medium)'. The sense a
  gloss means is taken to be the word's first sense in the corpus (WordNet numbers a word's
  senses by how often they are used: 'vehicle.n.01' is the conveyance), unless another is
  nearer the glossed concept by MARGIN ('bank deposit' means the bank that takes deposits,
  not 'bank.n.01', the slope); a step to any other sense is a slip, and so is the step back.
- A kind of one sense of a word and another sense of it: 'taxi' (car, motor vehicle, ...,
  'vehicle' the conveyance: its hypernym path) -> 'vehicle (medium)', unless it is nearer the
  sense it shares the word with than the one it is a kind of.

Either way the two must not be kin in the corpus (one within senses.LINEAGE levels above
the other), which makes a step an adjacency whatever words the texts share. Slips are looked
for in a corpus of up to INDEX_MAX concepts (an index of every gloss's words)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from wander.core.engine.adjacency.senses import Senses

LINEAGE = 6  # levels of a hypernym path looked at, as senses.LINEAGE (senses imports this module)
INDEX_MAX = 200_000
MARGIN = 0.1  # how much nearer the glossed concept another sense must be than the word's first
PART = 3  # the shortest tail and rest of a one-word compound ('haircut': 'hair' + 'cut')
GRAMS = 3  # the longest phrase of a gloss looked for among the lemmas ('motor vehicle')
_TOKEN = re.compile(r"[a-z][a-z'-]*")

_Index = tuple[dict[str, list[int]], dict[str, list[int]], dict[str, list[int]], dict[str, list[int]]]


def _word(text: str) -> str:
    return " ".join(text.replace("_", " ").lower().split())


def gloss_words(gloss: str) -> frozenset[str]:
    """The words and two- and three-word phrases of a gloss, as lemmas are written."""
    tokens = _TOKEN.findall(gloss.lower())
    return frozenset(" ".join(tokens[i : i + n]) for n in range(1, GRAMS + 1) for i in range(len(tokens) - n + 1))


def splits(word: str) -> list[tuple[str, str]]:
    """(rest, tail) of a one-word compound at every place where both are PART letters or more."""
    if " " in word or "-" in word:
        return []
    return [(word[:k], word[k:]) for k in range(PART, len(word) - PART + 1)]


def _number(key: str, spelt: str) -> int | None:
    """The sense number of a WordNet key spelt with the word ('car.n.01' -> 1), else None."""
    parts = key.rsplit(".", 2)
    if len(parts) == 3 and parts[0].lower() == spelt and parts[2].isdigit():
        return int(parts[2])
    return None


class Slips:
    """The sense slips from each concept, over an index of words built on first use."""

    def __init__(self, senses: Senses):
        self.senses = senses
        self.knowledge = senses.knowledge
        self._index: _Index | None = None
        self._glosses: dict[int, frozenset[str]] = {}

    def _gloss(self, index: int) -> frozenset[str]:
        found = self._glosses.get(index)
        if found is None:
            if len(self._glosses) > 4096:
                self._glosses.clear()
            found = self._glosses[index] = gloss_words(self.knowledge.concept(index).gloss)
        return found

    def index(self) -> _Index:
        """(word -> concepts having it, compound tail -> concepts with a one-word compound
        ending in it, word of two senses or more -> concepts whose gloss uses it, and ->
        concepts with it in their hypernym path within LINEAGE levels)."""
        if self._index is None:
            n = len(self.knowledge)
            words: dict[str, list[int]] = {}
            for i in range(n):
                for w in self.senses.lemmas(i):
                    words.setdefault(w, []).append(i)
            tails: dict[str, list[int]] = {}
            mentions: dict[str, list[int]] = {}
            paths: dict[str, list[int]] = {}
            for i in range(n):
                for w in self.senses.lemmas(i):
                    for rest, tail in splits(w):
                        if tail in words and rest in words:
                            tails.setdefault(tail, []).append(i)
                concept = self.knowledge.concept(i)
                for w in gloss_words(concept.gloss):
                    if len(words.get(w, ())) > 1:
                        mentions.setdefault(w, []).append(i)
                for w in {_word(x) for x in concept.path[:LINEAGE]}:
                    if w in words:
                        paths.setdefault(w, []).append(i)
            self._index = (words, tails, mentions, paths)
        return self._index

    def _sim(self, a: int, b: int) -> float:
        kb = self.knowledge
        return float(np.asarray(kb.vector(a), dtype=np.float32) @ np.asarray(kb.vector(b), dtype=np.float32))

    def _meant(self, of: int, word: str, senses: list[int]) -> int:
        """Of a word's senses, the one a gloss of concept `of` means: the word's first sense
        in the corpus (the lowest WordNet number among keys spelt with it), unless another
        is nearer `of` by MARGIN (or none is numbered): then the nearest."""
        kb = self.knowledge
        sims = kb.vectors(np.asarray(senses, dtype=np.int64)) @ np.asarray(kb.vector(of), dtype=np.float32)
        best = int(np.argmax(sims))
        spelt = word.replace(" ", "_")
        numbered = [(n, j) for j, s in enumerate(senses) if (n := _number(kb.concept(s).key, spelt)) is not None]
        if numbered:
            first = min(numbered)[1]
            if float(sims[best]) - float(sims[first]) <= MARGIN:
                return int(senses[first])
        return int(senses[best])

    def _kind_of_other(self, a: int, b: int) -> bool:
        """Is `b` a kind of another sense of one of `a`'s words (within LINEAGE levels of its
        hypernym path), not nearer `a` than that sense (where the corpus holds it)?"""
        own_a = self.senses.lemmas(a)
        path_a, path_b = tuple(self.knowledge.concept(a).path), tuple(self.knowledge.concept(b).path)
        for p, w in enumerate(path_b[:LINEAGE]):
            if _word(w) in own_a and path_b[p + 1 :] != path_a:
                sense = self._sense_at(path_b, p)
                if sense is None or self._sim(b, sense) > self._sim(b, a):
                    return True
        return False

    def _sense_at(self, path: tuple[str, ...], p: int) -> int | None:
        """The corpus concept at place `p` of a hypernym path (the one whose own path goes on
        as this one does)."""
        for s in self.index()[0].get(_word(path[p]), ()):
            if tuple(self.knowledge.concept(s).path) == path[p + 1 :]:
                return s
        return None

    def of(self, index: int) -> np.ndarray:
        """Concepts a step from `index` reaches only by a sense slip (not kin to it)."""
        if len(self.knowledge) > INDEX_MAX:
            return np.zeros(0, dtype=np.int64)
        words, tails, mentions, paths = self.index()
        kb = self.knowledge
        own = self.senses.lemmas(index)
        found: set[int] = set()
        for w in own:
            for rest, tail in splits(w):  # 'haircut' -> 'cut'
                if rest in words:
                    found.update(words.get(tail, ()))
            found.update(tails.get(w, ()))  # 'cut' -> 'haircut'
        for w in self._gloss(index) - own:  # its gloss's word, in another sense
            senses = words.get(w, [])
            if len(senses) > 1:
                meant = self._meant(index, w, senses)
                found.update(s for s in senses if s != meant)
        for w in own:  # a gloss that uses its word in another sense
            users = [u for u in mentions.get(w, ()) if w not in self.senses.lemmas(u)]
            found.update(u for u in users if self._meant(u, w, words[w]) != index)
        for w in own:  # a kind of another sense of its word ('vehicle (medium)' -> 'taxi')
            found.update(b for b in paths.get(w, ()) if b != index and self._kind_of_other(index, b))
        for w in {_word(x) for x in kb.concept(index).path[:LINEAGE]}:  # and the step back
            found.update(b for b in words.get(w, ()) if b != index and self._kind_of_other(b, index))
        found.discard(index)
        return np.array(sorted(j for j in found if not self.senses._kin(index, j)), dtype=np.int64)

    def is_slip(self, a: int, b: int) -> bool:
        """Is a step between concepts `a` and `b` a sense slip (either way round)?"""
        if a == b or len(self.knowledge) > INDEX_MAX or self.senses._kin(a, b):
            return False
        words = self.index()[0]
        return self._one_way(a, b, words) or self._one_way(b, a, words)

    def _one_way(self, a: int, b: int, words: dict[str, list[int]]) -> bool:
        own_a, own_b = self.senses.lemmas(a), self.senses.lemmas(b)
        if any(rest in words and tail in own_b for w in own_a for rest, tail in splits(w)):
            return True
        for w in (self._gloss(a) - own_a) & own_b:
            senses = words.get(w, [])
            if len(senses) > 1 and self._meant(a, w, senses) != b:
                return True
        return self._kind_of_other(a, b)
