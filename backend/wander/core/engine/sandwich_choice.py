"""Which sandwich a crystal is made of (004): two bread loci near the stimulus, apart enough
for something to stand between them, and the corpus concept that stands between them best
(the filling), weighed by the V their concepts promise before any words are written."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import snowballstemmer

from wander.core.domain import sandwich
from wander.core.domain.geometry import midpoint, normalize
from wander.core.domain.models import Locus
from wander.core.engine import crystal_structure
from wander.core.engine.ports import Knowledge
from wander.core.engine.walk import Walk

MAX_BREAD_POOL = 12
BREAD_CHOICE = 10  # the breads are a pair among the loci this near the stimulus
BREAD_APART = (0.35, 0.55)  # bread similarity that leaves room for a filling
CANDIDATE_PAIRS = 45  # bread pairs (in order) whose sandwiches are weighed against each other
FILLINGS_WEIGHED = 3  # ... each with this many of its best fillings
FILLING_CHOICES = 16  # concepts nearest the breads' midpoint that a filling is chosen among
REWORK_POOL = 20  # a second try (the first not accepted) looks for breads among this many loci nearest the stimulus
REWORK_PAIRS = 12  # ... and weighs the sandwiches of this many sound bread pairs
# The gate judges up to this many different sound sandwiches at each crystallization. Not
# more: the deeper candidates promise less, so tasting deeper only lowers the share the gate
# accepts (5 took information asymmetry #2 at 300 steps from 12/25 to 9/38 accepted).
TASTED = 3
_STEMMER = snowballstemmer.stemmer("english")
# a candidate sandwich: its two bread loci, the corpus concepts they are, and the filling concept
Sandwich = tuple[Locus, Locus, int, int, int]
NamesAlike = Callable[[Sandwich], "str | None"]  # why a sandwich's names say a word again, or None


def bread_pool(walk: Walk, vector: np.ndarray) -> list[Locus]:
    """The loci nearest the stimulus (the seed excluded): what the sandwich's bread comes from."""
    loci = [lo for lo in walk.loci if str(lo.source_type) != "SEED"]
    loci.sort(key=lambda lo: -float(normalize(lo.embedding) @ vector))
    return loci[:MAX_BREAD_POOL]


def candidate_sandwiches(
    walk: Walk, pool: list[Locus], vector: np.ndarray, said: set[tuple[frozenset, str | None]]
) -> list[Sandwich]:
    """The sandwich is chosen by what it is about (the pair of loci near the stimulus that
    frames it best, and the corpus concept nearest their midpoint), never by its V: the gate
    then judges it, so V says something. A sandwich already formed (same breads, same
    filling) is passed over for the next best pair.

    Pairs no crystal has joined yet come first (the same two breads with another filling
    mostly says the same thing again); among those, pairs a filling can stand between
    (related, yet apart enough that something sits between them: BREAD_APART) come first,
    and among them breads of one kind that relate on their own (crystal_structure.sound);
    then the rest, each by its midpoint's nearness to the stimulus."""
    joined = {breads for breads, _ in said}
    kb = walk.knowledge

    def unsound(p: tuple[Locus, Locus]) -> bool:  # breads of different kinds, or unrelated
        s12 = float(normalize(p[0].embedding) @ normalize(p[1].embedding))
        return not crystal_structure.sound(kb, anchor(kb, p[0]), anchor(kb, p[1]), s12)

    pairs = sorted(
        itertools.combinations(pool[:BREAD_CHOICE], 2),
        key=lambda p: (
            frozenset((p[0].id, p[1].id)) in joined,
            not BREAD_APART[0] <= float(normalize(p[0].embedding) @ normalize(p[1].embedding)) <= BREAD_APART[1],
            unsound(p),
            -float(midpoint(p[0].embedding, p[1].embedding) @ vector),
        ),
    )
    used = frozenset(f for _, f in said)
    candidates = []
    for b1, b2 in pairs:
        a1, a2 = anchor(kb, b1), anchor(kb, b2)
        for f_i in fillings(kb, walk, b1, b2, a1, a2, used)[:FILLINGS_WEIGHED]:
            if (frozenset((b1.id, b2.id)), kb.concept(f_i).label) not in said:
                candidates.append((b1, b2, a1, a2, f_i))
    return candidates


