"""Events the engine emits, built from the typed payloads of shared_schemas.events.

`draft(SomePayload(...))` checks the payload against its model and gives the store an
EventDraft carrying the model's subject; the summaries turn domain objects into the
payload parts (LocusOut, CandidateOut, ResidueOut)."""

from __future__ import annotations

from shared_schemas.common import CandidateOut, LocusOut, ResidueOut
from shared_schemas.events import EventPayload, Subject, payload_json
from wander.core.domain.models import Candidate, EventDraft, Locus, Residue

__all__ = ["Subject", "candidate_summary", "draft", "locus_summary", "residue_summary"]


def draft(payload: EventPayload) -> EventDraft:
    return EventDraft(subject=str(payload.subject), payload=payload_json(payload))


def _r(x: float) -> float:
    return round(float(x), 4)


def locus_summary(locus: Locus) -> LocusOut:
    return LocusOut(
        id=locus.id,
        concept=locus.concept,
        domains=list(locus.domains),
        source_type=str(locus.source_type),  # type: ignore[arg-type]  # SourceType's values are the Literal's
        kb_key=locus.kb_key,
        visit_count=locus.visit_count,
        abstraction_level=_r(locus.abstraction_level),
        novelty_score=_r(locus.novelty_score),
        interestingness=_r(locus.interestingness),
        actionability=_r(locus.actionability),
        uncertainty=_r(locus.uncertainty),
    )


def candidate_summary(c: Candidate, probability: float | None = None) -> CandidateOut:
    return CandidateOut(
        concept=c.concept,
        kb_key=c.kb_key,
        locus_id=c.locus_id,
        domains=list(c.domains),
        strategy=c.strategy,
        reason=c.reason,
        distance=_r(c.distance),
        scores=c.scores.as_dict() if c.scores else {},
        probability=None if probability is None else _r(probability),
        why=c.why,
    )


def residue_summary(r: Residue) -> ResidueOut:
    return ResidueOut(
        **r.facets(),
        themes=list(r.themes),
        interestingness=_r(r.interestingness),
        actionability=_r(r.actionability),
        model_used=r.model_used,
    )
