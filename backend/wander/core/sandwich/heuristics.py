"""The identification heuristics of 004 (3.2.2), each finding bread pairs its own way and
naming itself on what it finds:

1. explicit bounds:        "between A and B", "from A to B", "A < x < B", date ranges, "bounded by"
2. conceptual oppositions: "A versus B", "A rather than B", "not A but B", corpus opposites
3. hierarchical frames:    "A is a kind of B", "theory ... practice", corpus broader/narrower chains
4. temporal brackets:      "begins with A and ends with B", "A leads to B", "first A, then B", "before/after"
5. perspectival bounds:    "according to A ... according to B", "from the perspective of", two
                           mentioned concepts of different domains (discipline X / discipline Y)

A heuristic gives Pairs: two bread phrases (or corpus concepts), an explicit filling phrase
when the text names one, the evidence (the words or the corpus relation) and a strength.
The identifier turns phrases into ingredients and finds the filling."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from wander.core.engine.ports import Knowledge
from wander.core.sandwich.model import Ingredient

EXPLICIT_BOUNDS = "explicit bounds"
OPPOSITION = "conceptual opposition"
HIERARCHY = "hierarchical frame"
TEMPORAL = "temporal bracket"
PERSPECTIVAL = "perspectival bound"
HEURISTICS = (EXPLICIT_BOUNDS, OPPOSITION, HIERARCHY, TEMPORAL, PERSPECTIVAL)
TYPE_HINT = {  # the structural type each heuristic suggests (004, 4.2)
    EXPLICIT_BOUNDS: "Bound",
    OPPOSITION: "Dialectic",
    HIERARCHY: "Definitional",
    TEMPORAL: "Temporal",
    PERSPECTIVAL: "Perspectival",
}

TEXT, RELATION = 1.0, 0.8  # strengths: the text says it outright; the corpus says it


@dataclass(frozen=True)
class Pair:
    heuristic: str
    a: str | Ingredient  # a phrase of the text, or a mentioned corpus concept
    b: str | Ingredient
    evidence: str
    strength: float
    filling: str | Ingredient | None = None


P = r"(?:the |a |an |its |their |his |her |our |this |that )?(?P<{}>[A-Za-z][\w'-]*(?: [A-Za-z][\w'-]*){{0,3}}?)"
END = (
    r"(?=\s*(?:[,.;:!?)]|$|\s(?:is|are|was|were|lies|lie|sits|that|which|where|when|in|on|of|for|with|and|but"
    r"|through|by|across|over|into|at|as|from|after|before|during|within|while|so)\b))"
)


def _p(name: str) -> str:
    return P.format(name)


SUBJECT = r"(?:the |a |an )?(?P<f>[A-Za-z][\w'-]*(?: [A-Za-z][\w'-]*){0,2}?)\s+(?:lies|lie|sits|sit|falls|fall|stands|stand|runs|run|is|are|was|were|moves|move|hangs|hang)\s+(?:somewhere\s+|halfway\s+|always\s+)?"
PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (h, re.compile(p, re.IGNORECASE))
    for h, p in (
        (EXPLICIT_BOUNDS, SUBJECT + r"between " + _p("a") + r" and " + _p("b") + END),
        (EXPLICIT_BOUNDS, r"\bbetween " + _p("a") + r" and " + _p("b") + END),
        (EXPLICIT_BOUNDS, r"\bbounded (?:above |below )?by " + _p("a") + r" and (?:by )?" + _p("b") + END),
        (EXPLICIT_BOUNDS, r"\bfrom " + _p("a") + r" (?:to|through) " + _p("b") + END),
        (
            EXPLICIT_BOUNDS,
            r"(?P<a>-?\d[\d.,]*)\s*(?:<=?|≤)\s*(?P<f>[A-Za-z][\w ]{0,30}?)\s*(?:<=?|≤)\s*(?P<b>-?\d[\d.,]*)",
        ),
        (EXPLICIT_BOUNDS, r"\b(?P<a>1\d{3}|20\d{2})\s*(?:-|–|to|until)\s*(?P<b>1\d{3}|20\d{2})\b"),
        (EXPLICIT_BOUNDS, r"\bat least " + _p("a") + r" (?:and|but) at most " + _p("b") + END),
        (OPPOSITION, _p("a") + r"\s+(?:versus|vs\.?|as opposed to|rather than|instead of)\s+" + _p("b") + END),
        (OPPOSITION, r"\bnot " + _p("a") + r",? but (?:rather )?" + _p("b") + END),
        (OPPOSITION, r"\bon the one hand,? " + _p("a") + r"\b.*?\bon the other(?: hand)?,? " + _p("b") + END),
        (OPPOSITION, r"\b(?P<a>thesis|pros?|assumptions?)\b.*?\b(?P<b>antithesis|cons?|conclusions?)\b"),
        (HIERARCHY, _p("a") + r" (?:is|are) (?:a|an|one) (?:kind|type|form|sort|species|branch) of " + _p("b") + END),
        (
            HIERARCHY,
            r"\b(?P<a>theory|abstract|general|principle)\b.*?\b(?P<b>practice|concrete|specific|particular|application)\b",
        ),
        (
            TEMPORAL,
            r"\b(?:begins|starts|opens) with " + _p("a") + r"\b.*?\b(?:ends|finishes|closes) with " + _p("b") + END,
        ),
        (TEMPORAL, _p("a") + r" (?:leads to|causes|gives rise to|turns into|becomes|results in) " + _p("b") + END),
        (TEMPORAL, r"\bfirst,? " + _p("a") + r"\b.*?\b(?:then|finally|later),? " + _p("b") + END),
        (TEMPORAL, r"\bafter " + _p("a") + r"\b.*?\bbefore " + _p("b") + END),
        (TEMPORAL, r"\b(?P<a>input|cause|start|beginning|birth)s?\b.*?\b(?P<b>output|effect|end|ending|death)s?\b"),
        (PERSPECTIVAL, r"\baccording to " + _p("a") + r"\b.*?\baccording to " + _p("b") + END),
        (
            PERSPECTIVAL,
            r"\bfrom the (?:perspective|point of view|standpoint) of "
            + _p("a")
            + r"\b.*?\b(?:of|for) "
            + _p("b")
            + END,
        ),
        (PERSPECTIVAL, r"\b(?:for|to) " + _p("a") + r",.*?\bwhereas (?:for|to) " + _p("b") + END),
    )
)
SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


def sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE.split(text) if len(s.strip()) > 8]


def textual(text: str) -> list[Pair]:
    """Every pattern's matches, sentence by sentence (the same pair once per heuristic)."""
    out: list[Pair] = []
    seen: set[tuple[str, str, str]] = set()
    for s in sentences(text):
        for heuristic, pattern in PATTERNS:
            for m in pattern.finditer(s):
                a, b = m.group("a").strip(), m.group("b").strip()
                key = (heuristic, a.lower(), b.lower())
                if a.lower() == b.lower() or key in seen:
                    continue
                seen.add(key)
                f = m.groupdict().get("f")
                out.append(Pair(heuristic, a, b, f"'{m.group(0).strip()[:160]}'", TEXT, f.strip() if f else None))
    return out