def rework_candidates(
    walk: Walk,
    vector: np.ndarray,
    said: set[tuple[frozenset, str | None]],
    evidence: dict[str, dict[str, Any]],
) -> list[Sandwich]:
    """Sandwiches for a second try once the gate did not accept the first, drawn with what the
    rumination found: breads among a wider pool (the REWORK_POOL loci nearest the stimulus
    and every locus the rumination's lenses returned), only pairs of one kind that relate on
    their own (crystal_structure.sound) and leave room for a filling (bread similarity within
    the gate's band), the nearest the stimulus first (at most REWORK_PAIRS of them); each with
    its best fillings and with the concepts the rumination's resonances name (the themes the
    walk keeps returning to). A pair or a sandwich formed already is passed over."""
    kb = walk.knowledge
    loci = [lo for lo in walk.loci if str(lo.source_type) != "SEED"]
    loci.sort(key=lambda lo: -float(normalize(lo.embedding) @ vector))
    pool = loci[:REWORK_POOL]
    ids = {lo.id for lo in pool}
    for i, e in evidence.items():
        lo = walk.by_id.get(i) if e.get("type") == "locus" else None
        if lo is not None and lo.id not in ids and str(lo.source_type) != "SEED":
            pool.append(lo)
            ids.add(lo.id)
    named = [
        kb.find_label(t.strip())
        for e in evidence.values()
        if e.get("type") == "resonance"
        for t in str(e.get("summary") or "").split(",")
    ]
    themes = [i for i in dict.fromkeys(named) if i is not None]
    joined = {breads for breads, _ in said}
    used = frozenset(f for _, f in said)
    pairs = sorted(
        (p for p in itertools.combinations(pool, 2) if frozenset((p[0].id, p[1].id)) not in joined),
        key=lambda p: -float(midpoint(p[0].embedding, p[1].embedding) @ vector),
    )
    out: list[Sandwich] = []
    sound_pairs = 0
    for b1, b2 in pairs:
        s12 = float(normalize(b1.embedding) @ normalize(b2.embedding))
        if not sandwich.BREAD_MIN < s12 < sandwich.BREAD_MAX:
            continue
        a1, a2 = anchor(kb, b1), anchor(kb, b2)
        if a1 == a2 or not crystal_structure.sound(kb, a1, a2, s12):
            continue
        mine = fillings(kb, walk, b1, b2, a1, a2, used)[:FILLINGS_WEIGHED]
        for f_i in [*mine, *(t for t in themes if t not in (a1, a2) and t not in mine)]:
            if (frozenset((b1.id, b2.id)), kb.concept(f_i).label) not in said:
                out.append((b1, b2, a1, a2, f_i))
        sound_pairs += 1
        if sound_pairs == REWORK_PAIRS:
            break
    return out


def substance(b1: np.ndarray, filling: np.ndarray, b2: np.ndarray) -> np.ndarray:
    """What a sandwich is about: the mean of its three concepts' unit vectors, unit length."""
    return normalize(normalize(b1) + normalize(filling) + normalize(b2))


def rows(vectors: list[np.ndarray], dim: int) -> np.ndarray:
    """Unit rows to compare with (an empty matrix for none)."""
    if not vectors:
        return np.zeros((0, dim), dtype=np.float32)
    return normalize(np.stack(vectors))


def _filling(
    kb: Knowledge, walk: Walk, b1: Locus, b2: Locus, a1: int, a2: int, used: frozenset[str | None] = frozenset()
) -> int:
    """The best filling of `fillings`."""
    return fillings(kb, walk, b1, b2, a1, a2, used)[0]


