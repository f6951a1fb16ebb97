"""The offline crystal's words: the breads' own relationship first, then the filling and
what it holds together, then what the rumination found (003's findings are the crystal's
evidence, and the text draws on them). Plain words from the corpus; the figures are in the
crystal's validity, not in the sentences."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import numpy as np

from wander.core.domain.geometry import normalize
from wander.core.domain.models import Locus, Resonance
from wander.core.engine.ports import Knowledge
from wander.core.engine.text_openings import Masker, choose

SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
LEAN_OWN = 0.5  # a bread's lean is a concept this near the bread itself
LEAN_CHOICES = 8  # of the concepts nearest the offset
NEAR = 0.6  # breads this similar are very near
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


def lean_of(
    kb: Knowledge, own: np.ndarray, other: np.ndarray, exclude: list[int], words: frozenset[str] = frozenset()
) -> int | None:
    """Where a bread pulls away from the other: of the concepts nearest the offset from the
    other bread to it, the first that is also near the bread itself (the nearest to an
    offset alone can be unrelated: 'end run' for a stream set against 'aquatic') and is not
    named by one of WORDS (a bread's own word: 'destiny' is no lean of 'destiny (happening)')."""
    for i, _ in kb.nearest(normalize(own - other), LEAN_CHOICES, exclude=exclude):
        if float(normalize(kb.vector(i)) @ own) >= LEAN_OWN and lemma(kb, i).lower() not in words:
            return i
    return None


def bread_sentences(b1: Locus, b2: Locus, relation: str | None, common: str = "") -> list[str]:
    """The breads' relationship without the filling (crystal_structure.bread_relation), in
    each phrasing it has, the plainest first; COMMON, a word both glosses use, backs a
    nearness that has no kind to rest on."""
    x, y = f"'{b1.concept}'", f"'{b2.concept}'"
    kind, _, detail = (relation or "").partition(":")
    if kind in ("relation", "relation_back"):
        s, o = (x, y) if kind == "relation" else (y, x)
        said = f"{s} " + RELATION_WORDS.get(detail, "is linked to {y}").format(y=o)
        return [said, f"the corpus ties them directly: {said}"]
    if kind == "opposites":
        return [f"{x} and {y} are opposites in the corpus", f"the corpus sets {x} against {y} as opposites"]
    if kind == "kind_of":
        s, o = (x, y) if detail == "first" else (y, x)
        return [f"{s} is a kind of {o}", f"{o} counts {s} among its kinds"]
    word = name_word(b1.concept, b2.concept)
    if kind == "kin":
        k = f"'{detail}'"
        out = [
            f"{x} and {y} are both kinds of {k}",
            f"{k} holds both {x} and {y}",
            f"as kinds of {k}, {x} and {y} are kin",
            f"under {k}, {x} and {y} belong together",
        ]
        if word:  # their names say part of it
            out.insert(0, f"sharing the word '{word}', {x} and {y} are also both kinds of {k}")
        return out
    if kind == "gloss":
        return [
            f"the corpus defines one of {x} and {y} by way of the other",
            f"one of {x} and {y} is defined through the other",
        ]
    if kind == "similar":
        out = [
            f"{x} and {y} are near in meaning on their own, without sharing a kind",
            f"no kind joins {x} and {y}, yet they lie near in meaning on their own",
            f"{x} lies near {y} in meaning by itself, though the corpus files them under no common kind",
            f"without a kind in common, {x} and {y} still lie near in meaning",
            f"though the corpus gives {x} and {y} no common kind, they lie near in meaning",
        ]
        if common:
            out.insert(0, f"both defined by way of '{common}', {x} and {y} are near in meaning without sharing a kind")
            out.insert(
                2, f"both definitions speak of '{common}': {x} and {y} lie near in meaning without sharing a kind"
            )
        if word:
            out.insert(0, f"{x} and {y} share the word '{word}' and lie near in meaning, though no kind joins them")
        return out
    return [f"{x} and {y} have no tie of their own"]


def name_word(first: str, second: str) -> str:
    """A word of three letters or more both names use ('chamber music', 'rock music': 'music')."""
    words = [w for w in re.findall(r"[a-z]+", first.split(" (")[0].lower()) if len(w) >= 3 and w not in STOP]
    other = set(re.findall(r"[a-z]+", second.split(" (")[0].lower()))
    return next((w for w in words if w in other), "")


def bread_sentence(b1: Locus, b2: Locus, relation: str | None) -> str:
    """The breads' relationship without the filling, in its plainest words."""
    return bread_sentences(b1, b2, relation)[0]


STOP = frozenset(
    "a an the of and or to in on for by with as at from that which who whom this these those "
    "is are be being been it its their one ones some any such other used especially usually "
    "something someone person thing things act state kind part having into more than very also "
    "made make makes often various form forms there where when what them they have each many "
    "much most like same group people typically another".split()
)


def gloss_word(first: str, second: str, own: set[str]) -> str:
    """A word of four letters or more that both definitions use, in the first's order (not a
    common word, nor one of OWN: the names' own words)."""

    def words(text: str) -> list[str]:
        return [w for w in re.findall(r"[a-z]+", text.lower()) if len(w) >= 4 and w not in STOP]

    other = set(words(second))
    return next((w for w in words(first) if w in other and w not in own), "")


def common_word(kb: Knowledge, a1: int, a2: int, f_i: int) -> str:
    """A word both breads' glosses use (not a word of either bread's or the filling's name)."""
    own = {w.lower() for i in (a1, a2, f_i) for w in re.findall(r"[A-Za-z]+", kb.concept(i).label)}
    return gloss_word(kb.concept(a1).gloss, kb.concept(a2).gloss, own)


def _joins(joins: str) -> list[str]:
    """The filling that stands between the breads, said after their own tie."""
    return [
        f"Between them stands {joins}.",
        f"{joins} stands between them.",
        f"What sits between the two is {joins}.",
        f"The filling is {joins}.",
        f"Holding the two together is {joins}.",
        f"{joins} is what holds them together.",
    ]


LENS_FIRST = {  # how a find reads from the walk's memory, by the lens that found it
    "resonances": "Looking back through its resonances, the walk found {quote}.",
    "crystals": "Its earlier crystals had come near it: {quote}.",
    "failed_paths": "Even a failed path had touched it: {quote}.",
    "compost": "From its compost the rumination dug up {quote}.",
}


def _finding(rum: Any, names: tuple[str, ...] = ()) -> tuple[list[str], list[str]]:
    """The most telling thing the rumination brought back (its best-matching evidence that is
    not a locus name or a figure), and the lenses it found empty, each in its phrasings; a
    find that names one of NAMES (the filling's, then the breads') says so first."""
    if rum is None or not getattr(rum, "steps", None):
        return [], []
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
    gone: list[str] = []
    if empty:
        lenses = [LENS_WORDS.get(x, x).removeprefix("its ") for x in empty[:3]]
        said = lenses[0] if len(lenses) == 1 else ", ".join(lenses[:-1]) + " or " + lenses[-1]
        held = lenses[0] if len(lenses) == 1 else ", ".join(lenses[:-1]) + " and " + lenses[-1]
        gone = [
            f"It found no {said} near it.",
            f"Its {held} held nothing near it.",
            f"Nothing in its {said} came near it.",
        ]
    if best is None:
        return [], gone
    words = best[2].replace('"', "").split()
    quote = '"' + " ".join(words[:16]) + ("..." if len(words) > 16 else "") + '"'
    where = LENS_WORDS.get(best[1], best[1])
    out = [
        f"Ruminating, the walk found in {where}: {quote}.",
        f"In {where} the rumination found {quote}.",
        f"The rumination's best find came from {where}: {quote}.",
    ]
    if best[1] in LENS_FIRST:  # the walk's memory is looked back on; a facet is found
        out.insert(0, LENS_FIRST[best[1]].format(quote=quote))
    named = next((n for n in names if re.search(r"(?<!\w)" + re.escape(n.lower()) + r"(?!\w)", best[2].lower())), None)
    if named is not None:  # the find already names the filling (or a bread): that leads
        had = "it" if named == names[0] else f"'{named}'"
        out.insert(0, f"{where[0].upper() + where[1:]} had named {had} already: {quote}.")
    return out, gone


def _sides(kb: Knowledge, b1: Locus, b2: Locus, a1: int, a2: int, f_i: int, name: str) -> list[str]:
    """How the filling holds the two: a corpus relation of the filling to a bread, where each
    bread leans against the other, or the kinds it joins; each in several phrasings."""
    x, y = f"'{b1.concept}'", f"'{b2.concept}'"
    out: list[str] = []
    between = getattr(kb, "relations_between", None)
    if between is not None:
        for bread, i in ((b1, a1), (b2, a2)):
            kinds = [k for k in between(f_i, i) if k != "antonyms"]
            if kinds:
                said = f"'{name}' " + RELATION_WORDS.get(kinds[0], "is linked to {y}").format(y=f"'{bread.concept}'")
                out += [
                    f"The corpus ties the filling to one bread outright: {said}.",
                    f"Of the two, the corpus binds it to '{bread.concept}' itself: {said}.",
                ]
                break
    v1, v2 = normalize(b1.embedding), normalize(b2.embedding)
    own = frozenset(
        w.lower() for w in (lemma(kb, a1), lemma(kb, a2), b1.concept.split(" (")[0], b2.concept.split(" (")[0])
    )
    i1, i2 = lean_of(kb, v1, v2, [a1, a2, f_i], own), lean_of(kb, v2, v1, [a1, a2, f_i], own)
    if i1 is not None and i2 is not None:
        l1, l2 = f"'{lemma(kb, i1)}'", f"'{lemma(kb, i2)}'"
        out += [
            f"Where {x} leans toward {l1} and {y} toward {l2}, '{name}' holds the two sides together.",
            f"{x} pulls toward {l1}, {y} toward {l2}; '{name}' keeps them within reach of each other.",
            f"'{name}' holds together the pull of {x} toward {l1} and of {y} toward {l2}.",
            f"Set against each other, {x} leans to {l1} and {y} to {l2}, and '{name}' is where they still meet.",
        ]
    p1 = kb.concept(a1).path[0] if kb.concept(a1).path else "its own kind"
    p2 = kb.concept(a2).path[0] if kb.concept(a2).path else "its own kind"
    if p1 != p2:
        out += [
            f"'{name}' joins a kind of '{p1}' to a kind of '{p2}'.",
            f"Through '{name}', a kind of '{p1}' meets a kind of '{p2}'.",
        ]
    else:
        out += [
            f"'{name}' stands among the kinds of '{p1}' that both are.",
            f"Both are kinds of '{p1}', and so, near them, is '{name}'.",
        ]
    return out


def _themes(resonance: Resonance | None, name: str) -> list[str]:
    if resonance is None or not resonance.themes:
        return []
    themes = [t for t in resonance.themes[:3] if t != name]
    if not themes:
        return []
    t = ", ".join(themes)
    return [
        f"Through '{name}' the walk keeps returning to {t}.",
        f"The walk keeps coming back to {t}, and '{name}' is on that way.",
        f"{t[0].upper() + t[1:]}: the themes the walk returns to run through '{name}'.",
    ]


def _pick(options: list[str], used: Counter[str], said: frozenset[str], masker: Masker) -> str:
    """The first phrasing not said already whose opening this wander's insights have not
    worn out (text_openings.LIMIT uses); "" when every phrasing was said."""
    fresh = [o for o in options if not any(p in said for p in SENTENCE_END.split(o))]
    return choose(fresh, used, masker) if fresh else ""


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
    crystals name it) and the sides it holds together, then the rumination's findings and the
    themes it returns to. Each sentence in the first of its phrasings whose opening this
    wander's earlier insights (SAID) have not used LIMIT times; a sentence said already is
    left out (the first, the breads' tie, always stays, in words not said yet where it can)."""
    f = kb.concept(f_i)
    name = lemma(kb, f_i)
    glossed = any(f"'{name}' (" in p for p in said)
    joins = f"'{name}'" if glossed else f"'{name}' ({f.gloss.rstrip('. ')})"
    masker = Masker()
    used = Counter(masker.opening(p) for p in said if p.strip())
    common = common_word(kb, a1, a2, f_i) if (relation or "").startswith("similar") else ""
    breads = bread_sentences(b1, b2, relation, common)
    if relation == "similar" and not common and float(normalize(b1.embedding) @ normalize(b2.embedding)) >= NEAR:
        breads = breads[2:] + breads[:2]  # very near breads: their nearness is the first thing said
    firsts = [b[0].upper() + b[1:] + "." for b in breads]
    # another crystal on the same breads says their tie another way, where it can
    out = [choose([s for s in firsts if s not in said] or firsts, used, masker)]
    findings, gone = _finding(rum, (name, b1.concept.split(" (")[0], b2.concept.split(" (")[0]))
    filling = _joins(joins)
    out.append(_pick(filling, used, said, masker) or choose(filling, used, masker))
    for options in (_sides(kb, b1, b2, a1, a2, f_i, name), findings, gone, _themes(resonance, name)):
        picked = _pick(options, used, said, masker)
        if picked:
            out.append(picked)
    return " ".join(out)