def relational(knowledge: Knowledge, ings: Sequence[Ingredient], similar: Callable[[int, int], float]) -> list[Pair]:
    """Pairs the corpus's relations make of the concepts the text mentions: opposites,
    broader/narrower chains (the concept between them on the chain is the filling), and
    concepts of different domains related without being the same idea."""
    out: list[Pair] = []
    index = {x.index: i for i, x in enumerate(ings) if x.index >= 0}
    for i, x in enumerate(ings):
        if x.index < 0:
            continue
        for o in knowledge.opposites(x.index):
            j = index.get(o)
            if j is not None and j > i:
                out.append(
                    Pair(
                        OPPOSITION,
                        x,
                        ings[j],
                        f"'{x.label}' and '{ings[j].label}' are opposites in the corpus",
                        RELATION,
                    )
                )
        chain = [x.index]
        for _ in range(4):
            up = knowledge.broader(chain[-1])
            if not up:
                break
            chain.append(up[0])
        above = [(d, index[c]) for d, c in enumerate(chain) if d and c in index and index[c] != i]
        if above:
            depth, top = above[-1]  # the most general concept the text mentions on the chain
            f: Ingredient | None = None
            if len(above) > 1:  # a mentioned concept between them on the chain
                f = ings[above[0][1]]
            elif depth > 1:  # the corpus's own level between them
                c = knowledge.concept(chain[1])
                f = Ingredient(chain[1], c.label, tuple(c.domains), knowledge.vector(chain[1]))
            path = " > ".join(knowledge.concept(c).label for c in reversed(chain[: depth + 1]))
            out.append(Pair(HIERARCHY, ings[top], x, f"'{path}' in the corpus", RELATION, f))
    for i, x in enumerate(ings):
        for j in range(i + 1, len(ings)):
            y = ings[j]
            if x.domains and y.domains and x.domains[0] != y.domains[0] and 0.3 < similar(i, j) < 0.9:
                out.append(
                    Pair(
                        PERSPECTIVAL,
                        x,
                        y,
                        f"'{x.label}' ({x.domains[0]}) and '{y.label}' ({y.domains[0]}) see from two domains",
                        0.5 + 0.3 * similar(i, j),
                    )
                )
    return out
