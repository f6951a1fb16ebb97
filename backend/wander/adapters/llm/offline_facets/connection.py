"""The connection facet: how the corpus relates the two (their kinship, a stated tie beyond
it), then the concept that stands between them. Each clause has several phrasings and any
held clause may lead (variety.py chooses); all of them say only what the facts hold."""

from __future__ import annotations

from wander.adapters.llm.offline_facets.clauses import Clause, arrangements, in_line, sentence_of, where_between
from wander.adapters.llm.offline_facets.facts import PairFacts, Side, lemma
from wander.adapters.llm.offline_facets.words import DOMAIN_WORDS, domains, gloss, num, q, realm, relation, role, shared
from wander.core.engine.ports import Knowledge

KINDRED = 0.5  # two kinds this similar are near in meaning, however far apart the corpus files them


def name(s: Side, read_as: bool = False) -> str:
    if read_as and not s.own:
        return f"{q(s.name)} (read as {q(s.concept.label)})"
    return q(s.name)


def _kin(f: PairFacts, A: str, B: str) -> Clause:
    d = f.depths or (0, 0)
    S = q(f.shared or "")
    if f.kinship in ("a_in_b", "b_in_a"):
        (X, dx), Y = ((A, d[0]), B) if f.kinship == "a_in_b" else ((B, d[1]), A)
        down = "" if dx <= 1 else f", {num(dx)} levels down its lineage"
        return (
            f"{X} is a kind of {Y}{down}",
            f"{Y} counts {X} among its kinds{down}",
            f"of the two, {Y} is the broader: {X} is one kind of it",
        )
    if f.kinship == "siblings":
        return (
            f"{A} and {B} are sister kinds of {S}",
            f"{S} has both {A} and {B} among its kinds, side by side",
            f"sisters under {S}, {A} and {B} are two kinds of one thing",
        )
    if max(d) <= 3:
        return (
            f"{A} and {B} are both kinds of {S}",
            f"{S} is what {A} and {B} both are",
            f"under {S}, a few levels up, {A} and {B} meet",
        )
    return (
        f"{A} and {B} are distant cousins, their lineages meeting at {S} only {num(d[0])} and {num(d[1])} levels up",
        f"only {num(d[0])} and {num(d[1])} levels up do the lineages of {A} and {B} meet, at {S}",
    )


def says_realms(f: PairFacts) -> bool:
    """The connection names which side is a physical thing and which an abstraction (their
    kinds do not meet, and the corpus gives both a kind)."""
    return (
        not f.kin
        and bool(f.a.concept.path[:1] and f.b.concept.path[:1])
        and f.realms[0] != f.realms[1]
        and all(f.realms)
    )


def _unkin(f: PairFacts, A: str, B: str) -> Clause:
    d = f.depths or (0, 0)
    pa, pb = f.a.concept.path[:1], f.b.concept.path[:1]
    if not pa or not pb:
        return (
            f"{A} and {B} share no broader concept in the corpus",
            f"no broader concept in the corpus holds both {A} and {B}",
        )
    P, Q, S = q(pa[0]), q(pb[0]), q(f.shared or "")
    if set(f.realms) == {"physical entity", "abstract entity"}:  # a thing beside an idea says the most
        (X, KX), (Y, KY) = ((A, P), (B, Q)) if f.realms[0] == "physical entity" else ((B, Q), (A, P))
        return (
            f"{X}, a kind of {KX}, is a physical thing, while {Y}, a kind of {KY}, is an abstraction",
            f"one is physical and one abstract: {X} is a kind of {KX}, {Y} a kind of {KY}",
            f"of the two, only {X}, a kind of {KX}, is a physical thing; {Y} is a kind of {KY}, an abstraction",
        )
    if f.realms[0] != f.realms[1] and all(f.realms):
        ra, rb = realm(f.realms[0]), realm(f.realms[1])
        return (
            f"{A} is a kind of {P} among {ra}, {B} a kind of {Q} among {rb}",
            f"the corpus files {A} among {ra}, as a kind of {P}, and {B} among {rb}, as a kind of {Q}",
        )
    lexical = [x for x in f.common_domains if x in DOMAIN_WORDS and x != "Tops"]
    if lexical:  # the same broad domain (both acts, both artifacts) though of unrelated kinds
        D = DOMAIN_WORDS[lexical[0]]
        return (
            f"{A} and {B} are both {D}, of different kinds, {P} and {Q}",
            f"{A}, a kind of {P}, and {B}, a kind of {Q}, are both {D}, but of unrelated kinds",
        )
    if pa[0] == pb[0]:  # one word, two senses: 'market' the activity, 'market' the place
        return (
            f"{A} and {B} are kinds of two different senses of {P}, whose lineages meet only at {S}",
            f"one word, {P}, heads both lineages in two senses: {A} and {B} meet only at {S}",
        )
    if f.kinship != "broad":
        return (
            f"{A}, a kind of {P}, and {B}, a kind of {Q}, share no broader concept",
            f"no broader concept holds both {A}, a kind of {P}, and {B}, a kind of {Q}",
        )
    if f.kinds_sim is not None and f.kinds_sim >= KINDRED:  # kinds near in meaning, apart in the tree
        return (
            f"{A} and {B} come from kindred kinds, {P} and {Q}, that the corpus files apart below {S}",
            f"{P} and {Q}, the kinds of {A} and {B}, are near in meaning, yet the corpus files them apart below {S}",
        )
    if f.depths and min(f.depths) >= 5:
        return (
            f"{A}, a kind of {P}, and {B}, a kind of {Q}, sit deep in separate branches, {num(d[0])} and {num(d[1])} levels below the {S} they meet in",
            f"{S} is all that holds both, {num(d[0])} levels above {A} and {num(d[1])} above {B}, in separate branches",
            f"far down separate branches, {A} is a kind of {P} and {B} a kind of {Q}, their lineages joining only at {S}",
            f"the lineages of {A}, a kind of {P}, and {B}, a kind of {Q}, run apart until {S}",
        )
    return (
        f"{A} is a kind of {P} and {B} a kind of {Q}; above those they share only the broad class {S}",
        f"only the broad class {S} holds both {A}, a kind of {P}, and {B}, a kind of {Q}",
        f"{A} and {B} part early, the one a kind of {P}, the other of {Q}, meeting only in {S}",
    )


