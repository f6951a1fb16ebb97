"""A new wander as it is to be written (000's session creation): the request checked field
by field, the session, its seed locus and any planted seeds, and their events."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime

import numpy as np

from shared_schemas.events import LocusPlantedPayload, LocusVisitedPayload, SessionCreatedPayload
from wander.core.domain.errors import InvalidInput
from wander.core.domain.models import EventDraft, FenceAnchor, Locus, Session, SourceType, new_id
from wander.core.domain.validation import (
    check_domains,
    check_random_seed,
    check_steps,
    check_temperature,
    clean_text,
)
from wander.core.engine import events as ev
from wander.core.engine.ports import Knowledge


@dataclass
class NewWander:
    seed_concept: str
    attractor: str | None = None
    name: str | None = None
    allowed_domains: list[str] | None = None
    forbidden_domains: list[str] | None = None
    max_steps: int = 50
    temperature: float = 0.7
    random_seed: int = 0
    max_drift_distance: float = 0.8
    cloud_budget_cents: int = 500
    human_checkpoint_frequency: int = 50
    require_crystal_approval: bool = False  # hold every crystal for a person's verdict
    other_seeds: list[str] | None = None  # planted as further SEED loci (presets)
    parent_session_id: str | None = None
    parent_locus_id: str | None = None
    fence: list[FenceAnchor] | None = None


def validate(req: NewWander, knowledge: Knowledge) -> NewWander:
    """Check every field before anything is embedded or written."""
    known = knowledge.domains()
    seed = clean_text("seed_concept", req.seed_concept)
    attractor = clean_text("attractor", req.attractor, required=False)
    allowed = check_domains("allowed_domains", req.allowed_domains, known)
    forbidden = check_domains("forbidden_domains", req.forbidden_domains, known)
    if set(allowed) & set(forbidden):
        raise InvalidInput("forbidden_domains", f"also allowed: {sorted(set(allowed) & set(forbidden))}")
    if not (0.0 < req.max_drift_distance <= 2.0):
        raise InvalidInput("max_drift_distance", "must be greater than 0 and at most 2")
    if req.cloud_budget_cents < 0:
        raise InvalidInput("cloud_budget_cents", "must not be negative")
    if req.human_checkpoint_frequency < 0:
        raise InvalidInput("human_checkpoint_frequency", "must not be negative")
    name = clean_text("name", req.name, required=False) or seed[:255]
    return NewWander(
        seed_concept=seed,
        attractor=attractor,
        name=name[:255],
        allowed_domains=allowed,
        forbidden_domains=forbidden,
        max_steps=check_steps("max_steps", req.max_steps),
        temperature=check_temperature(req.temperature),
        random_seed=check_random_seed(req.random_seed),
        max_drift_distance=req.max_drift_distance,
        cloud_budget_cents=req.cloud_budget_cents,
        human_checkpoint_frequency=req.human_checkpoint_frequency,
        require_crystal_approval=bool(req.require_crystal_approval),
        other_seeds=[clean_text("other_seeds", x) for x in req.other_seeds or []],
        parent_session_id=req.parent_session_id,
        parent_locus_id=req.parent_locus_id,
        fence=req.fence,
    )


def seed_domains(knowledge: Knowledge, text: str, vector: np.ndarray) -> tuple[list[str], str | None, float]:
    """Domains of the seed: its own corpus entry if it has one, else the commonest
    domains among its five nearest corpus concepts."""
    exact = knowledge.find_label(text)
    if exact is not None:
        c = knowledge.concept(exact)
        return list(c.domains), c.key, c.abstraction_level
    near = knowledge.nearest(vector, 5)
    counts = Counter(d for i, _ in near for d in knowledge.concept(i).domains[:1])
    domains = [d for d, _ in counts.most_common(2)]
    abstraction = float(np.mean([knowledge.concept(i).abstraction_level for i, _ in near]))
    return domains, None, abstraction


def founding(
    req: NewWander, vectors: np.ndarray, knowledge: Knowledge, project_id: str, now: datetime
) -> tuple[Session, list[Locus], list[EventDraft]]:
    """The session, its seed locus then the planted seeds, and their events, from a checked
    request and the embeddings of its seed, attractor (if any) and other seeds, in order."""
    session = Session(
        id=new_id(),
        project_id=project_id,
        name=req.name or req.seed_concept,
        seed_concept=req.seed_concept,
        seed_embedding=vectors[0],
        attractor=req.attractor,
        attractor_embedding=vectors[1] if req.attractor else None,
        allowed_domains=req.allowed_domains or [],
        forbidden_domains=req.forbidden_domains or [],
        max_drift_distance=req.max_drift_distance,
        max_steps=req.max_steps,
        cloud_budget_cents=req.cloud_budget_cents,
        temperature=req.temperature,
        human_checkpoint_frequency=req.human_checkpoint_frequency,
        require_crystal_approval=req.require_crystal_approval,
        random_seed=req.random_seed,
        parent_session_id=req.parent_session_id,
        parent_locus_id=req.parent_locus_id,
        fence=list(req.fence or []),
        created_at=now,
    )
    seed = _seed_locus(knowledge, session.id, req.seed_concept, vectors[0], now, visited=True)
    session.current_locus_id = seed.id
    first_other = 2 if req.attractor else 1
    planted = [
        _seed_locus(knowledge, session.id, text, v, now, visited=False)
        for text, v in zip(req.other_seeds or [], vectors[first_other:])
    ]
    drafts = [
        ev.draft(
            SessionCreatedPayload(
                session_id=session.id,
                name=session.name,
                seed_concept=session.seed_concept,
                attractor=session.attractor,
                max_steps=session.max_steps,
            )
        ),
        ev.draft(LocusVisitedPayload(session_id=session.id, step_number=0, locus=ev.locus_summary(seed), new=True)),
    ]
    drafts += [
        ev.draft(LocusPlantedPayload(session_id=session.id, step_number=0, locus=ev.locus_summary(p), source="preset"))
        for p in planted
    ]
    return session, [seed, *planted], drafts


def _seed_locus(
    knowledge: Knowledge, session_id: str, text: str, vector: np.ndarray, now: datetime, *, visited: bool
) -> Locus:
    """A SEED locus: the wander's own seed (visited: where it stands) or a planted one."""
    domains, kb_key, abstraction = seed_domains(knowledge, text, vector)
    return Locus(
        id=new_id(),
        session_id=session_id,
        concept=text,
        embedding=vector,
        source_type=SourceType.SEED,
        domains=domains,
        abstraction_level=abstraction,
        novelty_score=1.0,
        visit_count=1 if visited else 0,
        kb_key=kb_key,
        first_encountered=now,
        last_visited=now if visited else None,
    )
