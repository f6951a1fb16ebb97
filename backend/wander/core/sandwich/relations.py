"""Relations between sandwiches (004 5.2's sandwich_relations): which stored sandwiches a new
one relates to, and how. Pure: the store hands in the candidates (the nearest by sandwich
embedding, those sharing an ingredient, those of the same structural type) as SandwichFacts.

    similar          the sandwich embeddings at cosine >= SIMILAR (similar structure: 5.3's first query)
    same_bread       a bread concept in common
    same_filling     the same filling concept
    inverse          the same two breads in the opposite roles (top and bottom exchanged), by
                     label or by bread embeddings at cosine >= SAME_CONCEPT each way
    generalization   one sandwich is the other with an ingredient replaced by one of its broader
                     concepts in the corpus (the rest the same): stored from the specific (a)
                     to the general (b)
    domain_transfer  the same structural type and bread-to-bread shape (the offsets top - bottom
                     at |cosine| >= TRANSFER_SHAPE) carried into other domains (no domain shared)

Each relation is stored once, from the new sandwich (a) to the stored one (b), except a
generalization, whose direction says which is the general one."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from wander.core.domain.geometry import normalize

SIMILAR = 0.8
SAME_CONCEPT = 0.9  # two labels whose embeddings are this close are taken for one concept
TRANSFER_SHAPE = 0.5
KINDS = ("similar", "same_bread", "same_filling", "inverse", "generalization", "domain_transfer")
ROLES = ("bread_top", "filling", "bread_bottom")


@dataclass(frozen=True)
class SandwichFacts:
    """What relating needs of a sandwich: its ingredients' labels and vectors (None for a
    sandwich stored before ingredients had embeddings), the broader concepts of each
    ingredient (role -> labels), its structural type and domains."""

    id: str
    labels: dict[str, str]  # role -> label
    vectors: dict[str, np.ndarray | None] = field(repr=False)  # role -> vector
    embedding: np.ndarray = field(repr=False)
    structural_type: str = ""
    domains: tuple[str, ...] = ()
    lineage: dict[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Relation:
    sandwich_a: str
    sandwich_b: str
    relation_type: str
    similarity_score: float
    rationale: str


def _cos(a: np.ndarray | None, b: np.ndarray | None) -> float | None:
    if a is None or b is None:
        return None
    return float(normalize(np.asarray(a, dtype=np.float32)) @ normalize(np.asarray(b, dtype=np.float32)))


def _same(x: SandwichFacts, rx: str, y: SandwichFacts, ry: str) -> float | None:
    """1.0 for the same label, else the cosine of the two ingredients when it reaches
    SAME_CONCEPT; None when they are not the same concept."""
    if x.labels[rx].strip().lower() == y.labels[ry].strip().lower():
        return 1.0
    c = _cos(x.vectors.get(rx), y.vectors.get(ry))
    return c if c is not None and c >= SAME_CONCEPT else None


def _inverse(new: SandwichFacts, old: SandwichFacts) -> Relation | None:
    a = _same(new, "bread_top", old, "bread_bottom")
    b = _same(new, "bread_bottom", old, "bread_top")
    if a is None or b is None:
        return None
    if new.labels["bread_top"].lower() == new.labels["bread_bottom"].lower():
        return None
    return Relation(
        new.id,
        old.id,
        "inverse",
        round(min(a, b), 4),
        f"the same breads in opposite roles: {new.labels['bread_top']} on top here, "
        f"{old.labels['bread_top']} on top there",
    )


def _generalizes(general: SandwichFacts, specific: SandwichFacts) -> str | None:
    """The role in which GENERAL holds a broader concept of SPECIFIC's ingredient, the other
    two roles the same concepts; None when it does not generalize it."""
    broader_in = [
        r for r in ROLES if general.labels[r].strip().lower() in {x.lower() for x in specific.lineage.get(r, ())}
    ]
    if len(broader_in) != 1:
        return None
    role = broader_in[0]
    if all(_same(general, r, specific, r) is not None for r in ROLES if r != role):
        return role
    return None


def _generalization(new: SandwichFacts, old: SandwichFacts) -> Relation | None:
    for general, specific in ((old, new), (new, old)):
        role = _generalizes(general, specific)
        if role is not None:
            return Relation(
                specific.id,
                general.id,
                "generalization",
                1.0,
                f"{general.labels[role]} is a broader concept of {specific.labels[role]} "
                f"({role.replace('_', ' ')}), the rest the same",
            )
    return None


def _shape(s: SandwichFacts) -> np.ndarray | None:
    top, bottom = s.vectors.get("bread_top"), s.vectors.get("bread_bottom")
    if top is None or bottom is None:
        return None
    d = normalize(np.asarray(top, dtype=np.float32)) - normalize(np.asarray(bottom, dtype=np.float32))
    return None if float(np.linalg.norm(d)) < 1e-6 else d


def _domain_transfer(new: SandwichFacts, old: SandwichFacts) -> Relation | None:
    if not new.structural_type or new.structural_type != old.structural_type:
        return None
    if not new.domains or not old.domains or set(new.domains) & set(old.domains):
        return None
    c = _cos(_shape(new), _shape(old))
    if c is None or abs(c) < TRANSFER_SHAPE:
        return None
    return Relation(
        new.id,
        old.id,
        "domain_transfer",
        round(abs(c), 4),
        f"a {new.structural_type} sandwich of the same shape (bread offsets at |cos| {abs(c):.2f}) "
        f"carried from {', '.join(old.domains)} into {', '.join(new.domains)}",
    )


def relate(new: SandwichFacts, stored: list[SandwichFacts]) -> list[Relation]:
    """Every relation between NEW and the stored sandwiches (NEW itself skipped)."""
    out: list[Relation] = []
    for old in stored:
        if old.id == new.id:
            continue
        sim = _cos(new.embedding, old.embedding)
        if sim is not None and sim >= SIMILAR:
            out.append(Relation(new.id, old.id, "similar", round(sim, 4), f"sandwich embeddings at cosine {sim:.2f}"))
        breads_new = {new.labels["bread_top"], new.labels["bread_bottom"]}
        common = sorted(breads_new & {old.labels["bread_top"], old.labels["bread_bottom"]})
        if common:
            out.append(Relation(new.id, old.id, "same_bread", 1.0, f"both use {', '.join(common)} as bread"))
        if new.labels["filling"] == old.labels["filling"]:
            out.append(Relation(new.id, old.id, "same_filling", 1.0, f"both are filled with {old.labels['filling']}"))
        for found in (_inverse(new, old), _generalization(new, old), _domain_transfer(new, old)):
            if found is not None:
                out.append(found)
    return out


LINEAGE_LEVELS = 3


def lineage(knowledge: Any, ingredients: dict[str, Any], levels: int = LINEAGE_LEVELS) -> dict[str, list[str]]:
    """role -> the labels of the ingredient's broader concepts in the corpus (up to LEVELS
    above it, nearest first); an ingredient outside the corpus (index < 0) has none."""
    out: dict[str, list[str]] = {}
    for role, ing in ingredients.items():
        if ing.index < 0:
            continue
        keys = knowledge.ancestors(ing.index, levels)
        labels = [knowledge.lemma_of(k) for k in sorted(keys, key=lambda k: keys[k])]
        out[role] = list(dict.fromkeys(x for x in labels if x))
    return out
