"""One writer per facet. Each builds its sentences from clauses, and each clause exists only
when its fact holds for the pair (PairFacts): what is said, and so how it is said, follows
what is true of the pair. All five read the same facts, so they cannot contradict each
other (a pair the connection calls kin is never called strangers by the surprise).

The walk has a direction: `a` is where it comes from, `b` where it goes; a fact that holds
of one side only says which ("back toward", "ahead toward"). The surprise is written in
surprise.py; the clauses every writer uses are in clauses.py."""

from __future__ import annotations

from wander.adapters.llm.offline_facets.clauses import in_line, sentence_of, where_between
from wander.adapters.llm.offline_facets.facts import TOWARD, PairFacts, Side, lemma
from wander.adapters.llm.offline_facets.surprise import surprise as surprise
from wander.adapters.llm.offline_facets.words import (
    DOMAIN_WORDS,
    domains,
    gloss,
    num,
    q,
    realm,
    relation,
    role,
    shared,
)
from wander.core.engine.ports import Knowledge, KnowledgeConcept

KINDRED = 0.5  # two kinds this similar are near in meaning, however far apart the corpus files them


def _name(s: Side, read_as: bool = False) -> str:
    if read_as and not s.own:
        return f"{q(s.name)} (read as {q(s.concept.label)})"
    return q(s.name)


def _kinship(f: PairFacts, read_as: bool = False) -> str:
    A, B = _name(f.a, read_as), _name(f.b, read_as)
    d = f.depths or (0, 0)
    if f.kinship == "a_in_b":
        return f"{A} is a kind of {B}" + ("" if d[0] <= 1 else f", {num(d[0])} levels down its lineage")
    if f.kinship == "b_in_a":
        return f"{B} is a kind of {A}" + ("" if d[1] <= 1 else f", {num(d[1])} levels down its lineage")
    if f.kinship == "siblings":
        return f"{A} and {B} are sister kinds of {q(f.shared or '')}"
    if f.kinship == "shared":
        if max(d) <= 3:
            return f"{A} and {B} are both kinds of {q(f.shared or '')}"
        return f"{A} and {B} are distant cousins, their lineages meeting at {q(f.shared or '')} only {num(d[0])} and {num(d[1])} levels up"
    pa, pb = f.a.concept.path[:1], f.b.concept.path[:1]
    if not pa or not pb:
        return f"{A} and {B} share no broader concept in the corpus"
    P, Q = q(pa[0]), q(pb[0])
    if set(f.realms) == {"physical entity", "abstract entity"}:  # a thing beside an idea says the most
        if f.realms[0] == "physical entity":
            return f"{A}, a kind of {P}, is a physical thing, while {B}, a kind of {Q}, is an abstraction"
        return f"{A}, a kind of {P}, is an abstraction, while {B}, a kind of {Q}, is a physical thing"
    if f.realms[0] != f.realms[1] and all(f.realms):
        return f"{A} is a kind of {P} among {realm(f.realms[0])}, {B} a kind of {Q} among {realm(f.realms[1])}"
    lexical = [d for d in f.common_domains if d in DOMAIN_WORDS and d != "Tops"]
    if lexical:  # the same broad domain (both acts, both artifacts) though of unrelated kinds
        return f"{A} and {B} are both {DOMAIN_WORDS[lexical[0]]}, of different kinds, {P} and {Q}"
    S = q(f.shared or "")
    if pa[0] == pb[0]:  # one word, two senses: 'market' the activity, 'market' the place
        return f"{A} and {B} are kinds of two different senses of {P}, whose lineages meet only at {S}"
    if f.kinship != "broad":
        return f"{A}, a kind of {P}, and {B}, a kind of {Q}, share no broader concept"
    if f.kinds_sim is not None and f.kinds_sim >= KINDRED:  # kinds near in meaning, apart in the tree
        return f"{A} and {B} come from kindred kinds, {P} and {Q}, that the corpus files apart below {S}"
    if f.depths and min(f.depths) >= 5:
        return f"{A}, a kind of {P}, and {B}, a kind of {Q}, sit deep in separate branches, {num(d[0])} and {num(d[1])} levels below the {S} they meet in"
    return f"{A} is a kind of {P} and {B} a kind of {Q}; above those they share only the broad class {S}"