def fillings(
    kb: Knowledge, walk: Walk, b1: Locus, b2: Locus, a1: int, a2: int, used: frozenset[str | None] = frozenset()
) -> list[int]:
    """Filling candidates, best first: the corpus concept nearest both breads (the highest
    of its lower similarity to the two) first: the concept nearest their midpoint alone is often much nearer one bread than the
    other, which makes it a restatement of that bread, not what stands between them. Taken
    among the FILLING_CHOICES concepts nearest the midpoint that are not another sense of a
    bread's word (nor says one again: a stem of it begins one of theirs, or one of theirs
    begins its) nor a bread's broader concept; where there is a choice, one this wander's
    crystals have not used already (`used`: filling labels) and the walk has not met."""
    near = kb.nearest(midpoint(b1.embedding, b2.embedding), FILLING_CHOICES, exclude=[a1, a2])
    bread_words = {_lemma(kb, a1).lower(), _lemma(kb, a2).lower(), b1.concept.lower(), b2.concept.lower()}
    bread_stems = set().union(*(word_stems(w.split(" (")[0]) for w in bread_words))
    fresh = [
        i
        for i, _ in near
        if _lemma(kb, i).lower() not in bread_words and not stems_meet(word_stems(_lemma(kb, i)), bread_stems)
    ]
    apt = [i for i in fresh if not (in_lineage(kb, i, a1) or in_lineage(kb, i, a2))]
    # a filling that only names the breads' category, or one of the corpus's most abstract
    # concepts, is the last resort
    apt = [
        i
        for i in apt
        if crystal_structure.triviality(kb, i, a1, a2) is None and not crystal_structure.is_abstract(kb, i)
    ] or apt
    unused = [i for i in apt if kb.concept(i).label not in used]
    choice = [i for i in unused if not walk.visited_mask[i]] or unused or apt or fresh or [near[0][0]]
    v1, v2 = normalize(b1.embedding), normalize(b2.embedding)
    both = kb.vectors(np.asarray(choice, dtype=np.int64)) @ np.stack([v1, v2]).T
    order = np.argsort(-both.min(axis=1), kind="stable")  # the first (nearest the midpoint) of equals
    return [choice[int(k)] for k in order]


def ranked(
    kb: Knowledge, candidates: list[Sandwich], accepted: np.ndarray, alike: NamesAlike | None = None
) -> tuple[list[Sandwich], int]:
    """The candidate sandwiches (breads, their anchors, filling), those with no hard failure
    first, each part by the verdict then the V its concepts promise, as the crystal is the
    best verdict then the highest V (among equals the earlier candidate), and
    how many of the first are sound (no hard failure promised). `alike` says why a
    sandwich's names say a word again (crystal_structure.names_alike), when names are read."""

    def promise(c: Sandwich) -> tuple[bool, bool, float]:
        val = promised(kb, c, accepted, alike)
        return (not val.hard_failures(), val.verdict == "accepted", val.v)

    scored = sorted(((promise(c), -n) for n, c in enumerate(candidates)), reverse=True)
    return [candidates[-n] for _, n in scored], sum(sound for (sound, _, _), _ in scored)


def promised(kb: Knowledge, c: Sandwich, accepted: np.ndarray, alike: NamesAlike | None = None) -> sandwich.Validity:
    """The gate's verdict and V a sandwich's concepts promise before any words are written
    (its filling concept as the filling; novelty by substance against the accepted)."""
    b1, b2, a1, a2, f_i = c
    lineage = in_lineage(kb, f_i, a1) or in_lineage(kb, f_i, a2)
    shape = crystal_structure.structure(kb, f_i, a1, a2, b1.embedding, b2.embedding)
    if alike is not None:
        shape = dataclasses.replace(shape, names_alike=alike(c))
    val = sandwich.validity(b1.embedding, kb.vector(f_i), b2.embedding, accepted, lineage, shape)
    mine = substance(b1.embedding, kb.vector(f_i), b2.embedding)
    return dataclasses.replace(val, novelty=sandwich.novelty(mine, accepted))


def best(kb: Knowledge, candidates: list[Sandwich], accepted: np.ndarray, alike: NamesAlike | None = None) -> Sandwich:
    """The candidate with no hard failure and the best promised verdict, then V; the first
    candidate where none is sound."""
    return ranked(kb, candidates, accepted, alike)[0][0]


