"""The tension facet: what pulls the two apart. Where each leans against the other, the
sharpest contrast the corpus gives (opposites, what each does, the general against the
particular, their domains), which is the abstraction, and how the step moves against the
attractor; the most telling of these leads."""

from __future__ import annotations

from wander.adapters.llm.offline_facets.clauses import Clause, arrangements
from wander.adapters.llm.offline_facets.connection import says_realms
from wander.adapters.llm.offline_facets.facts import TOWARD, PairFacts
from wander.adapters.llm.offline_facets.words import domains, q, realm, role
from wander.core.engine.ports import Knowledge

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


def lean_name(kb: Knowledge, i: int | None, tie: str | None) -> str | None:
    if i is None:
        return None
    label = kb.concept(i).label.split(" (")[0]
    return q(label) + (TIES.get(tie, ", tied to it in the corpus") if tie else "")


def _leans(kb: Knowledge, f: PairFacts) -> Clause:
    A, B = q(f.a.name), q(f.b.name)
    la = lean_name(kb, f.lean_a, f.lean_ties[0])
    lb = lean_name(kb, f.lean_b, f.lean_ties[1])
    if la and lb:
        plain = f"{A} pulls toward {la}, while {B} pulls toward {lb}"
        if f.band == "far":
            plain += ", wide apart"
        elif f.band == "close":
            plain = "only a little separates them: " + plain
        return (
            plain,
            f"set against {B}, {A} leans to {la}; set against {A}, {B} leans to {lb}",
            f"what marks {A} off from {B} is {la}, and what marks {B} off is {lb}",
            f"each keeps something the other lacks: {A} has {la}, {B} has {lb}",
            f"apart, {A} would go toward {la}, {B} toward {lb}",
        )
    if la or lb:
        X, L = (A, la) if la else (B, lb)
        return (f"{X} keeps {L} to itself", f"only {X} leans away, toward {L}")
    return ()


def _contrast(f: PairFacts) -> tuple[Clause, int]:
    """The sharpest contrast the corpus gives, and how telling it is (3 strongest)."""
    A, B = q(f.a.name), q(f.b.name)
    if f.opposite:
        o, p = q(f.opposite[0]), q(f.opposite[1])
        return (f"the corpus sets {o} against its opposite {p}", f"{o} and {p} are opposites in the corpus"), 3
    if f.doing_a and f.doing_b and f.doing_a != f.doing_b:
        ra, rb = role(f.a.name, f.doing_a), role(f.b.name, f.doing_b)
        return (f"{ra}, while {rb}", f"they do different work: {ra}; {rb}"), 3
    if f.kinship in ("a_in_b", "b_in_a"):
        general, particular = (B, A) if f.kinship == "a_in_b" else (A, B)
        return (
            f"the general {general} against the particular {particular}",
            f"{particular} is the particular case, {general} the general",
        ), 2
    if f.only_a and f.only_b and not f.common_domains:
        da, db = domains(f.only_a), domains(f.only_b)
        realms = ""  # each phrasing says it: the depth clause leaves it to this one (below)
        if f.realms[0] != f.realms[1] and all(f.realms) and not says_realms(f):
            realms = f", the one among {realm(f.realms[0])}, the other among {realm(f.realms[1])}"
        return tuple(
            p + realms
            for p in (
                f"one is a matter of {da}, the other of {db}",
                f"{A} belongs to {da}, {B} to {db}, with no field in common",
                f"{da} on one side, {db} on the other, and no field shared",
                f"the step leaves {da} for {db}, fields that do not meet",
            )
        ), 2
    if f.only_b:
        return (f"both touch {domains(f.common_domains)}, but {B} also reaches into {domains(f.only_b)}",), 1
    if f.only_a:
        return (f"{B} keeps to {domains(f.common_domains)}, leaving behind the {domains(f.only_a)} of {A}",), 1
    return (
        f"their quarrel stays inside {domains(f.common_domains)}",
        f"no field divides them: both are of {domains(f.common_domains)}",
    ), 0


def tension(kb: Knowledge, f: PairFacts) -> list[str]:
    A, B = q(f.a.name), q(f.b.name)
    contrast, strength = _contrast(f)
    depth: Clause = ()
    # one is the abstraction only where the corpus says so: an abstract entity against a
    # physical one (a deeper or shallower path alone says nothing: 'shellfish' is no
    # abstraction beside 'bottom fish')
    # (said here only where the connection has not said it already)
    if set(f.realms) == {"abstract entity", "physical entity"} and "among" not in contrast[0] and not says_realms(f):
        X, Y = (A, B) if f.realms[0] == "abstract entity" else (B, A)
        depth = (
            f"{X} is the abstraction, {Y} the concrete thing",
            f"the abstraction here is {X}; {Y} is the concrete thing",
        )
    pull: Clause = ()
    if f.attractor_shift is not None and f.attractor_shift > TOWARD:
        pull = (
            f"going on to {B} brings the walk nearer the attractor",
            f"toward the attractor, {B} is the better ground",
        )
    elif f.attractor_shift is not None and f.attractor_shift < -TOWARD:
        pull = (f"going on to {B} takes the walk away from the attractor", f"the attractor lies nearer {A} than {B}")
    clauses = [_leans(kb, f), contrast, depth, pull]
    # the corpus's own contrast leads when it is sharp; the leans otherwise
    leads = [1, 0, 2, 3] if strength >= 2 else [0, 1, 2, 3]
    return arrangements(clauses, leads, turn=f.turn)
