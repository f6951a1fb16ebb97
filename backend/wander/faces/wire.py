"""Domain objects and store rows -> the wire models of shared_schemas."""

from __future__ import annotations

from shared_schemas.models import CrystalOut, FenceAnchorOut, LocusOut, ResidueOut, ResonanceOut, SessionOut, TraceStep
from wander.core.domain.models import Crystal, Locus, Residue, Resonance, Session
from wander.core.domain.views import StepView


def session_out(s: Session, running: bool) -> SessionOut:
    return SessionOut(
        id=s.id,
        project_id=s.project_id,
        name=s.name,
        status=str(s.status),
        seed_concept=s.seed_concept,
        attractor=s.attractor,
        allowed_domains=s.allowed_domains,
        forbidden_domains=s.forbidden_domains,
        max_drift_distance=s.max_drift_distance,
        max_steps=s.max_steps,
        cloud_budget_cents=s.cloud_budget_cents,
        cloud_spent_cents=s.cloud_spent_cents,
        local_calls=s.local_calls,
        cloud_calls=s.cloud_calls,
        temperature=s.temperature,
        human_checkpoint_frequency=s.human_checkpoint_frequency,
        require_crystal_approval=s.require_crystal_approval,
        random_seed=s.random_seed,
        step_count=s.step_count,
        current_locus_id=s.current_locus_id,
        stopped_reason=s.stopped_reason,
        parent_session_id=s.parent_session_id,
        parent_locus_id=s.parent_locus_id,
        running=running,
        fence=[FenceAnchorOut(concept=a.concept, action=a.action) for a in s.fence],
        last_event_seq=s.event_seq,
        created_at=s.created_at,
        last_step_at=s.last_step_at,
        completed_at=s.completed_at,
    )


def locus_out(lo: Locus) -> LocusOut:
    return LocusOut(
        id=lo.id,
        concept=lo.concept,
        domains=lo.domains,
        source_type=str(lo.source_type),
        kb_key=lo.kb_key,
        visit_count=lo.visit_count,
        abstraction_level=lo.abstraction_level,
        novelty_score=lo.novelty_score,
        interestingness=lo.interestingness,
        actionability=lo.actionability,
        uncertainty=lo.uncertainty,
    )


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
    return CrystalOut(
        id=c.id,
        session_id=c.session_id,
        insight=c.insight,
        confidence=c.confidence,
        actionability=c.actionability,
        domains=c.domains,
        status=c.status,
        structural_type=c.structural_type,
        bread_a_locus_id=c.bread_a_locus_id,
        bread_b_locus_id=c.bread_b_locus_id,
        source_resonance_id=c.source_resonance_id,
        source_locus_id=c.source_locus_id,
        validity=c.validity,
        supporting_evidence=c.supporting_evidence,
        rumination=c.rumination,
        human_approved=c.human_approved,
        validation_notes=c.validation_notes,
        created_at=c.created_at,
    )


def resonance_out(r: Resonance) -> ResonanceOut:
    return ResonanceOut(
        id=r.id,
        session_id=r.session_id,
        themes=r.themes,
        occurrences=r.occurrences,
        strength=round(r.strength, 4),
        status=str(r.status),
        supporting_residue_ids=r.supporting_residue_ids,
        last_reinforced_at=r.last_reinforced_at,
        created_at=r.created_at,
    )