def tasting(kb: Knowledge, order: list[Sandwich], sound: int, n: int = TASTED) -> list[Sandwich]:
    """What the gate tastes: the first of `order` (ranked), then up to n - 1 more among its
    first `sound` (those that promise no broken rule: one the gate would turn down before a
    word is written says nothing of it), each sharing neither its two breads nor its filling
    with one taken before (not one pair of breads with its next fillings)."""
    return filled_tasting(kb, order[:1], order[1:sound], n)


def filled_tasting(kb: Knowledge, taken: list[Sandwich], more: list[Sandwich], n: int = TASTED) -> list[Sandwich]:
    """`taken`, then the first of `more` in order (up to n in all) that share neither their
    two breads nor their filling with one taken before."""
    out = list(taken)
    pairs = {frozenset((c[0].id, c[1].id)) for c in out}
    labels = {kb.concept(c[4]).label for c in out}
    for c in more:
        if len(out) >= n:
            break
        pair, label = frozenset((c[0].id, c[1].id)), kb.concept(c[4]).label
        if pair in pairs or label in labels:
            continue
        out.append(c)
        pairs.add(pair)
        labels.add(label)
    return out


def widened(
    kb: Knowledge,
    picks: list[Sandwich],
    weighed: list[Sandwich],
    wider: list[Sandwich],
    accepted: np.ndarray,
    alike: NamesAlike | None = None,
    n: int = TASTED,
) -> list[Sandwich]:
    """The tasting (`picks`, from the `weighed` sandwiches of the loci nearest the stimulus)
    filled up to n from `wider`, the pool a second try draws on (rework_candidates): its sound
    sandwiches not weighed already, best promise first, each different from those taken. Where
    the nearest loci offer fewer than n different sound sandwiches (early in a walk, or in a
    thin neighbourhood: 177 of the 330 crystallizations of 84 wanders of 100 steps tasted one
    or two) the crystal is weighed against as many as any other (then 104 of 330: the wider
    pool has no more). The nearest pool's own come first, whatever the wider one promises."""
    seen = {said_key(kb, c) for c in weighed}
    fresh = [c for c in wider if said_key(kb, c) not in seen]
    order, sound = ranked(kb, fresh, accepted, alike)
    return filled_tasting(kb, picks, order[:sound], n)


def said_key(kb: Knowledge, c: Sandwich) -> tuple[frozenset, str]:
    """What makes a sandwich the same sandwich: its two bread loci and its filling's label."""
    return frozenset((c[0].id, c[1].id)), kb.concept(c[4]).label


def word_stems(text: str) -> set[str]:
    """The stems of a name's words of four letters or more: 'film making' and 'filming' share
    'film', so the one only restates the other."""
    return set(_stems(text))


@functools.lru_cache(maxsize=65_536)
def _stems(text: str) -> frozenset[str]:
    """word_stems, once per name: every crystallization stems the same corpus labels again."""
    words = [w for w in re.findall(r"[a-z]+", text.lower()) if len(w) >= 4]
    return frozenset(_STEMMER.stemWords(words))


def stems_meet(one: set[str], other: set[str]) -> bool:
    """A stem of the one begins a stem of the other: 'businessperson' says the 'business' of
    'computer business' again, 'weakness' the 'weakening' (stems 'weak', 'weaken')."""
    return any(a.startswith(b) or b.startswith(a) for a in one for b in other)


def anchor(kb: Knowledge, locus: Locus) -> int:
    """The corpus concept a locus is (or the nearest one)."""
    i = kb.index_of(locus.kb_key) if locus.kb_key else None
    return i if i is not None else kb.nearest(locus.embedding, 1)[0][0]


def _lemma(kb: Knowledge, i: int) -> str:
    return kb.concept(i).label.split(" (")[0]


def in_lineage(kb: Knowledge, filling: int, bread: int) -> bool:
    """The filling is one of the bread's broader concepts (or the bread one of its own)."""
    f, b = kb.concept(filling), kb.concept(bread)
    return (
        _lemma(kb, filling) in b.path
        or _lemma(kb, bread) in f.path
        or _lemma(kb, filling).lower() == _lemma(kb, bread).lower()
    )
