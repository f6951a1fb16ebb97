"""ASSEMBLER (004, 3.2.3): the best (bread, filling, bread) of the identified triples by V,
named, typed by the 10-type taxonomy, with its containment argument in figures."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from wander.domain import sandwich as sw
from wander.domain.geometry import normalize
from wander.sandwich import validator
from wander.sandwich.model import Ingredient, Sandwich

TOP_CONFIGURATIONS = 1
CLASSIC = {  # a classic sandwich per structural type, for the name (004: "occasionally punny")
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

    def best(
        self, triples: list[tuple[Ingredient, Ingredient, Ingredient]], existing: np.ndarray
    ) -> tuple[tuple[Ingredient, Ingredient, Ingredient], sw.Validity]:
        # Only the few most natural configurations (the identifier's order: the filling most
        # clearly between its breads) are judged. Taking the best V over every triple a text
        # offers would pass nearly anything: the validator must be able to say no.
        scored = [(validator.score(b1, f, b2, existing), (b1, f, b2)) for b1, f, b2 in triples[:TOP_CONFIGURATIONS]]
        v, triple = max(scored, key=lambda x: x[0].v)
        return triple, v

    def assemble(self, b1: Ingredient, f: Ingredient, b2: Ingredient, v: sw.Validity, where: str) -> Sandwich:
        embedding = normalize(normalize(b1.vector) + normalize(f.vector) + normalize(b2.vector))
        stype, _ = sw.structural_type(embedding, self.prototypes, self.are_opposites(b1.index, b2.index))
        s1f, sf2 = v.filling_similarities
        name = f"The {f.label.title()} {CLASSIC.get(stype, 'Sandwich')}"
        description = f"{f.label} between {b1.label} and {b2.label}: a {stype} sandwich ({sw.TAXONOMY.get(stype, '')})."
        rationale = (
            f"Containment: {f.label} is closer to {b1.label} (cos {s1f:.2f}) and to {b2.label} "
            f"(cos {sf2:.2f}) than the breads are to each other (cos {v.bread_similarity:.2f}); "
            f"found in {where}."
        )
        domains = tuple(dict.fromkeys([*b1.domains[:1], *f.domains[:1], *b2.domains[:1]]))
        return Sandwich(
            name=name[:255],
            description=description,
            bread_top=b1,
            filling=f,
            bread_bottom=b2,
            structural_type=stype,
            validity={**v.as_dict(), "domains": list(domains)},
            embedding=embedding,
            assembly_rationale=rationale,
        )
