"""What every facet writer builds its sentences with: clauses joined into a sentence, where a
concept between the pair leans, whether a concept is in a lineage."""

from __future__ import annotations

from collections.abc import Sequence

from wander.adapters.llm.offline_facets.facts import PairFacts, lemma
from wander.adapters.llm.offline_facets.words import q
from wander.core.engine.ports import KnowledgeConcept

BALANCED = 0.06  # a concept this much nearer one side than the other still stands between them


def in_line(c: KnowledgeConcept, word: str | None) -> bool:
    return word is not None and (word in c.path or lemma(c) == word)


def sentence_of(*clauses: str) -> str:
    text = "; ".join(c for c in clauses if c)
    return text[0].upper() + text[1:] + "." if text else ""


def where_between(f: PairFacts, sims: tuple[float, float]) -> str:
    """Where a concept between the two leans: evenly, back toward a, or ahead toward b."""
    sa, sb = sims
    if abs(sa - sb) <= BALANCED:
        return "evenly between them"
    return f"back toward {q(f.a.name)}" if sa > sb else f"ahead toward {q(f.b.name)}"


Clause = tuple[str, ...]  # one fact's phrasings, the plainest first; () when the fact does not hold


def arrangements(
    clauses: Sequence[Clause], leads: Sequence[int] | None = None, most: int | None = None, turn: int = 0
) -> list[str]:
    """One sentence for each phrasing of each clause that may lead (the indices LEADS, in the
    order the facts rank them; every held clause in order when not given), the lead first
    and the other held clauses after it, in their own order (the first MOST of them, when
    given). TURN (PairFacts.turn: the pair's own, so the same pair reads the same) picks the
    phrasing a following clause takes and the lead's phrasing tried first: with the plainest
    every time, one clause ("... pulls toward ..., while ...") was said in four of five steps."""
    held = [i for i, c in enumerate(clauses) if c and c[0]]
    out: list[str] = []
    for i in [i for i in (leads if leads is not None else held) if i in held]:
        rest = [_phrasing(clauses[j], turn + j) for j in held if j != i][:most]
        said = [p for p in clauses[i] if p]
        k = turn % len(said)
        out += [sentence_of(p, *rest) for p in said[k:] + said[:k]]
    return out or [sentence_of(*(clauses[j][0] for j in held))]


def _phrasing(clause: Clause, turn: int) -> str:
    said = [p for p in clause if p]
    return said[turn % len(said)]
