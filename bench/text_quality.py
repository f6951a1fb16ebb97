"""Text-quality figures of a wander, as pure functions (no engine, no corpus):

- template share: facet texts whose skeleton (the text with concept names, quoted
  definitions, domain names and figures masked) is shared with 5% or more of the wander's
  facet texts of the same kind;
- crystals rejected as trivial: the gate found the filling restating a bread or naming
  their category;
- first-lens variety: how many different lenses opened the rumination of the wander's crystals;
- clause share: the share of a kind's texts that say its most common clause (a clause:
  what lies between semicolons, colons and sentence ends, skeleton-masked), wherever in the
  text it stands: a clause that follows every opening is a frame the openings miss.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

SHARED = 0.05  # a skeleton is a template when this share of the texts of its kind has it
_NAME = re.compile(r"(?<!\w)'.+?'(?!\w)")  # 'whale (cetacean)', 'woman's clothing'
_GLOSS = re.compile(r'"[^"]*"')
_FIGURE = re.compile(r"\d+(?:[.,]\d+)*")


def skeleton(text: str, masked_words: Iterable[str] = ()) -> str:
    """The text with quoted names -> N, double-quoted definitions -> G, the given words
    (domain names, say) -> D and figures -> #, lower case, spaces folded."""
    out = _GLOSS.sub("G", text)
    out = _NAME.sub("N", out)
    for w in sorted({w for w in masked_words if w}, key=len, reverse=True):
        out = re.sub(r"(?<!\w)" + re.escape(w) + r"(?!\w)", "D", out, flags=re.I)
    out = _FIGURE.sub("#", out)
    out = re.sub(r"\bD(?:(?:, | and )D)+\b", "D", out)  # a list of domains is one slot
    return " ".join(out.lower().split())


def template_share(texts: Sequence[str], masked_words: Iterable[str] = (), shared: float = SHARED) -> float:
    """Share of the texts whose skeleton at least `shared` of them have (and at least two)."""
    if not texts:
        return 0.0
    words = list(masked_words)
    skeletons = [skeleton(t, words) for t in texts]
    counts = Counter(skeletons)
    floor = max(2, math.ceil(shared * len(texts)))
    return sum(counts[s] >= floor for s in skeletons) / len(texts)


def template_share_by_kind(
    facets: Mapping[str, Sequence[str]], masked_words: Iterable[str] = ()
) -> tuple[float, dict[str, float]]:
    """Per facet kind, and over all texts (each text judged within its own kind)."""
    words = list(masked_words)
    per = {kind: template_share(texts, words) for kind, texts in facets.items()}
    n = sum(len(t) for t in facets.values())
    overall = sum(per[k] * len(t) for k, t in facets.items()) / n if n else 0.0
    return overall, per


def rejected_as_trivial(crystals: Iterable[Mapping]) -> int:
    """Crystals whose gate verdict names a trivial filling (their `validity`)."""
    return sum(any("trivial" in r for r in c.get("hard_failures", ())) for c in crystals)


def first_lenses(ruminations: Iterable[Sequence[Mapping]]) -> list[str]:
    """The lens each rumination opened with."""
    return [steps[0]["lens"] for steps in ruminations if steps]


def first_lens_variety(ruminations: Iterable[Sequence[Mapping]]) -> int:
    return len(set(first_lenses(ruminations)))


_BRACKETED = re.compile(r"\bn \((?:[^()]|\([^()]*\))*\)")
OPENING_WORDS = 6  # a text's opening frame: the first words of its skeleton
WINDOW = 10  # consecutive texts a person reads in a row


def opening(text: str, masked_words: Iterable[str] = (), words: int = OPENING_WORDS) -> str:
    """The text's opening frame: the first words of its skeleton (names, quotes, domains
    masked, and a definition in brackets after a name: "'rock' (material of...)")."""
    return " ".join(_BRACKETED.sub("n (g)", skeleton(text, masked_words)).split()[:words])


def sentence_openings(text: str, masked_words: Iterable[str] = ()) -> set[str]:
    """The opening frame of each of the text's sentences."""
    words = list(masked_words)
    return {opening(s, words) for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()}


def most_alike_in_a_row(
    texts: Sequence[str], masked_words: Iterable[str] = (), window: int = WINDOW, every_sentence: bool = False
) -> tuple[int, str]:
    """The most texts of any WINDOW consecutive ones that open alike (every_sentence: that
    have a sentence opening alike), and that opening."""
    words = list(masked_words)
    frames = [sentence_openings(t, words) if every_sentence else {opening(t, words)} for t in texts]
    best = (0, "")
    for i in range(max(1, len(frames) - window + 1)):
        counts = Counter(f for fs in frames[i : i + window] for f in fs)
        if counts:
            frame, n = counts.most_common(1)[0]
            if n > best[0]:
                best = (n, frame)
    return best


_CLAUSE_BREAK = re.compile(r"[;:]\s+|(?<=[.!?])\s+")


def clauses(text: str, masked_words: Iterable[str] = ()) -> set[str]:
    """The text's clauses, each as a skeleton without its closing stop."""
    words = list(masked_words)
    return {c for c in (skeleton(x, words).rstrip(".!? ") for x in _CLAUSE_BREAK.split(text)) if c}


def most_common_clause(texts: Sequence[str], masked_words: Iterable[str] = ()) -> tuple[float, str]:
    """The share of the texts that say their most common clause, and that clause."""
    if not texts:
        return 0.0, ""
    words = list(masked_words)
    counts = Counter(c for t in texts for c in clauses(t, words))
    if not counts:
        return 0.0, ""
    clause, n = counts.most_common(1)[0]
    return n / len(texts), clause