def _link(f: PairFacts) -> str:
    """The strongest tie the corpus states between the two, beyond their kinds."""
    if f.relations:
        return relation(*f.relations[0])
    if f.shared_target:
        return shared(*f.shared_target)
    if f.gloss_link:
        x, y = f.gloss_link
        return f"the corpus defines {q(x.name)} by way of {q(y.lemma)}"
    return ""


def _middle(kb: Knowledge, f: PairFacts) -> str:
    m = kb.concept(f.middle)
    M = f"{q(m.label)} ({gloss(m)})"
    if f.middle_relation:
        return f"{M} stands between them: " + relation(*f.middle_relation)
    if f.kin and f.kinship not in ("a_in_b", "b_in_a") and in_line(m, f.shared):
        return f"{M} is another of that kind, {where_between(f, f.middle_sims)}"
    for s, other in ((f.a, f.b), (f.b, f.a)):
        if in_line(m, s.lemma):
            return f"{M}, a kind of {q(s.name)}, reaches toward {q(other.name)}"
        if lemma(m) in s.concept.path:
            return f"{M}, which {q(s.name)} is a kind of, reaches toward {q(other.name)}"
    if f.middle_names is not None:
        return f"{M} lies {where_between(f, f.middle_sims)}, its definition naming {q(f.middle_names.lemma)}"
    common = set(m.domains) & set(f.common_domains)
    if common:
        return f"{M}, of {domains(sorted(common))} like both, lies {where_between(f, f.middle_sims)}"
    return f"{M} lies {where_between(f, f.middle_sims)}"


def _same_role(f: PairFacts) -> str:
    if f.doing_a and f.doing_b and f.doing_a[0] == f.doing_b[0]:
        what = {"agent": "both are doers", "instrument": "both are things one uses", "act": "both are acts"}
        if f.doing_a[1] == f.doing_b[1]:
            return f"{what[f.doing_a[0]]}, and of the same verb, {q(f.doing_a[1])}"
        return f"{what[f.doing_a[0]]}: " + role(f.a.name, f.doing_a) + ", " + role(f.b.name, f.doing_b)
    return ""


def connection(kb: Knowledge, f: PairFacts) -> str:
    link = _link(f) or _same_role(f)
    if link and not f.kin:  # the stated tie leads when their kinds do not meet
        first = sentence_of(link, _kinship(f, read_as=True))
    else:
        first = sentence_of(_kinship(f, read_as=True), link)
    again = "the walk keeps coming back to it" if f.middle_recurs else ""
    if f.middle_attractor is not None and f.middle_attractor > 0.02:
        again += (", and it lies" if again else "it lies") + " nearer the attractor than either"
    return first + " " + sentence_of(_middle(kb, f), again)


TIES = {  # how a lean belongs to its side -> the words after the lean's name
    "kind": ", a kind of it",
    "broader": ", the kind it is",
    "parts": ", one of its parts",
    "part_of": ", which it is part of",
    "members": ", one of its members",
    "member_of": ", which it belongs to",
    "substances": ", its substance",
    "derivations": ", of its own root",
    "topics": ", its topic",
    "topic_members": ", a matter of its topic",
}


def _lean_name(kb: Knowledge, i: int | None, tie: str | None) -> str | None:
    if i is None:
        return None
    return q(lemma(kb.concept(i))) + (TIES.get(tie, ", tied to it in the corpus") if tie else "")


def _leans(kb: Knowledge, f: PairFacts) -> str:
    A, B = q(f.a.name), q(f.b.name)
    la = _lean_name(kb, f.lean_a, f.lean_ties[0])
    lb = _lean_name(kb, f.lean_b, f.lean_ties[1])
    if la and lb:
        if f.band == "far":
            return f"{A} pulls toward {la}, while {B} pulls toward {lb}, wide apart"
        if f.band == "close":
            return f"only a little separates them: {A} pulls toward {la}, while {B} pulls toward {lb}"
        return f"{A} pulls toward {la}, while {B} pulls toward {lb}"
    if la or lb:
        return f"{A if la else B} keeps {la or lb} to itself"
    return ""


