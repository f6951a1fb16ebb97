"""The possibility facet: the likeliest filling between the two, how firmly it mediates, which
side's field it comes from, how it stands to the pair in the corpus, and whether it lies
nearer the attractor; what is most telling of the filling leads."""

from __future__ import annotations

from wander.adapters.llm.offline_facets.clauses import in_line, sentence_of, where_between
from wander.adapters.llm.offline_facets.facts import PairFacts, lemma
from wander.adapters.llm.offline_facets.words import domains, gloss, q, relation
from wander.core.engine.ports import Knowledge, KnowledgeConcept

STRONG_FILLING = 0.1  # a filling this much nearer each side than the sides are to each other
# What the facet calls its filling, the pair's own pick (PairFacts.turn): one name for it
# closed two of three possibility facets.
CANDIDATE = ("a candidate filling", "a possible go-between", "one way to join them", "a middle term to try")
STRONG = ("a strong candidate filling", "a firm go-between", "the middle term to try first")
NEARER_GOAL = ("it lies nearer the attractor than either", "of the three, it lies nearest the attractor")


def _filling_kind(c: KnowledgeConcept, f: PairFacts) -> tuple[str, str]:
    """How the filling stands to the pair in the corpus (a relation to a side, the kind both
    are, a side's own kind, a kind of a side, a kind it shares with a side), said of 'it'
    and of its name; ("", "") when the corpus says nothing of it."""
    F = q(c.label)
    if f.filling_relation:
        r = relation(*f.filling_relation)
        return r, r
    if f.shared and f.kin and in_line(c, f.shared):
        return f"it is itself a kind of {q(f.shared)}", f"{F} is itself a kind of {q(f.shared)}"
    for s in (f.a, f.b) if c.path else ():
        if lemma(c) in s.concept.path:  # the filling is what a side is a kind of
            return f"it is what {q(s.name)} is a kind of", f"{F} is what {q(s.name)} is a kind of"
        if c.path[0] == s.lemma:  # the filling is a kind of a side itself
            return f"it is a kind of {q(s.name)}", f"{F} is a kind of {q(s.name)}"
        if c.path[0] in s.line:
            return (
                f"it is a kind of {q(c.path[0])}, as {q(s.name)} is",
                f"{F}, like {q(s.name)}, is a kind of {q(c.path[0])}",
            )
    return "", ""


def _field(kb: Knowledge, c: KnowledgeConcept, f: PairFacts) -> str:
    own = set(c.domains)
    dom_a = set(f.common_domains) | set(f.only_a)
    dom_b = set(f.common_domains) | set(f.only_b)
    if own & dom_a and own & dom_b:
        return ""
    if own & dom_a:
        return "from the side the walk comes from"
    if own & dom_b:
        return "from the side the walk goes to"
    return f"from a third field, {domains(list(c.domains))}"


def possibility(kb: Knowledge, f: PairFacts) -> list[str]:
    c = kb.concept(f.filling)
    F = f"{q(c.label)} ({gloss(c, 10)})"
    field = _field(kb, c, f)
    kind, kind_named = _filling_kind(c, f)
    toward = where_between(f, f.filling_sims)
    where = f", {field}," if field else ""
    goal = ""
    if f.filling_attractor is not None and f.filling_attractor > 0.02:
        goal = NEARER_GOAL[f.turn % len(NEARER_GOAL)]
    elif f.filling_recurs:
        goal = "the walk has named it among its themes already"
    margin = min(f.filling_sims) - f.sim
    near = ""
    tag = STRONG[f.turn % len(STRONG)] if margin > STRONG_FILLING else CANDIDATE[f.turn % len(CANDIDATE)]
    if margin > STRONG_FILLING:
        near = "clearly nearer to each than they are to one another"
        heads = [
            f"{F}{where} could stand {toward}, {near}: {tag}",
            f"{tag}{where.rstrip(',')}: {F}, {toward}, {near}",
        ]
    elif margin > 0:
        heads = [
            f"{F}{where} could stand {toward}: {tag}",
            f"{tag}{where.rstrip(',')}: {F}, {toward}, a little nearer to each than they are to one another",
        ]
    else:  # nothing near them mediates: the likeliest filling is named for what it is
        heads = [
            f"the likeliest filling, {F}{where or ','} lies {toward}, yet no nearer to either than they are to one another",
            f"nothing near them mediates: the likeliest filling, {F}{where or ','} lies {toward}",
            f"{F}{where} is the likeliest filling, {toward}, though no nearer to either than they are to one another",
        ]
    out = [sentence_of(h, kind, goal) for h in heads]
    core = {
        True: f"could stand {toward}" + (f", {near}: {tag}" if margin > STRONG_FILLING else f": {tag}"),
        False: f"lies {toward} as the likeliest filling, yet no nearer to either than they are to one another",
    }[margin > 0]
    leads = []
    if field:  # where the filling comes from leads
        leads.append(sentence_of(f"{field}, {F} {core}", kind, goal))
    if kind_named:  # how the corpus places it leads
        leads.append(sentence_of(f"{kind_named}, and it {core}", goal))
    if goal in NEARER_GOAL:
        leads.append(sentence_of(f"nearer the attractor than either, {F} {core}", kind))
    # the corpus's own word on the filling leads where it states a relation to a side
    return leads + out if f.filling_relation else out[:1] + leads + out[1:]
