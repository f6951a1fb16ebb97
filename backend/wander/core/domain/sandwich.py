"""The sandwich (seed 004): two bread concepts bounding a filling (the insight), its validity

    V = 0.25 BreadCompat + 0.35 Containment + 0.20 NonTriviality + 0.20 Novelty

computed from embeddings, and the 10-type structural taxonomy. Pure math, no I/O.

The gate has two layers. Hard failures reject a sandwich whatever V says: breads that are
unrelated (nonsense) or the same idea, a filling that restates a bread or is one of its
broader concepts in the corpus (trivial: "animal" between "dog" and "cat" explains nothing),
a filling that does not mediate at all, or a repeat of an existing crystal. The four parts
are graded (none saturates for ordinary sandwiches), so V ranks what passes."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wander.core.domain.geometry import normalize

WEIGHTS = {"bread_compat": 0.25, "containment": 0.35, "non_triviality": 0.20, "novelty": 0.20}
BREAD_MIN, BREAD_MAX = 0.3, 0.9  # bread related (> 0.3) but not the same idea (< 0.9)
TRIVIAL = 0.85  # a filling this similar to a bread only restates it
DUPLICATE = 0.1  # novelty below this: the crystal repeats an existing one
GLOSS_ECHO = 0.9  # an insight this similar to one corpus definition says nothing of its own
ACCEPT, REVIEW = 0.7, 0.5
MEDIATES = 0.5  # containment from which the filling stands nearer each bread than they to each other

TAXONOMY = {
    "Bound": "upper and lower limits that bound a quantity between them, like the squeeze theorem",
    "Dialectic": "a thesis and its antithesis resolved in a synthesis, like the Hegelian triad",
    "Epistemic": "an assumption and the evidence that together lead to a conclusion, like scientific inference",
    "Temporal": "what came before and what came after, joined by the transition between them, like a history",
    "Perspectival": "two viewpoints reconciled by an interdisciplinary synthesis",
    "Conditional": "a necessary and a sufficient condition characterising a target property",
    "Stochastic": "a prior belief and a likelihood combined into a posterior, like Bayesian inference",
    "Optimization": "constraints on either side that determine an optimum, like constrained optimization",
    "Negotiation": "two positions that meet in a compromise, like a diplomatic agreement",
    "Definitional": "a genus and a differentia that define a concept, like an Aristotelian definition",
}


@dataclass(frozen=True)
class Structure:
    """What the corpus says of a sandwich's shape (engine.crystal_structure reads it): why
    the filling is trivial (None: it is not), the ingredients among the corpus's most
    abstract concepts, whether the breads are the same kind of thing, how they relate
    without the filling (None: the bread test fails), and whether a name only says another
    again (the filling's a bread's, or the breads' each other's)."""

    trivial: str | None = None
    abstract: tuple[str, ...] = ()
    homologous: bool = True
    bread_relation: str | None = "unchecked"
    gloss_echo: tuple[float, str] = (0.0, "")  # the insight's similarity to its nearest definition, and whose
    names_alike: str | None = None  # why the names say a word again (the filling's reads as a bread's), or None

    def failures(self) -> list[str]:
        out = []
        if self.trivial:
            out.append(f"trivial: {self.trivial}")
        if self.names_alike:
            out.append(f"names alike: {self.names_alike}")
        if self.abstract:
            out.append(
                "specificity: " + ", ".join(f"'{x}'" for x in self.abstract) + " among the most abstract concepts"
            )
        if not self.homologous:
            out.append("structural homology: the breads are not the same kind of thing")
        if self.bread_relation is None:
            out.append("bread test: the breads do not relate without the filling")
        if self.gloss_echo[0] >= GLOSS_ECHO:
            out.append(f"restates a definition: the insight says what the gloss of '{self.gloss_echo[1]}' says")
        return out


@dataclass(frozen=True)
class Validity:
    bread_compat: float
    containment: float
    non_triviality: float
    novelty: float
    bread_similarity: float
    filling_similarities: tuple[float, float]
    filling_in_lineage: bool = False  # the filling is a broader concept of a bread in the corpus
    structure: Structure | None = None

    @property
    def v(self) -> float:
        return (
            WEIGHTS["bread_compat"] * self.bread_compat
            + WEIGHTS["containment"] * self.containment
            + WEIGHTS["non_triviality"] * self.non_triviality
            + WEIGHTS["novelty"] * self.novelty
        )

    def hard_failures(self) -> list[str]:
        out = []
        if self.bread_similarity <= BREAD_MIN:
            out.append("nonsense: the breads are unrelated")
        elif self.bread_similarity >= BREAD_MAX:
            out.append("the breads are the same idea")
        if self.filling_in_lineage:
            out.append("trivial: the filling is a broader concept of a bread")
        elif max(self.filling_similarities) >= TRIVIAL:
            out.append("trivial: the filling restates a bread")
        if self.containment <= 0.0:
            out.append("the filling does not mediate between the breads")
        if self.novelty < DUPLICATE:
            out.append("a repeat of an existing crystal")
        if self.structure is not None:
            out += [x for x in self.structure.failures() if not (self.filling_in_lineage and x.startswith("trivial"))]
        return out

    @property
    def verdict(self) -> str:
        """Rejected on a hard failure or below REVIEW; accepted from ACCEPT only where the filling
        mediates (004, definition 4.3: nearer each bread than the breads are to each other,
        containment MEDIATES or more); otherwise marginal, for review."""
        if self.hard_failures():
            return "rejected"
        if self.v >= ACCEPT and self.containment >= MEDIATES:
            return "accepted"
        return "review" if self.v >= REVIEW else "rejected"

    def reasons(self) -> list[str]:
        out = self.hard_failures()
        if not BREAD_MIN < self.bread_similarity < BREAD_MAX:
            out.append(f"bread similarity {self.bread_similarity:.2f} outside ({BREAD_MIN}, {BREAD_MAX})")
        if self.containment < MEDIATES:
            out.append("the filling does not mediate: it is not closer to each bread than the breads are to each other")
        if max(self.filling_similarities) >= TRIVIAL and not any("restates" in r for r in out):
            out.append(f"trivial: the filling restates a bread (cos {max(self.filling_similarities):.2f})")
        if self.novelty < 0.3:
            out.append(f"not novel: {1 - self.novelty:.2f} similar to an existing crystal")
        return out

    def as_dict(self) -> dict:
        return {
            "V": round(self.v, 4),
            "verdict": self.verdict,
            "bread_compat": round(self.bread_compat, 4),
            "containment": round(self.containment, 4),
            "non_triviality": round(self.non_triviality, 4),
            "novelty": round(self.novelty, 4),
            "bread_similarity": round(self.bread_similarity, 4),
            "filling_similarities": [round(x, 4) for x in self.filling_similarities],
            "weights": WEIGHTS,
            "filling_in_lineage": self.filling_in_lineage,
            **(
                {
                    "bread_relation": self.structure.bread_relation,
                    "homologous": self.structure.homologous,
                    "gloss_echo": round(self.structure.gloss_echo[0], 4),
                }
                if self.structure is not None
                else {}
            ),
            "hard_failures": self.hard_failures(),
            "reasons": self.reasons(),
        }


def bread_compat(s12: float) -> float:
    """1 at similarity 0.6, falling to 0 at the band's edges 0.3 and 0.9, 0 outside."""
    if not BREAD_MIN < s12 < BREAD_MAX:
        return 0.0
    return float(1.0 - (abs(s12 - 0.6) / 0.3) ** 2)