def kinship(f: PairFacts, read_as: bool = False) -> Clause:
    A, B = name(f.a, read_as), name(f.b, read_as)
    return _kin(f, A, B) if f.kin else _unkin(f, A, B)


def _link(f: PairFacts) -> Clause:
    """The strongest tie the corpus states between the two, beyond their kinds."""
    if f.relations:
        said = relation(*f.relations[0])
        return (said, "the corpus states a tie of its own: " + said)
    if f.shared_target:
        return (shared(*f.shared_target), "what joins them in the corpus: " + shared(*f.shared_target))
    if f.gloss_link:
        by, named = f.gloss_link
        return (
            f"the corpus defines {q(by.name)} by way of {q(named.lemma)}",
            f"the definition of {q(by.name)} calls on {q(named.lemma)}",
        )
    if f.doing_a and f.doing_b and f.doing_a[0] == f.doing_b[0]:
        what = {"agent": "both are doers", "instrument": "both are things one uses", "act": "both are acts"}
        if f.doing_a[1] == f.doing_b[1]:
            return (f"{what[f.doing_a[0]]}, and of the same verb, {q(f.doing_a[1])}",)
        return (f"{what[f.doing_a[0]]}: " + role(f.a.name, f.doing_a) + ", " + role(f.b.name, f.doing_b),)
    if f.gloss_word:
        w = q(f.gloss_word)
        return (f"both definitions speak of {w}", f"the corpus defines each with the word {w}")
    return ()


def _middle(kb: Knowledge, f: PairFacts) -> Clause:
    m = kb.concept(f.middle)
    M = f"{q(m.label)} ({gloss(m)})"
    at = where_between(f, f.middle_sims)
    if f.middle_relation:
        r = relation(*f.middle_relation)
        return (f"{M} stands between them: {r}", f"between them stands {M}, and {r}")
    if f.kin and f.kinship not in ("a_in_b", "b_in_a") and in_line(m, f.shared):
        return (f"{M} is another of that kind, {at}", f"another of the same kind, {M}, lies {at}")
    for s, other in ((f.a, f.b), (f.b, f.a)):
        if in_line(m, s.lemma):
            return (
                f"{M}, a kind of {q(s.name)}, reaches toward {q(other.name)}",
                f"a kind of {q(s.name)}, {M}, reaches toward {q(other.name)}",
            )
        if lemma(m) in s.concept.path:
            return (
                f"{M}, which {q(s.name)} is a kind of, reaches toward {q(other.name)}",
                f"from above {q(s.name)}, {M} reaches toward {q(other.name)}",
            )
    if f.middle_names is not None:
        return (
            f"{M} lies {at}, its definition naming {q(f.middle_names.lemma)}",
            f"the definition of {M}, which lies {at}, names {q(f.middle_names.lemma)}",
        )
    common = set(m.domains) & set(f.common_domains)
    if common:
        return (
            f"{M}, of {domains(sorted(common))} like both, lies {at}",
            f"like both, {M} is of {domains(sorted(common))}, and lies {at}",
        )
    return (f"{M} lies {at}", f"nearest both stands {M}, {at}", f"of the concepts near both, {M} comes first, {at}")


def connection(kb: Knowledge, f: PairFacts) -> list[str]:
    """Every text the facts support: the tie or the kinship leading the first sentence (the
    stated tie first where their kinds do not meet), or the middle concept leading."""
    kin, link = kinship(f, read_as=True), _link(f)
    nearer = f.middle_attractor is not None and f.middle_attractor > 0.02
    again: tuple[str, ...] = ("",)
    if f.middle_recurs:
        again = (
            "the walk keeps coming back to it",
            "the walk has passed near it before",
            "it is no stranger to the walk",
        )
        if nearer:
            again = tuple(a + ", and it lies nearer the attractor than either" for a in again)
    elif nearer:
        again = ("it lies nearer the attractor than either", "it stands nearer the attractor than either side")
    middle = _middle(kb, f)
    firsts = arrangements([kin, link], [1, 0] if link and not f.kin else [0, 1], turn=f.turn)
    seconds = arrangements([middle, again], [0], turn=f.turn)
    out = [a + " " + b for a in firsts for b in seconds]
    # the concept between them leads where the corpus states how it stands to a side
    mid_first = [b + " " + a for b in seconds for a in firsts]
    return mid_first + out if f.middle_relation else out + mid_first


__all__ = ["connection", "kinship", "name", "sentence_of"]
