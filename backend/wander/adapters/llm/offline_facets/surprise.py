"""The surprise facet: how near the pair is in meaning set against their kinship (kin), or
what lies between and what ties them (strangers), with the evidence the corpus gives; the
most unexpected of what holds leads (opposites, a stated relation, a return)."""

from __future__ import annotations

from wander.adapters.llm.offline_facets.clauses import Clause, arrangements, where_between
from wander.adapters.llm.offline_facets.facts import PairFacts
from wander.adapters.llm.offline_facets.words import domains, q, relation, shared, times
from wander.core.engine.ports import Knowledge


def surprise(kb: Knowledge, f: PairFacts) -> list[str]:
    A, B = q(f.a.name), q(f.b.name)
    m = q(kb.concept(f.middle).label)
    if f.kin:
        text, evidence = _kin_surprise(f, A, B), _kin_evidence(f)
    else:
        text, evidence = _stranger_surprise(f, A, B, m), _stranger_evidence(f)
    if not evidence and f.kinds is not None and f.kinds_sim is not None:
        evidence = _against_kinds(f.sim, f.kinds, f.kinds_sim)
    elif not evidence and not f.mediated:
        evidence = (
            f"even {m} is farther from each than they are from one another",
            f"not even {m} lies nearer to each than they are to one another",
        )
    resonant: Clause = ()
    if f.recurring is not None:  # an active resonance names it: the step reinforces a recurring theme
        w = " and ".join(q(t) for t in f.recurring)
        resonant = (
            f"{B} is itself one of the themes the walk keeps returning to" + (f", with {w}" if w else ""),
            f"the walk keeps returning to {B}" + (f", as to {w}" if w else ""),
        )
    elif f.resonant:
        resonant = (
            f"{B} lies near a theme the walk keeps returning to",
            f"the walk keeps returning to a theme near {B}",
        )
    leans: Clause = ()
    if f.leans_sim is not None and f.leans_sim < 0.15:
        leans = ("what each leans toward has nothing in common with the other's", "their leans share nothing")
    elif f.leans_sim is not None and f.leans_sim >= 0.45:
        leans = ("what each leans toward lies close to the other's", "even where they differ, their leans lie close")
    opposite: Clause = ()
    if f.opposite:
        opposite = ("yet the corpus counts them as opposites", f"the corpus counts {A} and {B} as opposites")
    back: Clause = ()
    if f.revisits > 0:
        back = (
            f"the walk has met {B} {times(f.revisits)} before",
            f"{B} is no stranger here: the walk has met it {times(f.revisits)} before",
        )
    word = _word(f) if not (f.relations or f.shared_target or f.gloss_link) else ()
    others = [evidence, opposite, back, resonant, word, leans]
    if f.band != "close" and f.mediated and not f.kin and sum(bool(c) for c in others) >= 2:
        # a concept between them nearer each than they are to each other is what most steps
        # find: where two other things are true, they are the surprise, and it comes last
        clauses, leads, most = [*others, text], [1, 0, 2, 4, 3, 5, 6], 1
    else:
        clauses = [text, evidence, leans, opposite, back, resonant, word]
        # opposites and a stated relation are the least expected; then a return; then the rest
        leads = [3, 1, 4, 0, 5, 6, 2] if f.relations or f.opposite else [0, 4, 1, 6, 5, 2, 3]
        most = 2
    # the lead and at most two more: the surprise is what is least expected, not every fact
    return [x for x in arrangements(clauses, leads, most=most, turn=f.turn) if not x.startswith("Yet ")]


def _kin_surprise(f: PairFacts, A: str, B: str) -> Clause:
    """Kin: how their distance in meaning sits with their kinship."""
    S = q(f.shared or "")
    kin = f"kinds of {S}" if f.kinship in ("siblings", "shared") else "one a kind of the other"
    if f.band == "close":
        if f.close_kin:
            return (
                f"{A} and {B} are as near in meaning as {kin} should be",
                f"as {kin} should be, {A} and {B} lie near in meaning",
            )
        return (
            f"{A} and {B} are nearer in meaning than their remote kinship through {S} suggests",
            f"their kinship through {S} is remote, yet {A} and {B} lie near in meaning",
        )
    if f.band == "middle":
        if f.close_kin:
            return (
                f"{A} and {B} are {kin}, yet a middle distance apart: the kind is shared, the uses differ",
                f"the kind is shared, the uses differ: {A} and {B} are {kin} a middle distance apart",
            )
        return (
            f"{A} and {B} are a middle distance apart, as cousins through {S} would be",
            f"as cousins through {S} would be, {A} and {B} lie a middle distance apart",
        )
    if f.close_kin:
        return (
            f"{A} and {B} are far apart for {kin}: more in common than their distance shows",
            f"for {kin}, {A} and {B} lie far apart",
        )
    return (
        f"{A} and {B} are far apart, and their lineages meet only at {S}: little in common either way",
        f"little joins {A} and {B} either way: far apart, their lineages meet only at {S}",
    )


