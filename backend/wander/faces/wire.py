"""Domain objects and store rows -> the wire models of shared_schemas."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from pydantic import BaseModel

from shared_schemas.action import DecisionOut, ProposalOut
from shared_schemas.models import CrystalOut, LocusOut, ResidueOut, ResonanceOut, SessionOut, TraceStep
from wander.core.action.ports import Proposal
from wander.core.domain.models import Crystal, Locus, Residue, Resonance, Session
from wander.core.domain.views import StepView


def shared(model: type[BaseModel], obj: Any, **own: Any) -> dict[str, Any]:
    """`obj`'s attributes named as `model`'s fields (a field is declared once in the domain
    and once on the wire), then `own`: those the wire names or shapes differently."""
    return {**{name: getattr(obj, name) for name in model.model_fields if hasattr(obj, name)}, **own}


def session_out(s: Session, running: bool) -> SessionOut:
    return SessionOut.model_validate(
        shared(SessionOut, s, status=str(s.status), running=running, last_event_seq=s.event_seq), from_attributes=True
    )


def locus_out(lo: Locus) -> LocusOut:
    return LocusOut.model_validate(shared(LocusOut, lo, source_type=str(lo.source_type)))


def residue_out(r: Residue) -> ResidueOut:
    return ResidueOut(
        **r.facets(),
        themes=r.themes,
        interestingness=r.interestingness,
        actionability=r.actionability,
        model_used=r.model_used,
    )


def step_residue_out(step: StepView) -> ResidueOut | None:
    if not step.has_residue:
        return None
    return ResidueOut(
        **step.facets(),
        themes=step.themes,
        interestingness=step.residue_interestingness or 0.0,
        actionability=step.residue_actionability or 0.0,
        model_used=step.model_used or "",
    )


def trace_step(step: StepView) -> TraceStep:
    return TraceStep(
        step_number=step.step_number,
        from_locus_id=step.from_locus_id,
        to_locus_id=step.to_locus_id,
        from_concept=step.from_concept,
        to_concept=step.to_concept,
        adjacencies_considered=step.adjacencies_considered,
        selection_scores=step.selection_scores,
        selection_reason=step.selection_reason,
        model_used=step.model_used,
        created_at=step.created_at,
        residue=step_residue_out(step),
    )


def crystal_out(c: Crystal) -> CrystalOut:
    return CrystalOut.model_validate(c, from_attributes=True)


def resonance_out(r: Resonance) -> ResonanceOut:
    return ResonanceOut.model_validate(shared(ResonanceOut, r, strength=round(r.strength, 4), status=str(r.status)))


def proposal_out(p: Proposal) -> ProposalOut:
    return ProposalOut(
        id=p.id,
        crystal_id=p.crystal_id,
        session_id=p.session_id,
        status=p.status,  # type: ignore[arg-type]
        evaluator=p.evaluator,
        evaluation=p.evaluation,
        image_sha256=p.image_sha256,
        image_url=f"/api/v1/wander/proposals/{p.id}/image.png",
        params=p.params,
        created_at=p.created_at,
        decision=DecisionOut(**asdict(p.decision)) if p.decision else None,
        execution=p.execution,
    )
