"""The structural side of the sandwich gate, read off the corpus (the reuben project's three
constraints, and what makes a filling trivial):

- trivial filling: a hypernym shared by both breads within three levels ("food" for trout and
  shellfish), a broader or narrower concept of either bread, one more member of the
  breads' shared category ("freshwater fish" for trout and shellfish: it only names their
  kind again), or a sister of a bread (one more kind of what a bread is a kind of:
  "athlete" beside "player", both contestants);
- names alike: the filling's name reads as a bread's ("degradation" between "deterioration"
  and "weakening"), or the breads' names read as one another: a reader takes the one for
  the other, so the sandwich only says a word again;
- specificity: no ingredient is among the corpus's most abstract concepts;
- structural homology: the breads are the same kind of thing (a common ancestor within a
  few levels, or the same lexical domain: both acts, both artifacts...);
- independent bread relationship (the bread test): the breads relate without the filling,
  by a corpus relation, a close kinship, a definition naming the other, or a similarity
  that holds on its own.

The facts go to domain.sandwich.validity, which turns them into hard failures."""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable

import numpy as np

from wander.core.domain.geometry import normalize
from wander.core.domain.sandwich import Structure
from wander.core.domain.themes import degenerate_labels
from wander.core.engine.ports import Knowledge
from wander.core.engine.themes import corpus_paths, degenerate_themes

CATEGORY_LEVELS = 3  # a shared hypernym this near both breads names their category
HOMOLOGY_LEVELS = 6  # breads with a common ancestor this near are the same kind of thing
KIN_LEVELS = 3  # ... this near, they relate by kind without the filling
BREAD_ALONE = 0.4  # a bread similarity that holds on its own
NAMES_ALIKE = 0.7  # names (their lemmas' embeddings) this similar: a reader takes the one for the other
ABSTRACT_SHARE = 0.005  # an ancestor of this share of the corpus is among its most abstract concepts
ABSTRACT_DEPTH = 3  # ... as is a concept this near the root

_ABSTRACT: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def most_abstract(kb: Knowledge) -> frozenset[str]:
    """Lemmas (lower case) of the corpus's most abstract concepts: ancestors of at least
    ABSTRACT_SHARE of the corpus."""
    try:
        return _ABSTRACT[kb]
    except KeyError:
        labels = degenerate_labels(corpus_paths(kb), ABSTRACT_SHARE)
        _ABSTRACT[kb] = labels
        return labels


def names(text: str, word: str) -> bool:
    """The text uses the word (whole words, any case, a plural allowed)."""
    if len(word) < 3:
        return False
    return re.search(r"(?<![\w-])" + re.escape(word.lower()) + r"(?:e?s)?(?![\w-])", text.lower()) is not None


def lemma(kb: Knowledge, i: int) -> str:
    return kb.concept(i).label.split(" (")[0]


def _ancestors(kb: Knowledge, i: int, levels: int) -> dict[str, int]:
    """Hypernym names up to `levels` above a concept -> distance; the corpus's relations when
    the knowledge base has them (every hypernym), else the concept's path."""
    if hasattr(kb, "ancestors") and hasattr(kb, "lemma_of"):
        out: dict[str, int] = {}
        for key, d in kb.ancestors(i, levels).items():
            name = kb.lemma_of(key)
            if name is not None:
                out.setdefault(name, d)
        if out or not kb.concept(i).path:
            return out
    return {p: d + 1 for d, p in enumerate(kb.concept(i).path[:levels])}


def is_abstract(kb: Knowledge, i: int) -> bool:
    c = kb.concept(i)
    return lemma(kb, i).lower() in most_abstract(kb) or (bool(c.path) and len(c.path) <= ABSTRACT_DEPTH)


def triviality(kb: Knowledge, filling: int, a1: int, a2: int) -> str | None:
    """Why a filling is trivial for these breads, or None."""
    f = lemma(kb, filling)
    degenerate = degenerate_themes(kb)
    up1, up2 = _ancestors(kb, a1, CATEGORY_LEVELS), _ancestors(kb, a2, CATEGORY_LEVELS)
    category = {x for x in up1 if x in up2 and x.lower() not in degenerate}
    if f in category:
        return f"the filling '{f}' is the breads' shared broader concept"
    for b in (a1, a2):
        bl = lemma(kb, b)
        if f in kb.concept(b).path or bl in kb.concept(filling).path or f.lower() == bl.lower():
            return f"the filling '{f}' is a broader or narrower concept of '{bl}'"
    mine = _ancestors(kb, filling, CATEGORY_LEVELS)
    named = sorted(x for x in mine if x in category)
    if named:
        return f"the filling '{f}' is one more kind of '{named[0]}', the breads' own category"
    parents = {x for x, d in mine.items() if d == 1 and x.lower() not in degenerate}
    for b, up in ((a1, up1), (a2, up2)):
        shared = sorted(x for x, d in up.items() if d == 1 and x in parents)
        if shared:
            return f"the filling '{f}' is one more kind of '{shared[0]}', as '{lemma(kb, b)}' is"
    return None