def _kin_evidence(f: PairFacts) -> Clause:
    if f.relations:
        return ("beyond their kinship the corpus states a tie: " + relation(*f.relations[0]),)
    return ()


def _word(f: PairFacts) -> Clause:
    """A word both definitions use, where no relation ties them."""
    if not f.gloss_word:
        return ()
    w = q(f.gloss_word)
    return (f"their definitions meet in one word, {w}", f"{w} turns up in both their definitions")


def _stranger_surprise(f: PairFacts, A: str, B: str, m: str) -> Clause:
    """No lineage in common, or one that meets only in a broad class (which the connection
    names): how near they are in meaning, and what lies between."""
    toward = where_between(f, f.middle_sims)
    nearer = "nearer to each than they are to one another"
    if f.kinship == "broad":  # their kinds part early: the surprise is in the distance
        if f.band == "close":
            return (
                f"{A} and {B} are close in meaning though their kinds part early: related by use, not by kind",
                f"related by use, not by kind, {A} and {B} lie close though their kinds part early",
            )
        if f.band == "middle" and f.mediated:
            return (
                f"{A} and {B} lie a middle distance apart, and {m} stands {nearer}",
                f"{m} is closer to both than they are to each other, though {A} and {B} lie a middle distance apart",
                f"a middle distance separates {A} and {B}, and {m} closes it from both sides",
            )
        if f.band == "middle":
            return (
                f"{A} and {B} are a middle distance apart, {m} lying {toward}",
                f"a middle distance separates {A} and {B}, with {m} {toward}",
            )
        if f.mediated:
            return (
                f"far apart, {A} and {B} are spanned only by {m}, {nearer}",
                f"only {m} spans the distance between {A} and {B}, closer to both than they are to each other",
                f"across the wide gap between {A} and {B}, {m} alone stands {nearer}",
            )
        return (
            f"{A} and {B} are far apart in meaning, with {m} {toward}",
            f"a wide gap lies between {A} and {B}, with {m} {toward}",
            f"between {A} and {B}, far apart in meaning, {m} lies {toward}",
        )
    if f.band == "close":
        return (
            f"{A} and {B} are close in meaning with no lineage in common: related by use, not by kind",
            f"related by use, not by kind, {A} and {B} lie close with no lineage in common",
        )
    if f.band == "middle" and f.mediated:
        return (
            f"{A} and {B} share no lineage, yet {m} stands {nearer}",
            f"with no lineage in common, {A} and {B} still have {m}, closer to both than they are to each other",
        )
    if f.band == "middle":
        return (
            f"{A} and {B} are a middle distance apart without a common lineage, {m} lying {toward}",
            f"without a common lineage, {A} and {B} lie a middle distance apart, {m} {toward}",
        )
    if f.mediated:
        return (
            f"nothing in the corpus makes {A} and {B} kin, and only {m}, {nearer}, spans the gap",
            f"only {m} spans the wide gap between {A} and {B}, strangers by kind, standing {nearer}",
        )
    return (
        f"{A} and {B} are strangers by kind and far apart in meaning, with {m} {toward}",
        f"far apart in meaning and strangers by kind, {A} and {B} have only {m} {toward}",
    )


def _stranger_evidence(f: PairFacts) -> Clause:
    """What ties two concepts of no common lineage, if anything does."""
    if f.relations:
        r = relation(*f.relations[0])
        return ("what ties them is a relation, not a kind: " + r, r + ": a relation, not a kind, ties them")
    if f.shared_target:
        s = shared(*f.shared_target)
        return ("what they share is a relation, not a kind: " + s, s + ", a relation rather than a kind")
    if f.gloss_link:
        x, y = f.gloss_link
        return (
            f"the definition of {q(x.name)} names {q(y.lemma)}",
            f"{q(y.lemma)} turns up in the definition of {q(x.name)}",
        )
    if f.common_domains:
        return (f"both are matters of {domains(f.common_domains)}",)
    return ()


def _against_kinds(sim: float, kinds: tuple[str, str], kinds_sim: float) -> Clause:
    """The pair's nearness set against their kinds' own, graded by the margin."""
    ka, kb_ = q(kinds[0]), q(kinds[1])
    gap = sim - kinds_sim
    if gap > 0.25:
        return (
            f"their kinds, {ka} and {kb_}, barely touch, so the nearness belongs to the pair alone",
            f"{ka} and {kb_} in general barely touch: the nearness is the pair's own",
        )
    if gap > 0.12:
        return (
            f"they stand much nearer than {ka} and {kb_} in general do",
            f"{ka} and {kb_} in general stand much farther apart than these two",
        )
    if gap > 0.05:
        return (f"they are nearer to each other than their kinds, {ka} and {kb_}, are",)
    if gap < -0.12:
        return (f"{ka} and {kb_} in general lie closer than these two members of them",)
    if gap < -0.05:
        return (f"they are farther apart than their kinds, {ka} and {kb_}, are",)
    return (
        f"they stand about as near as their kinds, {ka} and {kb_}, do",
        f"{ka} and {kb_} in general stand about as near as these two",
    )
