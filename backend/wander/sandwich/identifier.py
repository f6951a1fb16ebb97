"""IDENTIFIER (004, 3.2.2): the candidate ingredients of a text are the knowledge-base concepts
it mentions (by label, one to three words) that are also about the text (cosine with the
text's embedding); bread pairs are two of them related but not the same idea; fillings are
mentioned concepts closer to each bread than the breads are to each other."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from wander.domain.geometry import normalize
from wander.domain.sandwich import BREAD_MAX, BREAD_MIN
from wander.engine.ports import Knowledge
from wander.sandwich.model import Ingredient

WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
MIN_RELEVANCE = 0.2  # a mentioned concept must be about the text, not a passing common word
MAX_INGREDIENTS = 24
MAX_TRIPLES = 60
STOP = {
    "a",
    "an",
    "the",
    "and",
    "or",
    "but",
    "if",
    "of",
    "to",
    "in",
    "on",
    "at",
    "by",
    "for",
    "with",
    "from",
    "as",
    "is",
    "are",
    "was",
    "were",
    "be",
    "been",
    "being",
    "it",
    "its",
    "this",
    "that",
    "these",
    "those",
    "which",
    "who",
    "whom",
    "whose",
    "what",
    "when",
    "where",
    "why",
    "how",
    "not",
    "no",
    "nor",
    "so",
    "than",
    "too",
    "very",
    "can",
    "will",
    "just",
    "also",
    "into",
    "out",
    "up",
    "down",
    "over",
    "under",
    "again",
    "further",
    "then",
    "once",
    "here",
    "there",
    "all",
    "any",
    "both",
    "each",
    "few",
    "more",
    "most",
    "other",
    "some",
    "such",
    "only",
    "own",
    "same",
    "one",
    "two",
    "three",
    "first",
    "second",
    "new",
    "old",
    "way",
    "thing",
    "things",
    "part",
    "kind",
    "sort",
    "lot",
    "use",
    "used",
    "make",
    "made",
    "time",
    "year",
    "years",
    "day",
    "days",
    "people",
    "man",
    "men",
    "woman",
    "women",
    "case",
    "point",
    "fact",
    "number",
    "group",
}


@dataclass(frozen=True)
class Identified:
    ingredients: list[Ingredient]
    triples: list[tuple[Ingredient, Ingredient, Ingredient]]  # (bread_top, filling, bread_bottom)
    pairs: int  # bread pairs found
    reason: str  # why nothing (when triples is empty)


class Identifier:
    def __init__(self, knowledge: Knowledge):
        self.knowledge = knowledge

    def mentioned(self, text: str, text_vector: np.ndarray) -> list[Ingredient]:
        words = [w.lower().strip("'-") for w in WORD.findall(text)]
        found: dict[int, int] = {}
        i = 0
        while i < len(words):
            for n in (3, 2, 1):
                gram = words[i : i + n]
                if len(gram) < n or (n == 1 and (gram[0] in STOP or len(gram[0]) < 4)):
                    continue
                idx = self.knowledge.find_label(" ".join(gram))
                if idx is not None:
                    found.setdefault(idx, n)
                    break
            i += 1
        if not found:
            return []
        ids = np.array(list(found), dtype=np.int64)
        rel = self.knowledge.vectors(ids) @ normalize(text_vector)
        keep = [(float(r), int(k)) for r, k in zip(rel, ids) if r >= MIN_RELEVANCE]
        keep.sort(reverse=True)
        out = []
        for _, k in keep[:MAX_INGREDIENTS]:
            c = self.knowledge.concept(k)
            out.append(Ingredient(k, c.label, tuple(c.domains), self.knowledge.vector(k)))
        return out

    def identify(self, text: str, text_vector: np.ndarray) -> Identified:
        ings = self.mentioned(text, text_vector)
        if len(ings) < 2:
            return Identified(ings, [], 0, f"{len(ings)} concept(s) of the knowledge base in the text: no bread pair")
        m = np.stack([normalize(x.vector) for x in ings])
        sim = m @ m.T
        pairs = [(a, b) for a in range(len(ings)) for b in range(a + 1, len(ings)) if BREAD_MIN < sim[a, b] < BREAD_MAX]
        if not pairs:
            return Identified(
                ings,
                [],
                0,
                f"{len(ings)} concepts, but no two related without being the same idea "
                f"(cosine in ({BREAD_MIN}, {BREAD_MAX}))",
            )
        triples = []
        for a, b in pairs:
            for f in range(len(ings)):
                if f not in (a, b) and min(sim[a, f], sim[f, b]) > sim[a, b]:
                    triples.append((float(min(sim[a, f], sim[f, b]) - sim[a, b]), a, f, b))
        if not triples:
            return Identified(
                ings, [], len(pairs), f"{len(pairs)} bread pairs, but no mentioned concept lies between any of them"
            )
        triples.sort(reverse=True)
        return Identified(ings, [(ings[a], ings[f], ings[b]) for _, a, f, b in triples[:MAX_TRIPLES]], len(pairs), "")
