"""Event subjects of 000 and the payload shapes the engine emits."""

from __future__ import annotations

from typing import Any

from wander.domain.models import Candidate, EventDraft, Locus, Residue

SESSION_CREATED = "wander.session.created"
SESSION_PAUSED = "wander.session.paused"
SESSION_RESUMED = "wander.session.resumed"
SESSION_COMPLETED = "wander.session.completed"
STEP_STARTED = "wander.step.started"
STEP_COMPLETED = "wander.step.completed"
ADJACENCIES_FOUND = "wander.adjacencies.found"
LOCUS_VISITED = "wander.locus.visited"
RESONANCE_DETECTED = "wander.resonance.detected"
RESONANCE_STRENGTHENED = "wander.resonance.strengthened"
RESONANCE_CONFIRMED = "wander.resonance.confirmed"
CRYSTAL_FORMED = "wander.crystal.formed"
CRYSTAL_VALIDATED = "wander.crystal.validated"
FENCE_APPROACHED = "wander.fence.approached"
CIRCUIT_TRIPPED = "wander.circuit.tripped"
BUDGET_LOW = "wander.budget.low"
PROJECTION_UPDATED = "wander.projection.updated"  # emitted by the archivist after a refit (issue 11)
# The economic action layer (wander.action.service)
PROPOSAL_SUBJECTS = tuple(f"wander.proposal.{s}" for s in ("proposed", "encoded", "approved", "rejected", "executed",
                                                           "refused"))  # fmt: skip

ALL_SUBJECTS = (
    SESSION_CREATED, SESSION_PAUSED, SESSION_RESUMED, SESSION_COMPLETED,
    STEP_STARTED, STEP_COMPLETED, ADJACENCIES_FOUND, LOCUS_VISITED,
    RESONANCE_DETECTED, RESONANCE_STRENGTHENED, RESONANCE_CONFIRMED,
    CRYSTAL_FORMED, CRYSTAL_VALIDATED, FENCE_APPROACHED, CIRCUIT_TRIPPED, BUDGET_LOW, *PROPOSAL_SUBJECTS,
    PROJECTION_UPDATED,
)  # fmt: skip


def locus_summary(locus: Locus) -> dict[str, Any]:
    return {
        "id": locus.id,
        "concept": locus.concept,
        "domains": list(locus.domains),
        "source_type": str(locus.source_type),
        "kb_key": locus.kb_key,
        "visit_count": locus.visit_count,
        "abstraction_level": round(locus.abstraction_level, 4),
        "novelty_score": round(locus.novelty_score, 4),
        "interestingness": round(locus.interestingness, 4),
        "actionability": round(locus.actionability, 4),
        "uncertainty": round(locus.uncertainty, 4),
    }


def candidate_summary(c: Candidate, probability: float | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "concept": c.concept,
        "kb_key": c.kb_key,
        "locus_id": c.locus_id,
        "domains": list(c.domains),
        "strategy": c.strategy,
        "reason": c.reason,
        "distance": round(c.distance, 4),
        "scores": c.scores.as_dict() if c.scores else {},
    }
    if probability is not None:
        out["probability"] = round(probability, 4)
    return out


def residue_summary(r: Residue) -> dict[str, Any]:
    return {**r.facets(), "themes": list(r.themes), "interestingness": round(r.interestingness, 4),
            "actionability": round(r.actionability, 4), "model_used": r.model_used}  # fmt: skip


def draft(subject: str, session_id: str, **payload: Any) -> EventDraft:
    return EventDraft(subject=subject, payload={"session_id": session_id, **payload})