def tension(kb: Knowledge, f: PairFacts) -> str:
    A, B = q(f.a.name), q(f.b.name)
    if f.opposite:
        contrast = f"the corpus sets {q(f.opposite[0])} against its opposite {q(f.opposite[1])}"
    elif f.doing_a and f.doing_b and f.doing_a != f.doing_b:
        contrast = role(f.a.name, f.doing_a) + ", while " + role(f.b.name, f.doing_b)
    elif f.kinship in ("a_in_b", "b_in_a"):
        general, particular = (B, A) if f.kinship == "a_in_b" else (A, B)
        contrast = f"the general {general} against the particular {particular}"
    elif f.only_a and f.only_b and not f.common_domains:
        contrast = f"one is a matter of {domains(f.only_a)}, the other of {domains(f.only_b)}"
        if f.realms[0] != f.realms[1] and all(f.realms):
            contrast += f", the one among {realm(f.realms[0])}, the other among {realm(f.realms[1])}"
    elif f.only_b:
        contrast = f"both touch {domains(f.common_domains)}, but {B} also reaches into {domains(f.only_b)}"
    elif f.only_a:
        contrast = f"{B} keeps to {domains(f.common_domains)}, leaving behind the {domains(f.only_a)} of {A}"
    else:
        contrast = f"their quarrel stays inside {domains(f.common_domains)}"
    depth = ""
    # one is the abstraction only where the corpus says so: an abstract entity against a
    # physical one (a deeper or shallower path alone says nothing: 'shellfish' is no
    # abstraction beside 'bottom fish')
    if set(f.realms) == {"abstract entity", "physical entity"}:
        abstract_first = f.realms[0] == "abstract entity"
        depth = f"{A if abstract_first else B} is the abstraction, {B if abstract_first else A} the concrete thing"
    pull = ""
    if f.attractor_shift is not None and f.attractor_shift > TOWARD:
        pull = f"going on to {B} brings the walk nearer the attractor"
    elif f.attractor_shift is not None and f.attractor_shift < -TOWARD:
        pull = f"going on to {B} takes the walk away from the attractor"
    return sentence_of(_leans(kb, f), contrast, depth, pull)


def _translator(kb: Knowledge, f: PairFacts, dom_a: set[str], dom_b: set[str]) -> int | None:
    for i, _ in f.mids:
        c = set(kb.concept(i).domains)
        if c & dom_a and c & dom_b:
            return i
    return None


