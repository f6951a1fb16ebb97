"""The offline crystal's words: the breads' own relationship first, then the filling and
what it holds together, then what the rumination found (003's findings are the crystal's
evidence, and the text draws on them). Plain words from the corpus; the figures are in the
crystal's validity, not in the sentences."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from wander.core.domain.geometry import normalize
from wander.core.domain.models import Locus, Resonance
from wander.core.engine.ports import Knowledge

SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
LEAN_OWN = 0.5  # a bread's lean is a concept this near the bread itself
LEAN_CHOICES = 8  # of the concepts nearest the offset
LENS_WORDS = {
    "loci": "the places it has been",
    "connection": "its connections",
    "tension": "its tensions",
    "bridge": "its bridges",
    "surprise": "its surprises",
    "possibility": "its possibilities",
    "resonances": "its resonances",
    "crystals": "its earlier crystals",
    "failed_paths": "its failed paths",
    "constraints": "its constraints",
    "compost": "its compost",
}
RELATION_WORDS = {
    "parts": "has {y} as a part",
    "part_of": "is a part of {y}",
    "members": "has {y} among its members",
    "member_of": "is a member of {y}",
    "substances": "is made in part of {y}",
    "substance_of": "goes into {y}",
    "attributes": "is measured as {y}",
    "derivations": "shares its root with {y}",
    "verbs": "is tied to the verb {y}",
    "topics": "belongs to the topic of {y}",
    "topic_members": "is the topic {y} belongs to",
    "usages": "is a usage of {y}",
    "usage_members": "has {y} as one of its usages",
    "regions": "belongs to the region {y}",
    "region_members": "is the region {y} belongs to",
}
_DIGIT = re.compile(r"\d")
FACETS = ("connection", "tension", "bridge", "surprise", "possibility")


def lemma(kb: Knowledge, i: int) -> str:
    return kb.concept(i).label.split(" (")[0]


def lean_of(kb: Knowledge, own: np.ndarray, other: np.ndarray, exclude: list[int]) -> int | None:
    """Where a bread pulls away from the other: of the concepts nearest the offset from the
    other bread to it, the first that is also near the bread itself (the nearest to an
    offset alone can be unrelated: 'end run' for a stream set against 'aquatic')."""
    for i, _ in kb.nearest(normalize(own - other), LEAN_CHOICES, exclude=exclude):
        if float(normalize(kb.vector(i)) @ own) >= LEAN_OWN:
            return i
    return None


def bread_sentence(b1: Locus, b2: Locus, relation: str | None) -> str:
    """The breads' relationship without the filling (crystal_structure.bread_relation)."""
    x, y = f"'{b1.concept}'", f"'{b2.concept}'"
    kind, _, detail = (relation or "").partition(":")
    if kind == "relation":
        return f"{x} " + RELATION_WORDS.get(detail, "is linked to {y}").format(y=y)
    if kind == "relation_back":
        return f"{y} " + RELATION_WORDS.get(detail, "is linked to {y}").format(y=x)
    if kind == "opposites":
        return f"{x} and {y} are opposites in the corpus"
    if kind == "kind_of":
        return f"{x} is a kind of {y}" if detail == "first" else f"{y} is a kind of {x}"
    if kind == "kin":
        return f"{x} and {y} are both kinds of '{detail}'"
    if kind == "gloss":
        return f"the corpus defines one of {x} and {y} by way of the other"
    if kind == "similar":
        return f"{x} and {y} are near in meaning on their own, without sharing a kind"
    return f"{x} and {y} have no tie of their own"


def _finding(rum: Any) -> str:
    """The most telling thing the rumination brought back (its best-matching evidence that is
    not a locus name or a figure), and the lenses it found empty."""
    if rum is None or not getattr(rum, "steps", None):
        return ""
    best: tuple[float, str, str] | None = None
    empty: list[str] = []
    for step in rum.steps:
        if "rejected" in step:
            continue
        ids = step.get("evidence_ids") or []
        if not ids:
            empty.append(step["lens"])
            continue
        for i in ids:
            e = rum.evidence.get(i) or {}
            summary = str(e.get("summary") or "")
            if step["lens"] in ("loci", "constraints") or not summary or _DIGIT.search(summary):
                continue
            # the walk's own memory (resonances, crystals, failed paths, compost) before its facets
            rank = float(e.get("sim", 0.0)) + (0.0 if step["lens"] in FACETS else 1.0)
            if best is None or rank > best[0]:
                best = (rank, step["lens"], summary)
    out = []
    if best is not None:
        words = best[2].replace('"', "").split()
        quote = " ".join(words[:16]) + ("..." if len(words) > 16 else "")
        out.append(f'Ruminating, the walk found in {LENS_WORDS.get(best[1], best[1])}: "{quote}"')
    if empty:
        names = [LENS_WORDS.get(x, x).removeprefix("its ") for x in empty[:3]]
        gone = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
        out.append(f"it found no {gone} near it")
    return "; ".join(out) + "." if out else ""


def plain_insight(
    kb: Knowledge,
    b1: Locus,
    b2: Locus,
    a1: int,
    a2: int,
    f_i: int,
    resonance: Resonance | None,
    said: frozenset[str] = frozenset(),
    relation: str | None = None,
    rum: Any = None,
) -> str:
    """The breads' relationship, then the filling (glossed the first time this wander's
    crystals name it) and the sides it holds together, then the rumination's findings."""
    f = kb.concept(f_i)
    name = lemma(kb, f_i)
    glossed = any(f"'{name}' (" in p for p in said)
    joins = f"'{name}'" if glossed else f"'{name}' ({f.gloss.rstrip('. ')})"
    first = bread_sentence(b1, b2, relation)
    out = [first[0].upper() + first[1:] + f", and between them stands {joins}."]
    v1, v2 = normalize(b1.embedding), normalize(b2.embedding)
    i1, i2 = lean_of(kb, v1, v2, [a1, a2, f_i]), lean_of(kb, v2, v1, [a1, a2, f_i])
    if i1 is not None and i2 is not None:
        out.append(
            f"Where '{b1.concept}' leans toward '{lemma(kb, i1)}' and '{b2.concept}' toward "
            f"'{lemma(kb, i2)}', '{name}' holds the two sides together."
        )
    else:
        p1 = kb.concept(a1).path[0] if kb.concept(a1).path else "its own kind"
        p2 = kb.concept(a2).path[0] if kb.concept(a2).path else "its own kind"
        out.append(
            f"'{name}' joins a kind of '{p1}' to a kind of '{p2}'."
            if p1 != p2
            else f"'{name}' stands among the kinds of '{p1}' that both are."
        )
    found = _finding(rum)
    if found:
        out.append(found[0].upper() + found[1:])
    if resonance is not None and resonance.themes:
        themes = [t for t in resonance.themes[:3] if t != name]
        if themes:
            out.append(f"Through '{name}' the walk keeps returning to {', '.join(themes)}.")
    # a sentence this wander's crystals have said already is left out (the first, naming the
    # breads and the filling, always stays)
    return " ".join(out[:1] + [x for x in out[1:] if not any(p in said for p in SENTENCE_END.split(x))])