def containment(s1f: float, sf2: float, s12: float) -> float:
    """How much closer the filling is to each bread than the breads are to each other:
    R(B1,F) and R(F,B2) but not R(B1,B2) (004, definition 4.3)."""
    return float(np.clip(0.5 + (min(s1f, sf2) - s12) / 0.3, 0.0, 1.0))


def non_triviality(s1f: float, sf2: float, in_lineage: bool = False) -> float:
    """Penalises degenerate sandwiches, graded: how clearly the filling stands apart from the
    bread it is nearest (1 at similarity 0.45 or less, 0 from TRIVIAL on), times how much it
    is still about the farther bread (0 when unrelated); 0 when it is a bread's broader concept."""
    if in_lineage:
        return 0.0
    distinct = np.clip((TRIVIAL - max(s1f, sf2)) / 0.4, 0.0, 1.0)
    related = np.clip((min(s1f, sf2) - 0.1) / 0.3, 0.0, 1.0)
    return float(distinct * related)


def novelty(filling: np.ndarray, existing: np.ndarray) -> float:
    if len(existing) == 0:
        return 1.0
    return float(np.clip(1.0 - float(np.max(existing @ normalize(filling))), 0.0, 1.0))


def validity(
    b1: np.ndarray,
    filling: np.ndarray,
    b2: np.ndarray,
    existing: np.ndarray,
    filling_in_lineage: bool = False,
    structure: Structure | None = None,
) -> Validity:
    b1, f, b2 = normalize(b1), normalize(filling), normalize(b2)
    s12, s1f, sf2 = float(b1 @ b2), float(b1 @ f), float(f @ b2)
    return Validity(
        bread_compat(s12),
        containment(s1f, sf2, s12),
        non_triviality(s1f, sf2, filling_in_lineage),
        novelty(f, existing),
        s12,
        (s1f, sf2),
        filling_in_lineage,
        structure,
    )


def structural_type(sandwich: np.ndarray, prototypes: dict[str, np.ndarray], opposites: bool) -> tuple[str, float]:
    """The taxonomy type whose description is nearest the sandwich; breads that the corpus
    lists as opposites make a Dialectic sandwich whatever the embedding says."""
    v = normalize(sandwich)
    sims = {name: float(normalize(p) @ v) for name, p in prototypes.items()}
    if opposites:
        return "Dialectic", sims.get("Dialectic", 0.0)
    name = max(sims, key=lambda k: sims[k])
    return name, sims[name]


# The nearest type is named only when it leads the runner-up by this much: the prototypes are
# one-line descriptions, and most sandwiches sit about as near several of them (the 20
# crystals of four 150-step offline wanders: similarity 0.13-0.41, a lead of 0.003-0.165,
# 0.05 or more for 7 of them).
TYPE_MARGIN = 0.05


def type_confidence(
    sandwich: np.ndarray, prototypes: dict[str, np.ndarray], opposites: bool
) -> dict[str, float | bool]:
    """How sure the structural type is: the nearest type's similarity, its lead over the
    next (`type_margin`), and whether it is named at all (`type_confident`: breads the corpus
    lists as opposites are Dialectic by that fact; else a lead of TYPE_MARGIN or more)."""
    v = normalize(sandwich)
    sims = sorted((float(normalize(p) @ v) for p in prototypes.values()), reverse=True)
    margin = sims[0] - sims[1] if len(sims) > 1 else 1.0
    return {
        "type_similarity": round(sims[0], 4) if sims else 0.0,
        "type_margin": round(margin, 4),
        "type_confident": bool(opposites or margin >= TYPE_MARGIN),
    }