def bridge(kb: Knowledge, f: PairFacts) -> str:
    A, B = q(f.a.name), q(f.b.name)
    dom_a = set(f.common_domains) | set(f.only_a)
    dom_b = set(f.common_domains) | set(f.only_b)
    link = ""
    if f.shared_target and f.shared_target[0] in ("topics", "usages", "regions"):
        link = "what carries the crossing: " + shared(*f.shared_target)
    elif f.doing_b and not f.doing_a:
        link = "on the far side, " + role(f.b.name, f.doing_b)
    elif f.doing_a and not f.doing_b:
        link = "on the near side, " + role(f.a.name, f.doing_a)
    elif f.gloss_link:
        x, y = f.gloss_link
        link = f"the definition of {q(x.name)} names {q(y.lemma)} outright"
    crossing = ""
    if f.realms[0] != f.realms[1] and all(f.realms):
        crossing = f"the step crosses from {realm(f.realms[0])} to {realm(f.realms[1])}"
    if f.only_b:
        t = _translator(kb, f, dom_a, set(f.only_b))
        src = domains(sorted(dom_a)) if dom_a else "no named domain"
        if t is not None:
            c = kb.concept(t)
            head = f"going from {src} into {domains(f.only_b)}, {q(c.label)} ({gloss(c)}) belongs to both sides"
        else:
            c = kb.concept(f.middle)
            own = set(c.domains)
            if link:
                head = f"going from {src} into {domains(f.only_b)}, no concept near them belongs to both"
            elif own & dom_a:
                head = f"no concept near them belongs to both {src} and {domains(f.only_b)}"
                link = f"the nearest foothold, {q(c.label)}, {where_between(f, f.middle_sims)}, stays on the side the walk leaves"
            elif own & dom_b:
                head = f"the walk lands in {domains(f.only_b)} with nothing from {src} to carry across"
                link = f"{q(c.label)}, already on the far side, stands nearest the crossing, {where_between(f, f.middle_sims)}"
            else:
                head = f"{src} and {domains(f.only_b)} have no concept in common near this step"
                field = f"from a third field, {domains(list(c.domains))}, " if c.domains else ""
                link = f"the gap is spanned {field}by {q(c.label)}, {where_between(f, f.middle_sims)}"
        goal = ""
        if f.attractor_shift is not None and abs(f.attractor_shift) > TOWARD:
            goal = "a crossing " + ("toward" if f.attractor_shift > 0 else "away from") + " the attractor"
        return sentence_of(head, crossing, link, goal)
    outside = next((i for i, _ in f.mids if not set(kb.concept(i).domains) & (dom_a | dom_b)), None)
    where = domains(f.common_domains)
    if f.only_a:
        head = f"{B} narrows the {domains(sorted(dom_a))} of {A} down to {where}"
    else:
        head = f"both stay within {where}"
    if outside is not None:
        o = kb.concept(outside)
        tail = f"the nearest view from outside is {q(o.label)}, from {domains(list(o.domains))}"
    else:
        tail = f"so does everything around their midpoint, led by {q(kb.concept(f.middle).label)}"
    return sentence_of(head, tail, crossing, link)


STRONG_FILLING = 0.1  # a filling this much nearer each side than the sides are to each other


def _filling_kind(c: KnowledgeConcept, f: PairFacts) -> str:
    """How the filling stands to the pair in the corpus: a relation to a side, the kind both
    are, a side's own kind, a kind of a side, or a kind it shares with a side."""
    if f.filling_relation:
        return relation(*f.filling_relation)
    if f.shared and f.kin and in_line(c, f.shared):
        return f"it is itself a kind of {q(f.shared)}"
    for s in (f.a, f.b) if c.path else ():
        if lemma(c) in s.concept.path:  # the filling is what a side is a kind of
            return f"it is what {q(s.name)} is a kind of"
        if c.path[0] == s.lemma:  # the filling is a kind of a side itself
            return f"it is a kind of {q(s.name)}"
        if c.path[0] in s.line:
            return f"it is a kind of {q(c.path[0])}, as {q(s.name)} is"
    return ""


def possibility(kb: Knowledge, f: PairFacts) -> str:
    c = kb.concept(f.filling)
    F = f"{q(c.label)} ({gloss(c, 10)})"
    own = set(c.domains)
    dom_a = set(f.common_domains) | set(f.only_a)
    dom_b = set(f.common_domains) | set(f.only_b)
    if own & dom_a and own & dom_b:
        field = ""
    elif own & dom_a:
        field = "from the side the walk comes from"
    elif own & dom_b:
        field = "from the side the walk goes to"
    else:
        field = f"from a third field, {domains(list(c.domains))}"
    kind = _filling_kind(c, f)
    toward = where_between(f, f.filling_sims)
    where = f", {field}," if field else ""
    if min(f.filling_sims) - f.sim > STRONG_FILLING:
        head = f"{F}{where} could stand {toward}, clearly nearer to each than they are to one another: a strong candidate filling"
    elif min(f.filling_sims) > f.sim:
        head = f"{F}{where} could stand {toward}: a candidate filling"
    else:  # nothing near them mediates: the likeliest filling is named for what it is
        head = f"the likeliest filling, {F}{where or ','} lies {toward}, yet no nearer to either than they are to one another"
    goal = ""
    if f.filling_attractor is not None and f.filling_attractor > 0.02:
        goal = "it lies nearer the attractor than either"
    elif f.filling_recurs:
        goal = "the walk has named it among its themes already"
    return sentence_of(head, kind, goal)