def names_alike(kb: Knowledge, filling: int, a1: int, a2: int, name_vector: Callable[[str], np.ndarray]) -> str | None:
    """Why the sandwich's names say a word again, or None: the filling's name reads as a
    bread's, or the breads' names as one another (their lemmas' embeddings NAMES_ALIKE or
    more similar; `name_vector` embeds a name). The corpus's hypernyms miss these: near
    synonyms sit in separate branches ("degradation", "deterioration")."""
    f, l1, l2 = lemma(kb, filling), lemma(kb, a1), lemma(kb, a2)
    v = {x: normalize(np.asarray(name_vector(x), dtype=np.float32)) for x in (f, l1, l2)}
    for b in (l1, l2):
        s = float(v[f] @ v[b])
        if s >= NAMES_ALIKE:
            return f"the filling '{f}' reads as '{b}' (names {s:.2f} alike)"
    s = float(v[l1] @ v[l2])
    if s >= NAMES_ALIKE:
        return f"the breads '{l1}' and '{l2}' read as one another (names {s:.2f} alike)"
    return None


def bread_relation(kb: Knowledge, a1: int, a2: int, similarity: float) -> str | None:
    """How the breads relate without the filling, or None (the bread test fails):
    'relation:<kind>' (a corpus relation from the first to the second, or 'relation_back'
    from the second to the first), 'opposites', 'kin:<shared broader concept>',
    'kind_of:first' (the first is a kind of the second) or 'kind_of:second', 'gloss'
    (one's definition names the other) or 'similar' (near in meaning on their own)."""
    l1, l2 = lemma(kb, a1), lemma(kb, a2)
    if hasattr(kb, "relations_between"):
        kinds = [k for k in kb.relations_between(a1, a2) if k != "antonyms"]
        if kinds:
            return f"relation:{kinds[0]}"
        back = [k for k in kb.relations_between(a2, a1) if k != "antonyms"]
        if back:
            return f"relation_back:{back[0]}"
    if a2 in kb.opposites(a1) or a1 in kb.opposites(a2):
        return "opposites"
    up1, up2 = _ancestors(kb, a1, KIN_LEVELS), _ancestors(kb, a2, KIN_LEVELS)
    degenerate = degenerate_themes(kb)
    if l2 in up1 or l1 in up2:  # one is a kind of the other
        return "kind_of:first" if l2 in up1 else "kind_of:second"
    kin = [x for x in up1 if x in up2 and x.lower() not in degenerate]
    if kin:
        return "kin:" + min(kin, key=lambda x: up1[x] + up2[x])
    if names(kb.concept(a1).gloss, l2) or names(kb.concept(a2).gloss, l1):
        return "gloss"
    if similarity >= BREAD_ALONE:
        return "similar"
    return None


def _role(kb: Knowledge, i: int) -> str:
    return kb.relations(i).verb_role if hasattr(kb, "relations") else ""


def homologous(kb: Knowledge, a1: int, a2: int) -> bool:
    """The same kind of thing: the same lexical domain, the same role toward a verb (both
    doers, both instruments, both acts), or a common ancestor within HOMOLOGY_LEVELS."""
    c1, c2 = kb.concept(a1), kb.concept(a2)
    if c1.domains[:1] and c1.domains[:1] == c2.domains[:1]:
        return True
    r1 = _role(kb, a1)
    if r1 and r1 != "related" and r1 == _role(kb, a2):
        return True
    degenerate = degenerate_themes(kb)
    up1, up2 = _ancestors(kb, a1, HOMOLOGY_LEVELS), _ancestors(kb, a2, HOMOLOGY_LEVELS)
    return any(x in up2 and x.lower() not in degenerate for x in up1)


def sound(kb: Knowledge, a1: int, a2: int, similarity: float) -> bool:
    """Breads that can carry a sandwich: the same kind of thing, related on their own."""
    return homologous(kb, a1, a2) and bread_relation(kb, a1, a2, similarity) is not None


def structure(kb: Knowledge, filling: int, a1: int, a2: int, b1: np.ndarray, b2: np.ndarray) -> Structure:
    """The structural facts of a sandwich of corpus concepts (breads a1, a2 as their loci's
    embeddings b1, b2 are near them)."""
    similarity = float(normalize(b1) @ normalize(b2))
    return Structure(
        trivial=triviality(kb, filling, a1, a2),
        abstract=tuple(lemma(kb, i) for i in (a1, filling, a2) if is_abstract(kb, i)),
        homologous=homologous(kb, a1, a2),
        bread_relation=bread_relation(kb, a1, a2, similarity),
    )
