"""How a text opens, and which of several true texts to say: the first whose sentences do not
open as LIMIT recent texts of its kind did (a writer who has opened three paragraphs alike
opens the fourth another way). The offline facets (adapters/llm/offline_facets/variety.py)
and the offline crystal insight (crystal_text.py) both choose by it."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

LIMIT = 3  # at most this many of any ten consecutive texts of one facet open alike
OPENING_WORDS = 6  # an opening: the first words, concept names and definitions masked
SEEN_LIMIT = 20_000  # sentences whose openings a Masker remembers (then it starts afresh)

_GLOSS = re.compile(r'"[^"]*"')
SENTENCE = re.compile(r"(?<=[.!?])\s+")
_NAME = re.compile(r"(?<!\w)'.+?'(?!\w)")
_NAMED = re.compile(r"\bN \((?:[^()]|\([^()]*\))*\)")


class Masker:
    """Masks the words that vary from pair to pair (quoted names and definitions, domain
    names, figures), so that what remains is the construction."""

    def __init__(self, words: Iterable[str] = ()):
        ws = sorted({w for w in words if w}, key=len, reverse=True)
        self._words = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(w) for w in ws) + r")(?!\w)", re.I) if ws else None
        # Each step masks the sentences of the last WINDOW steps' texts again (variety.py), with
        # an alternation of every domain word: a fifth of a step's CPU, remembered instead.
        self._seen: dict[str, str] = {}

    def opening(self, text: str) -> str:
        out = self._seen.get(text)
        if out is None:
            if len(self._seen) >= SEEN_LIMIT:
                self._seen.clear()
            out = self._seen[text] = self._mask(text)
        return out

    def _mask(self, text: str) -> str:
        out = _NAME.sub("N", _GLOSS.sub("G", text))
        out = _NAMED.sub("N (G)", out)  # a name's gloss in brackets: 'rock' (material consisting of...)
        if self._words is not None:
            out = self._words.sub("D", out)
        out = re.sub(r"\d+", "#", out)
        out = re.sub(r"\bD(?:(?:, | and )D)+\b", "D", out)  # a list of domains is one slot
        return " ".join(out.lower().split()[:OPENING_WORDS])

    def openings(self, text: str) -> list[str]:
        """The opening of each of the text's sentences."""
        return [self.opening(s) for s in SENTENCE.split(text) if s.strip()]


def worn(text: str, used: Counter[str], masker: Masker) -> int:
    """How often the most used of the text's sentence openings was used."""
    return max((used[o] for o in masker.openings(text)), default=0)


def choose(options: Sequence[str], used: Counter[str], masker: Masker, shorten: bool = False) -> str:
    """The first option none of whose sentences opens as LIMIT recent texts of its facet
    did; else (SHORTEN) the sentences not worn out of the first option that has any, said alone (a
    writer with nothing fresh to open a fact with leaves that fact out rather than open a
    fourth paragraph alike); else the least worn (the first of those)."""
    if not options:
        return ""
    for text in options:
        if worn(text, used, masker) < LIMIT:
            return text
    if shorten:
        for text in options:
            kept = [s for s in SENTENCE.split(text) if s.strip() and worn(s, used, masker) < LIMIT]
            if kept:
                return " ".join(kept)
    return min(options, key=lambda t: worn(t, used, masker))
