"""The registry of the event contract: every event subject, and the base its payloads share.

`Subject` names every subject; each subject has exactly one payload model (a subclass of
`EventPayload` that says `subject: ClassVar[Subject] = Subject.X`), registered in
`PAYLOADS` when the class is defined (the payloads are in event_payloads.py, the envelope
in events.py)."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict


class Subject(StrEnum):
    """Every event subject Wander emits (000, "NATS subjects", plus Wander's own)."""

    SESSION_CREATED = "wander.session.created"
    SESSION_PAUSED = "wander.session.paused"
    SESSION_RESUMED = "wander.session.resumed"
    SESSION_COMPLETED = "wander.session.completed"
    STEP_STARTED = "wander.step.started"
    STEP_COMPLETED = "wander.step.completed"
    ADJACENCIES_FOUND = "wander.adjacencies.found"
    LOCUS_VISITED = "wander.locus.visited"
    LOCUS_PLANTED = "wander.locus.planted"
    RESONANCE_DETECTED = "wander.resonance.detected"
    RESONANCE_STRENGTHENED = "wander.resonance.strengthened"
    RESONANCE_CONFIRMED = "wander.resonance.confirmed"
    CRYSTAL_FORMED = "wander.crystal.formed"
    CRYSTAL_VALIDATED = "wander.crystal.validated"
    CRYSTAL_REVIEWED = "wander.crystal.reviewed"
    FENCE_APPROACHED = "wander.fence.approached"
    FENCE_ADDED = "wander.fence.added"
    FENCE_REMOVED = "wander.fence.removed"
    INJECTION_QUEUED = "wander.injection.queued"
    SUBWANDER_SPAWNED = "wander.subwander.spawned"
    CIRCUIT_TRIPPED = "wander.circuit.tripped"
    BUDGET_LOW = "wander.budget.low"
    # The archive room (wander.core.archive.service): a wander's projection was refitted
    PROJECTION_UPDATED = "wander.projection.updated"
    # The economic action layer (wander.core.action.service)
    PROPOSAL_PROPOSED = "wander.proposal.proposed"
    PROPOSAL_ENCODED = "wander.proposal.encoded"
    PROPOSAL_APPROVED = "wander.proposal.approved"
    PROPOSAL_REJECTED = "wander.proposal.rejected"
    PROPOSAL_EXECUTED = "wander.proposal.executed"
    PROPOSAL_REFUSED = "wander.proposal.refused"


PAYLOADS: dict[Subject, type[EventPayload]] = {}


class EventPayload(BaseModel):
    """Base of every payload. A subclass that sets `subject` is that subject's payload."""

    model_config = ConfigDict(extra="forbid")
    subject: ClassVar[Subject]

    session_id: str

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        subject = cls.__dict__.get("subject")
        if subject is None:
            return  # a shared base, not a subject's payload
        if subject in PAYLOADS:
            raise TypeError(f"{subject} already has a payload model: {PAYLOADS[subject].__name__}")
        PAYLOADS[subject] = cls
