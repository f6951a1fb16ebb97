"""IDENTIFIER (004, 3.2.2): bread pairs from the five heuristics (sandwich/heuristics.py), each
candidate named with the heuristic that found it and its evidence; and "no sandwich here"
with the reason when none holds.

Ingredients are the knowledge-base concepts the text mentions (by label, one to three words)
that are also about the text (cosine with the text's embedding), and the phrases a pattern
names (a corpus concept when one has that label or head word, else the phrase embedded).
Breads must be related but not the same idea (cosine in (BREAD_MIN, BREAD_MAX)); the filling
is the one the text names, the concept between them on a corpus chain, or the mentioned
concept closer to each bread than the breads are to each other."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from wander.core.domain.geometry import normalize
from wander.core.domain.sandwich import BREAD_MAX, BREAD_MIN
from wander.core.engine.ports import Knowledge
from wander.core.sandwich.heuristics import HEURISTICS, PERSPECTIVAL, TEXT, Pair, relational, textual
from wander.core.sandwich.model import Ingredient

WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
MIN_RELEVANCE = 0.2  # a mentioned concept must be about the text, not a passing common word
MAX_INGREDIENTS = 24
MAX_TRIPLES = 60
PRECEDENCE = 0.1  # a candidate's strength (1 text, 0.8 corpus relation, 0.5-0.8 domains) x this, added to its margin
TEXT_FILLING = 0.3  # a filling of breads the text names must relate to both at least this much
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
class Candidate:
    """A (bread, filling, bread) one heuristic produced, with what it rests on."""

    bread_top: Ingredient
    filling: Ingredient
    bread_bottom: Ingredient
    heuristic: str
    evidence: str
    strength: float
    margin: float  # how much closer the filling is to each bread than the breads are to each other


@dataclass(frozen=True)
class Identified:
    ingredients: list[Ingredient]
    candidates: list[Candidate]
    pairs: int  # bread pairs found (any heuristic)
    reason: str  # "no sandwich here: ..." (when candidates is empty)
    notes: dict[str, str] = field(default_factory=dict)  # heuristic -> what it found or why not

    @property
    def triples(self) -> list[tuple[Ingredient, Ingredient, Ingredient]]:
        return [(c.bread_top, c.filling, c.bread_bottom) for c in self.candidates]


ARTICLES = {"the", "a", "an", "its", "their", "his", "her", "our", "this", "that", "these", "those", "some"}
Embed = Callable[[list[str]], np.ndarray]


def _cos(a: Ingredient, b: Ingredient) -> float:
    return float(normalize(a.vector) @ normalize(b.vector))


class Identifier:
    def __init__(self, knowledge: Knowledge, embed: Embed | None = None):
        """embed: phrases to vectors, for the phrases a pattern names that are no corpus label
        (without it such phrases are passed over)."""
        self.knowledge = knowledge
        self.embed = embed

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
        return [self._concept(k) for _, k in keep[:MAX_INGREDIENTS]]

    def _concept(self, k: int) -> Ingredient:
        c = self.knowledge.concept(k)
        return Ingredient(k, c.label, tuple(c.domains), self.knowledge.vector(k))

    def _label(self, phrase: str) -> int | None:
        """The concept of a label, or of its singular ('economists' -> 'economist')."""
        idx = self.knowledge.find_label(phrase)
        if idx is None and phrase.endswith("s") and len(phrase) > 4:
            for singular in (phrase[:-1], phrase[:-2] if phrase.endswith("es") else None):
                if singular and (idx := self.knowledge.find_label(singular)) is not None:
                    break
        return idx

    def phrases(self, spans: list[str]) -> dict[str, Ingredient]:
        """Each phrase as an ingredient: the corpus concept of its label or of its head words,
        else (with an embedder) the phrase itself, its domain that of its nearest concept."""
        out: dict[str, Ingredient] = {}
        loose: list[str] = []
        for span in dict.fromkeys(spans):
            words = [w for w in span.lower().split() if w]
            while words and words[0] in ARTICLES:
                words = words[1:]
            if not words:
                continue
            for n in range(min(len(words), 3), 0, -1):
                tail = words[-n:]
                if n == 1 and (tail[0] in STOP or len(tail[0]) < 3):
                    continue
                idx = self._label(" ".join(tail))
                if idx is not None:
                    out[span] = self._concept(idx)
                    break
            else:
                if not (len(words) == 1 and words[0] in STOP):
                    loose.append(span)
        if loose and self.embed is not None:
            for span, v in zip(loose, self.embed(loose)):
                near = self.knowledge.nearest(np.asarray(v, dtype=np.float32), 1)
                domains = tuple(self.knowledge.concept(near[0][0]).domains) if near else ()
                out[span] = Ingredient(-1, " ".join(span.split()).lower(), domains, np.asarray(v, dtype=np.float32))
        return out

    def identify(self, text: str, text_vector: np.ndarray) -> Identified:
        ings = self.mentioned(text, text_vector)
        m = np.stack([normalize(x.vector) for x in ings]) if ings else np.zeros((0, 1), np.float32)
        sim = m @ m.T
        pairs = textual(text) + relational(self.knowledge, ings, lambda i, j: float(sim[i, j]))
        spans = [x for p in pairs for x in (p.a, p.b, p.filling) if isinstance(x, str)]
        named = self.phrases(spans)
        notes = {h: "" for h in HEURISTICS}
        candidates: list[Candidate] = []
        bread_pairs = 0
        for p in pairs:
            a = named.get(p.a) if isinstance(p.a, str) else p.a
            b = named.get(p.b) if isinstance(p.b, str) else p.b
            if a is None or b is None or a.label == b.label:
                notes[p.heuristic] = notes[p.heuristic] or f"{p.evidence}: no concept for a bread"
                continue
            s12 = _cos(a, b)
            if not BREAD_MIN < s12 < BREAD_MAX:
                notes[p.heuristic] = notes[p.heuristic] or (
                    f"{p.evidence}: '{a.label}' and '{b.label}' are "
                    + ("unrelated" if s12 <= BREAD_MIN else "the same idea")
                    + f" (cosine {s12:.2f})"
                )
                continue
            bread_pairs += 1
            found = self._filling(a, b, p, named, ings, m, s12)
            if found is None:
                notes[p.heuristic] = notes[p.heuristic] or (
                    f"{p.evidence}: nothing lies between '{a.label}' and '{b.label}'"
                )
                continue
            f, margin = found
            candidates.append(Candidate(a, f, b, p.heuristic, p.evidence, p.strength, margin))
            notes[p.heuristic] = f"{a.label} / {f.label} / {b.label}"
        # the filling most clearly between its breads first; what the text says outright, then
        # what the corpus's relations say, a little ahead of a mere pair of domains
        candidates.sort(key=lambda c: c.margin + PRECEDENCE * c.strength, reverse=True)
        candidates = candidates[:MAX_TRIPLES]
        if candidates:
            return Identified(ings, candidates, bread_pairs, "", notes)
        return Identified(ings, [], bread_pairs, no_sandwich(len(ings), bread_pairs, notes), notes)

    def _filling(
        self,
        a: Ingredient,
        b: Ingredient,
        p: Pair,
        named: dict[str, Ingredient],
        ings: list[Ingredient],
        m: np.ndarray,
        s12: float,
    ) -> tuple[Ingredient, float] | None:
        """The filling the text or the corpus names, else the mentioned concept most clearly
        between the breads (closer to each than they are to each other). m: the mentioned
        concepts' unit vectors."""
        explicit = named.get(p.filling) if isinstance(p.filling, str) else p.filling
        if explicit is not None and explicit.label not in (a.label, b.label):
            return explicit, min(_cos(a, explicit), _cos(explicit, b)) - s12
        if not ings:
            return None
        near = np.minimum(m @ normalize(a.vector), m @ normalize(b.vector))
        for i, f in enumerate(ings):
            if f.label in (a.label, b.label):
                near[i] = -np.inf
        best = int(np.argmax(near))
        margin = float(near[best]) - s12
        # Between the breads: closer to each than they are to each other. Where the text
        # itself names the breads, a filling related to both (cosine > TEXT_FILLING) is put to
        # the validator, whose containment score says how well it is bounded.
        if margin > 0 or (p.strength >= TEXT and near[best] > TEXT_FILLING):
            return ings[best], margin
        return None


def no_sandwich(concepts: int, pairs: int, notes: dict[str, str]) -> str:
    """'no sandwich here' and why, heuristic by heuristic."""
    why = []
    for h in HEURISTICS:
        if notes.get(h):
            why.append(f"{h}: {notes[h]}")
        elif h == PERSPECTIVAL:
            why.append(f"{h}: no two of the {concepts} concepts from different domains related without being one idea")
        else:
            why.append(f"{h}: none in the text or among its concepts")
    head = (
        f"no sandwich here ({concepts} concept(s) of the knowledge base, {pairs} bread pair(s))"
        if pairs
        else f"no sandwich here: no bread pair among {concepts} concept(s) of the knowledge base"
    )
    return head + "; " + "; ".join(why)
