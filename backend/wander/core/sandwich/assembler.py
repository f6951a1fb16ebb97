"""ASSEMBLER (004, 3.2.3): the best candidate of the identifier by V, named from its heuristic
and breads (naming.py), typed by the 10-type taxonomy (the heuristic's type a little favoured),
with its containment argument in figures and the heuristic's evidence."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from wander.core.domain import sandwich as sw
from wander.core.domain.geometry import normalize
from wander.core.sandwich import naming, validator
from wander.core.sandwich.heuristics import TYPE_HINT
from wander.core.sandwich.identifier import Candidate
from wander.core.sandwich.model import Sandwich

HINT_BONUS = 0.05  # the heuristic's structural type, favoured over the embedding's nearest by this much
CLASSIC = {  # a classic sandwich per structural type (crystals' names; 004: "occasionally punny")
    "Bound": "Squeeze",
    "Dialectic": "Club",
    "Epistemic": "Reuben",
    "Temporal": "Wrap",
    "Perspectival": "Panini",
    "Conditional": "Sub",
    "Stochastic": "BLT",
    "Optimization": "Melt",
    "Negotiation": "Dagwood",
    "Definitional": "Hoagie",
}


class Assembler:
    def __init__(self, prototypes: dict[str, np.ndarray], are_opposites: Callable[[int, int], bool]):
        self.prototypes = prototypes
        self.are_opposites = are_opposites

    def best(self, candidates: list[Candidate], existing: np.ndarray) -> tuple[Candidate, sw.Validity]:
        """The identifier's first candidate (what the text says outright before what the corpus
        says, then the filling most clearly between), scored. Only the most natural
        configuration is judged: taking the best V over every triple a text offers would pass
        nearly anything, and the validator must be able to say no."""
        c = candidates[0]
        return c, validator.score(c.bread_top, c.filling, c.bread_bottom, existing)

    def structural_type(self, c: Candidate, embedding: np.ndarray) -> str:
        if self.are_opposites(c.bread_top.index, c.bread_bottom.index):
            return "Dialectic"
        v = normalize(embedding)
        hint = TYPE_HINT.get(c.heuristic)
        sims = {n: float(normalize(p) @ v) + (HINT_BONUS if n == hint else 0.0) for n, p in self.prototypes.items()}
        return max(sims, key=lambda k: sims[k]) if sims else (hint or "Perspectival")

    def assemble(self, c: Candidate, v: sw.Validity, where: str) -> Sandwich:
        b1, f, b2 = c.bread_top, c.filling, c.bread_bottom
        embedding = normalize(normalize(b1.vector) + normalize(f.vector) + normalize(b2.vector))
        stype = self.structural_type(c, embedding)
        s1f, sf2 = v.filling_similarities
        d1, d2 = (b1.domains[:1] or ("",))[0], (b2.domains[:1] or ("",))[0]
        description = (
            f"{f.label} between {b1.label} and {b2.label}, found as a {c.heuristic} ({c.evidence}): "
            f"a {stype} sandwich ({sw.TAXONOMY.get(stype, '')})."
        )
        rationale = (
            f"Heuristic: {c.heuristic}, from {c.evidence}. Containment: {f.label} is closer to {b1.label} "
            f"(cos {s1f:.2f}) and to {b2.label} (cos {sf2:.2f}) than the breads are to each other "
            f"(cos {v.bread_similarity:.2f}); found in {where}."
        )
        domains = tuple(dict.fromkeys([*b1.domains[:1], *f.domains[:1], *b2.domains[:1]]))
        return Sandwich(
            name=naming.name(c.heuristic, b1.label, f.label, b2.label, (d1, d2)),
            description=description,
            bread_top=b1,
            filling=f,
            bread_bottom=b2,
            structural_type=stype,
            validity={**v.as_dict(), "domains": list(domains), "heuristic": c.heuristic},
            embedding=embedding,
            assembly_rationale=rationale,
        )
