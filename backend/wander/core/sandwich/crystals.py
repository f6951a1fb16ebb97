"""A wander's crystal as a sandwich of the corpus: its bread loci, its filling concept, its
V breakdown and type as the sandwich gate scored them (engine/crystallizer.py)."""

from __future__ import annotations

import numpy as np

from wander.core.domain.geometry import normalize
from wander.core.domain.sandwich_views import UnstoredCrystal
from wander.core.sandwich.assembler import CLASSIC
from wander.core.sandwich.model import Ingredient, Sandwich


def crystal_sandwich(row: UnstoredCrystal, filling_vector: np.ndarray) -> Sandwich:
    """row: a crystal joined with its two bread loci (SandwichRepository.unstored_crystals)."""
    v = dict(row.validity or {})
    filling = str(v.get("filling") or row.insight[:80])
    b1 = Ingredient(-1, row.bread_a, tuple(row.bread_a_domains or ()), row.bread_a_embedding)
    b2 = Ingredient(-1, row.bread_b, tuple(row.bread_b_domains or ()), row.bread_b_embedding)
    f = Ingredient(-1, filling, tuple(row.domains or ())[:1], np.asarray(filling_vector, dtype=np.float32))
    stype = row.structural_type or "Perspectival"
    validity = {
        "V": float(v.get("V", 0.0)),
        "bread_compat": float(v.get("bread_compat", 0.0)),
        "containment": float(v.get("containment", 0.0)),
        "non_triviality": float(v.get("non_triviality", 0.0)),
        "novelty": float(v.get("novelty", 0.0)),
        "reasons": list(v.get("reasons") or []),
        "domains": list(dict.fromkeys([*b1.domains[:1], *f.domains[:1], *b2.domains[:1]])),
    }
    embedding = normalize(normalize(b1.vector) + normalize(f.vector) + normalize(b2.vector))
    return Sandwich(
        name=f"The {filling.title()} {CLASSIC.get(stype, 'Sandwich')}"[:255],
        description=row.insight,
        bread_top=b1,
        filling=f,
        bread_bottom=b2,
        structural_type=stype,
        validity=validity,
        embedding=embedding,
        assembly_rationale="crystallized by a wander (sandwich gate)",
        origin="crystal",
    )
