"""The bridge facet: what carries the step from one field to another (a concept of both
sides' domains, a shared topic, what one side does), or, within one field, what the view from
outside is; whether it crosses from things to ideas, and toward the attractor or away."""

from __future__ import annotations

from wander.adapters.llm.offline_facets.clauses import Clause, arrangements, where_between
from wander.adapters.llm.offline_facets.facts import TOWARD, PairFacts
from wander.adapters.llm.offline_facets.words import domains, gloss, q, realm, role, shared
from wander.core.engine.ports import Knowledge


def _translator(kb: Knowledge, f: PairFacts, dom_a: set[str], dom_b: set[str]) -> int | None:
    for i, _ in f.mids:
        c = set(kb.concept(i).domains)
        if c & dom_a and c & dom_b:
            return i
    return None


def _link(f: PairFacts) -> Clause:
    if f.shared_target and f.shared_target[0] in ("topics", "usages", "regions"):
        s = shared(*f.shared_target)
        return ("what carries the crossing: " + s, "the crossing is carried by a tie both have: " + s)
    if f.doing_b and not f.doing_a:
        r = role(f.b.name, f.doing_b)
        return ("on the far side, " + r, r + ", on the side the walk reaches")
    if f.doing_a and not f.doing_b:
        r = role(f.a.name, f.doing_a)
        return ("on the near side, " + r, r + ", on the side the walk leaves")
    if f.gloss_link:
        x, y = f.gloss_link
        return (
            f"the definition of {q(x.name)} names {q(y.lemma)} outright",
            f"{q(y.lemma)} is named outright in the definition of {q(x.name)}",
        )
    return ()


def _crossing(kb: Knowledge, f: PairFacts, dom_a: set[str], link: Clause) -> tuple[Clause, Clause]:
    """Into a field the near side lacks: the concept both fields hold, or what stands nearest."""
    t = _translator(kb, f, dom_a, set(f.only_b))
    src, dst = (domains(sorted(dom_a)) if dom_a else "no named domain"), domains(f.only_b)
    at = where_between(f, f.middle_sims)
    if t is not None:
        c = kb.concept(t)
        C = f"{q(c.label)} ({gloss(c)})"
        return (
            f"going from {src} into {dst}, {C} belongs to both sides",
            f"{C} belongs to both {src} and {dst}, the two sides of this step",
        ), ()
    c = kb.concept(f.middle)
    own = set(c.domains)
    if link:
        return (
            f"going from {src} into {dst}, no concept near them belongs to both",
            f"nothing near this step belongs to both {src} and {dst}",
        ), ()
    if own & dom_a:
        return (f"no concept near them belongs to both {src} and {dst}",), (
            f"the nearest foothold, {q(c.label)}, {at}, stays on the side the walk leaves",
            f"{q(c.label)}, the nearest foothold, {at}, stays behind on the side the walk leaves",
        )
    if own & set(f.only_b):
        return (
            f"the walk lands in {dst} with nothing from {src} to carry across",
            f"nothing from {src} comes along into {dst}",
        ), (f"{q(c.label)}, already on the far side, stands nearest the crossing, {at}",)
    third = f"from a third field, {domains(list(c.domains))}, " if c.domains else ""
    return (
        f"{src} and {dst} have no concept in common near this step",
        f"near this step, no concept is of both {src} and {dst}",
    ), (
        f"the gap is spanned {third}by {q(c.label)}, {at}",
        f"{q(c.label)} spans the gap {third.rstrip(', ')}, {at}".replace(" ,", ","),
    )


def bridge(kb: Knowledge, f: PairFacts) -> list[str]:
    A, B = q(f.a.name), q(f.b.name)
    dom_a = set(f.common_domains) | set(f.only_a)
    dom_b = set(f.common_domains) | set(f.only_b)
    link = _link(f)
    crossing: Clause = ()
    if f.realms[0] != f.realms[1] and all(f.realms):
        ra, rb = realm(f.realms[0]), realm(f.realms[1])
        crossing = (f"the step crosses from {ra} to {rb}", f"from {ra} the step passes to {rb}")
    goal: Clause = ()
    if f.attractor_shift is not None and abs(f.attractor_shift) > TOWARD:
        way = "toward" if f.attractor_shift > 0 else "away from"
        goal = (f"a crossing {way} the attractor", f"the step leads {way} the attractor")
    back: Clause = ()
    if f.back is not None:  # the walk's own history: where it stood two steps back
        P = q(f.back[0])
        if f.back[1] == "toward":
            back = (
                f"the walk turns back toward {P}, where it stood two steps ago",
                f"two steps ago the walk stood at {P}, and {B} lies nearer it than {A} does",
            )
        else:
            back = (
                f"{B} takes the walk farther from {P}, where it stood two steps ago",
                f"two steps ago the walk stood at {P}; {B} lies farther from it than {A} does",
            )
    if f.only_b:
        into, foothold = _crossing(kb, f, dom_a, link)
        return arrangements(
            [into, crossing, link or foothold, goal, back],
            [2, 0, 4, 1, 3] if link else [0, 4, 2, 1, 3],
            most=3,
            turn=f.turn,
        )
    head: Clause
    outside = next((i for i, _ in f.mids if not set(kb.concept(i).domains) & (dom_a | dom_b)), None)
    where = domains(f.common_domains)
    if f.only_a:
        head = (
            f"{B} narrows the {domains(sorted(dom_a))} of {A} down to {where}",
            f"from {A} to {B} the field narrows to {where}",
        )
    else:
        head = (f"both stay within {where}", f"the step keeps to {where}", f"{A} and {B} are both of {where}")
    if outside is not None:
        o = kb.concept(outside)
        tail: Clause = (
            f"the nearest view from outside is {q(o.label)}, from {domains(list(o.domains))}",
            f"from outside, {domains(list(o.domains))} looks on through {q(o.label)}",
        )
    else:
        m = q(kb.concept(f.middle).label)
        tail = (f"so does everything around their midpoint, led by {m}",)
    # the midpoint's company follows the field it stays in; a view from outside may lead
    leads = [0, 2, 4] + ([1] if outside is not None else [])
    return arrangements([head, tail, crossing, link, back], [3, *leads] if link else [*leads, 3], most=3, turn=f.turn)
