"""The surprise facet: how near the pair is in meaning set against their kinship (kin), or
what lies between and what ties them (strangers), with the evidence the corpus gives."""

from __future__ import annotations

from wander.adapters.llm.offline_facets.clauses import sentence_of, where_between
from wander.adapters.llm.offline_facets.facts import PairFacts
from wander.adapters.llm.offline_facets.words import domains, q, relation, shared, times
from wander.core.engine.ports import Knowledge


def surprise(kb: Knowledge, f: PairFacts) -> str:
    A, B = q(f.a.name), q(f.b.name)
    m = q(kb.concept(f.middle).label)
    if f.kin:
        text, evidence = _kin_surprise(f, A, B), ""
    else:
        text, evidence = _stranger_surprise(f, A, B, m), _stranger_evidence(f)
    if not evidence and f.kinds is not None and f.kinds_sim is not None:
        evidence = _against_kinds(f.sim, f.kinds, f.kinds_sim)
    elif not evidence and not f.mediated:
        evidence = f"even {m} is farther from each than they are from one another"
    if f.resonant:
        evidence += ("; " if evidence else "") + f"{B} lies near a theme the walk keeps returning to"
    leans = ""
    if f.leans_sim is not None and f.leans_sim < 0.15:
        leans = "what each leans toward has nothing in common with the other's"
    elif f.leans_sim is not None and f.leans_sim >= 0.45:
        leans = "what each leans toward lies close to the other's"
    opposite = "yet the corpus counts them as opposites" if f.opposite else ""
    back = f"the walk has met {B} {times(f.revisits)} before" if f.revisits > 0 else ""
    return sentence_of(text, evidence, leans, opposite, back)


def _kin_surprise(f: PairFacts, A: str, B: str) -> str:
    """Kin: how their distance in meaning sits with their kinship."""
    S = q(f.shared or "")
    kin = f"kinds of {S}" if f.kinship in ("siblings", "shared") else "one a kind of the other"
    if f.band == "close":
        if f.close_kin:
            return f"{A} and {B} are as near in meaning as {kin} should be"
        return f"{A} and {B} are nearer in meaning than their remote kinship through {S} suggests"
    if f.band == "middle":
        if f.close_kin:
            return f"{A} and {B} are {kin}, yet a middle distance apart: the kind is shared, the uses differ"
        return f"{A} and {B} are a middle distance apart, as cousins through {S} would be"
    if f.close_kin:
        return f"{A} and {B} are far apart for {kin}: more in common than their distance shows"
    return f"{A} and {B} are far apart, and their lineages meet only at {S}: little in common either way"


def _stranger_surprise(f: PairFacts, A: str, B: str, m: str) -> str:
    """No lineage in common, or one that meets only in a broad class (which the connection
    names): how near they are in meaning, and what lies between."""
    toward = where_between(f, f.middle_sims)
    if f.kinship == "broad":  # their kinds part early: the surprise is in the distance
        if f.band == "close":
            return f"{A} and {B} are close in meaning though their kinds part early: related by use, not by kind"
        if f.band == "middle" and f.mediated:
            return f"{A} and {B} lie a middle distance apart, and {m}, {toward}, stands nearer to each than they are to one another"
        if f.band == "middle":
            return f"{A} and {B} are a middle distance apart, {m} lying {toward}"
        if f.mediated:
            return f"far apart, {A} and {B} are spanned only by {m}, {toward} and nearer to each than they are to one another"
        return f"{A} and {B} are far apart in meaning, with {m} {toward}"
    if f.band == "close":
        return f"{A} and {B} are close in meaning with no lineage in common: related by use, not by kind"
    if f.band == "middle" and f.mediated:
        return f"{A} and {B} share no lineage, yet {m}, {toward}, stands nearer to each than they are to one another"
    if f.band == "middle":
        return f"{A} and {B} are a middle distance apart without a common lineage, {m} lying {toward}"
    if f.mediated:
        return f"nothing in the corpus makes {A} and {B} kin, and only {m}, {toward} and nearer to each than they are to one another, spans the gap"
    return f"{A} and {B} are strangers by kind and far apart in meaning, with {m} {toward}"


def _stranger_evidence(f: PairFacts) -> str:
    """What ties two concepts of no common lineage, if anything does."""
    if f.relations:
        return "what ties them is a relation, not a kind: " + relation(*f.relations[0])
    if f.shared_target:
        return "what they share is a relation, not a kind: " + shared(*f.shared_target)
    if f.gloss_link:
        return f"the definition of {q(f.gloss_link[0].name)} names {q(f.gloss_link[1].lemma)}"
    if f.common_domains:
        return f"both are matters of {domains(f.common_domains)}"
    return ""


def _against_kinds(sim: float, kinds: tuple[str, str], kinds_sim: float) -> str:
    """The pair's nearness set against their kinds' own, graded by the margin."""
    ka, kb_ = q(kinds[0]), q(kinds[1])
    gap = sim - kinds_sim
    if gap > 0.25:
        return f"their kinds, {ka} and {kb_}, barely touch, so the nearness belongs to the pair alone"
    if gap > 0.12:
        return f"they stand much nearer than {ka} and {kb_} in general do"
    if gap > 0.05:
        return f"they are nearer to each other than their kinds, {ka} and {kb_}, are"
    if gap < -0.12:
        return f"{ka} and {kb_} in general lie closer than these two members of them"
    if gap < -0.05:
        return f"they are farther apart than their kinds, {ka} and {kb_}, are"
    return f"they stand about as near as their kinds, {ka} and {kb_}, do"
