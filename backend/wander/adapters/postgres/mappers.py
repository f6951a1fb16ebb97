"""Rows <-> domain objects for the Postgres store: one mapper each way per aggregate."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import fields
from typing import Any

import numpy as np
from pgvector.sqlalchemy import Vector
from sqlalchemy import Text, cast, literal
from sqlalchemy.dialects.postgresql import ARRAY

from wander.core.domain.models import (
    Crystal,
    FenceAnchor,
    Locus,
    Resonance,
    ResonanceStatus,
    Session,
    SessionStatus,
    SourceType,
    Trace,
    WarmMemory,
)
from wander.core.domain.validation import parse_uuid  # noqa: F401  (the store modules import it from here)
from wander.core.engine.ports import StepCommit


def fence_from_json(items: list[dict] | None) -> list[FenceAnchor]:
    return [FenceAnchor(i["concept"], i["action"], np.asarray(i["embedding"], dtype=np.float32)) for i in items or []]


def fence_to_json(anchors: list[FenceAnchor]) -> list[dict]:
    return [
        {"concept": a.concept, "action": a.action, "embedding": [round(float(x), 6) for x in a.embedding]}
        for a in anchors
    ]


def fence_embeddings(anchors: list[FenceAnchor]) -> Any:
    """The fence's anchors for wander_sessions.fence_embeddings (000: the convex hull's
    anchors), in the fence's order; NULL without a fence. Sent as text[] cast to vector[]
    on the server (the driver has no codec for vector[])."""
    if not anchors:
        return None
    texts = ["[" + ",".join(f"{float(x):.7g}" for x in a.embedding) + "]" for a in anchors]
    return cast(literal(texts, ARRAY(Text)), ARRAY(Vector(len(anchors[0].embedding))))


def resonance_from_row(r: Any) -> Resonance:
    return Resonance(
        id=str(r.id),
        project_id=str(r.project_id),
        session_id=str(r.session_id) if r.session_id else None,
        themes=list(r.themes),
        embedding=as_vector(r.embedding),
        occurrences=r.occurrences,
        strength=r.strength,
        status=ResonanceStatus(r.status),
        supporting_residue_ids=[str(x) for x in r.supporting_residue_ids or []],
        last_reinforced_at=r.last_reinforced_at,
        decay_rate=r.decay_rate,
        created_at=r.created_at,
    )


def resonance_values(r: Resonance) -> dict[str, Any]:
    return dict(
        project_id=as_uuid(r.project_id),
        session_id=as_uuid(r.session_id),
        themes=r.themes,
        embedding=r.embedding,
        occurrences=r.occurrences,
        strength=r.strength,
        status=str(r.status),
        # as text: asyncpg parses uuids itself, and a resonance reinforced for a long walk
        # holds hundreds of them, rewritten every time it is reinforced
        supporting_residue_ids=list(r.supporting_residue_ids),
        last_reinforced_at=r.last_reinforced_at,
        decay_rate=r.decay_rate,
    )


def warm_from_row(r: Any) -> WarmMemory:
    return WarmMemory(
        id=str(r.id),
        session_id=str(r.session_id),
        cluster_type=r.cluster_type,
        content=r.content,
        embedding=as_vec(r.embedding),
        strength=r.strength,
        last_accessed_at=r.last_accessed_at,
        created_at=r.created_at,
        expires_at=r.expires_at,
    )


def crystal_from_row(r: Any) -> Crystal:
    return Crystal(
        id=str(r.id),
        project_id=str(r.project_id),
        session_id=str(r.session_id) if r.session_id else None,
        insight=r.insight,
        embedding=as_vector(r.embedding),
        confidence=r.confidence,
        actionability=r.actionability,
        domains=list(r.domains),
        status=r.status,
        source_resonance_id=str(r.source_resonance_id) if r.source_resonance_id else None,
        source_locus_id=str(r.source_locus_id) if r.source_locus_id else None,
        supporting_evidence=list(r.supporting_evidence or []),
        bread_a_locus_id=str(r.bread_a_locus_id) if r.bread_a_locus_id else None,
        bread_b_locus_id=str(r.bread_b_locus_id) if r.bread_b_locus_id else None,
        validity=dict(r.validity or {}),
        structural_type=r.structural_type,
        rumination=list(r.rumination or []),
        validated_by=r.validated_by,
        validation_notes=r.validation_notes,
        human_approved=r.human_approved,
        created_at=r.created_at,
    )


def crystal_values(c: Crystal) -> dict[str, Any]:
    return dict(
        id=as_uuid(c.id),
        project_id=as_uuid(c.project_id),
        session_id=as_uuid(c.session_id),
        insight=c.insight,
        embedding=c.embedding,
        confidence=c.confidence,
        actionability=c.actionability,
        domains=c.domains,
        status=str(c.status),
        source_resonance_id=as_uuid(c.source_resonance_id),
        source_locus_id=as_uuid(c.source_locus_id),
        supporting_evidence=c.supporting_evidence,
        bread_a_locus_id=as_uuid(c.bread_a_locus_id),
        bread_b_locus_id=as_uuid(c.bread_b_locus_id),
        validity=c.validity,
        structural_type=c.structural_type,
        rumination=c.rumination,
        validated_by=c.validated_by,
        validation_notes=c.validation_notes,
        human_approved=c.human_approved,
        created_at=c.created_at,
    )


def as_uuid(value: str | None) -> uuid.UUID | None:
    return uuid.UUID(value) if value else None


def as_vec(v: Any) -> np.ndarray | None:
    return None if v is None else np.asarray(v, dtype=np.float32)


def as_vector(v: Any) -> np.ndarray:
    """A NOT NULL vector column's value (a NULL there is a broken row, said as such)."""
    if v is None:
        raise ValueError("a NOT NULL vector column held NULL")
    return np.asarray(v, dtype=np.float32)


