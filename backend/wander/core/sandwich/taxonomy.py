"""004 4.2's structural taxonomy as the structural_types table holds it: each type's bread
relation, filling role and canonical example (004's table), its description
(domain.sandwich.TAXONOMY) and its parent type.

004's taxonomy is flat and "extensible: new types may emerge from corpus analysis"; the table
has a parent so a type can be a kind of another. Three of the ten are kinds of another by
004's own canonical examples: Bayesian inference (Stochastic) is a scientific inference
(Epistemic) with prior and likelihood as its assumption and evidence; a diplomatic compromise
(Negotiation) resolves two opposed positions as a synthesis does (Dialectic); a constrained
optimum (Optimization) is a quantity bounded by its constraints (Bound)."""

from __future__ import annotations

from dataclasses import dataclass

from wander.core.domain.sandwich import TAXONOMY


@dataclass(frozen=True)
class StructuralType:
    name: str
    bread_relation: str
    filling_role: str
    canonical_example: str
    parent: str | None = None

    @property
    def description(self) -> str:
        return TAXONOMY[self.name]


TYPES = (
    StructuralType("Bound", "Upper/lower limits", "Bounded quantity", "Squeeze theorem"),
    StructuralType("Dialectic", "Thesis/antithesis", "Synthesis", "Hegelian triad"),
    StructuralType("Epistemic", "Assumption/evidence", "Conclusion", "Scientific inference"),
    StructuralType("Temporal", "Before/after", "Transition", "Historical narrative"),
    StructuralType("Perspectival", "Viewpoint A/B", "Reconciliation", "Interdisciplinary synthesis"),
    StructuralType("Conditional", "Necessary/sufficient", "Target property", "Logical characterization"),
    StructuralType("Stochastic", "Prior/likelihood", "Posterior", "Bayesian inference", parent="Epistemic"),
    StructuralType("Optimization", "Constraints", "Optimum", "Constrained optimization", parent="Bound"),
    StructuralType("Negotiation", "Position A/B", "Compromise", "Diplomatic agreement", parent="Dialectic"),
    StructuralType("Definitional", "Genus/differentia", "Defined concept", "Aristotelian definition"),
)