def _same(value: Any) -> Any:
    return value


def _str_id(value: Any) -> str | None:
    return str(value) if value else None


def _listed(value: Any) -> list:
    return list(value or [])


# The session's columns are named as its fields: a mapper names only what it converts.
SESSION_FROM_COLUMN: dict[str, Callable[[Any], Any]] = {
    "id": str,
    "project_id": str,
    "seed_embedding": as_vec,
    "attractor_embedding": as_vec,
    "status": SessionStatus,
    "allowed_domains": _listed,
    "forbidden_domains": _listed,
    "require_crystal_approval": bool,
    "current_locus_id": _str_id,
    "parent_session_id": _str_id,
    "parent_locus_id": _str_id,
    "fence": fence_from_json,
}
SESSION_TO_COLUMN: dict[str, Callable[[Any], Any]] = {
    "project_id": as_uuid,
    "status": str,
    "current_locus_id": as_uuid,
    "parent_session_id": as_uuid,
    "parent_locus_id": as_uuid,
    "fence": fence_to_json,
}
SESSION_SET_BY_STORE = frozenset({"id", "created_at", "event_seq"})  # on insert, or by the outbox


def session_from_row(r: Any) -> Session:
    return Session(**{f.name: SESSION_FROM_COLUMN.get(f.name, _same)(getattr(r, f.name)) for f in fields(Session)})


def locus_from_row(r: Any) -> Locus:
    return Locus(
        id=str(r.id),
        session_id=str(r.session_id),
        concept=r.concept,
        embedding=as_vector(r.embedding),
        source_type=SourceType(r.source_type),
        domains=list(r.domains or []),
        abstraction_level=r.abstraction_level,
        novelty_score=r.novelty_score,
        interestingness=r.interestingness,
        actionability=r.actionability,
        uncertainty=r.uncertainty,
        visit_count=r.visit_count,
        kb_key=r.kb_key,
        first_encountered=r.first_encountered,
        last_visited=r.last_visited,
        adjacent_to=list(r.adjacent_to or []),
        bridges_to=list(r.bridges_to or []),
        contradicts=list(r.contradicts or []),
    )


def session_values(s: Session) -> dict[str, Any]:
    values = {
        f.name: SESSION_TO_COLUMN.get(f.name, _same)(getattr(s, f.name))
        for f in fields(Session)
        if f.name not in SESSION_SET_BY_STORE
    }
    return {**values, "fence_embeddings": fence_embeddings(s.fence)}


def locus_values(lo: Locus) -> dict[str, Any]:
    return dict(
        id=as_uuid(lo.id),
        session_id=as_uuid(lo.session_id),
        concept=lo.concept,
        embedding=lo.embedding,
        source_type=str(lo.source_type),
        domains=lo.domains,
        abstraction_level=lo.abstraction_level,
        novelty_score=lo.novelty_score,
        interestingness=lo.interestingness,
        actionability=lo.actionability,
        uncertainty=lo.uncertainty,
        visit_count=lo.visit_count,
        kb_key=lo.kb_key,
        first_encountered=lo.first_encountered,
        last_visited=lo.last_visited,
        adjacent_to=lo.adjacent_to,
        bridges_to=lo.bridges_to,
        contradicts=lo.contradicts,
    )


def progress_values(s: Session) -> dict[str, Any]:
    """What a step advances of its session row."""
    return dict(
        step_count=s.step_count,
        current_locus_id=as_uuid(s.current_locus_id),
        last_step_at=s.last_step_at,
        status=str(s.status),
        stopped_reason=s.stopped_reason,
        completed_at=s.completed_at,
    )


def trace_values(t: Trace) -> dict[str, Any]:
    return dict(
        id=as_uuid(t.id),
        session_id=as_uuid(t.session_id),
        step_number=t.step_number,
        from_locus_id=as_uuid(t.from_locus_id),
        to_locus_id=as_uuid(t.to_locus_id),
        adjacencies_considered=t.adjacencies_considered,
        selection_scores=t.selection_scores,
        selection_reason=t.selection_reason,
        model_used=t.model_used,
        tokens_used=t.tokens_used,
        cost_cents=t.cost_cents,
        worker_id=t.worker_id,
        created_at=t.created_at,
    )


def residue_values(commit: StepCommit) -> dict[str, Any]:
    r, t = commit.residue, commit.trace
    return dict(
        id=as_uuid(commit.residue_id),
        session_id=as_uuid(commit.session.id),
        trace_id=as_uuid(t.id),
        from_locus_id=as_uuid(t.from_locus_id),
        to_locus_id=as_uuid(t.to_locus_id),
        connection=r.connection,
        tension=r.tension,
        bridge=r.bridge,
        surprise=r.surprise,
        possibility=r.possibility,
        themes=r.themes,
        themes_embedding=r.themes_embedding,
        interestingness=r.interestingness,
        actionability=r.actionability,
        model_used=r.model_used,
        details={**r.details, **({"failed": True, "raw_output": r.raw_output} if r.failed else {})},
        created_at=t.created_at,
    )
