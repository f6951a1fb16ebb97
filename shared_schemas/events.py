"""The event contract: every event subject, defined once, with the typed payload it carries.

`Subject` names every subject; each subject has exactly one payload model (a subclass of
`EventPayload` that says `subject: ClassVar[Subject] = Subject.X`), registered in
`PAYLOADS` when the class is defined. The engine builds its events from these models; the
envelope `EventOut` (what the outbox stores and the WebSocket sends) is a union
discriminated on `subject`, generated from the registry, so the frontend's TypeScript
narrows `payload` by `subject`. How to add a subject: shared_schemas/README.md."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, Field, RootModel, create_model

from shared_schemas.event_payloads import (
    AdjacenciesFoundPayload,
    BudgetLowPayload,
    CircuitTrippedPayload,
    CrystalFormedPayload,
    CrystalReviewedPayload,
    CrystalSummary,
    CrystalValidatedPayload,
    FenceAddedPayload,
    FenceApproachedPayload,
    FenceChangedPayload,
    FenceRemovedPayload,
    InjectionQueuedPayload,
    LocusPlantedPayload,
    LocusVisitedPayload,
    ProjectionUpdatedPayload,
    ProposalApprovedPayload,
    ProposalDecisionPayload,
    ProposalEncodedPayload,
    ProposalExecutedPayload,
    ProposalPayload,
    ProposalProposedPayload,
    ProposalRefusedPayload,
    ProposalRejectedPayload,
    ResonanceConfirmedPayload,
    ResonanceDetectedPayload,
    ResonanceStrengthenedPayload,
    ResonanceSummary,
    SessionCompletedPayload,
    SessionCreatedPayload,
    SessionPausedPayload,
    SessionResumedPayload,
    SessionStatusPayload,
    StepCompletedPayload,
    StepStartedPayload,
    SubwanderSpawnedPayload,
)
from shared_schemas.event_subjects import PAYLOADS, EventPayload, Subject

# The contract's one import point: the registry and the payloads are re-exported here.
__all__ = [
    "Subject",
    "PAYLOADS",
    "EventPayload",
    "ResonanceSummary",
    "CrystalSummary",
    "SessionCreatedPayload",
    "SessionStatusPayload",
    "SessionPausedPayload",
    "SessionResumedPayload",
    "SessionCompletedPayload",
    "StepStartedPayload",
    "StepCompletedPayload",
    "AdjacenciesFoundPayload",
    "LocusVisitedPayload",
    "LocusPlantedPayload",
    "ResonanceDetectedPayload",
    "ResonanceStrengthenedPayload",
    "ResonanceConfirmedPayload",
    "CrystalFormedPayload",
    "CrystalValidatedPayload",
    "CrystalReviewedPayload",
    "FenceApproachedPayload",
    "FenceChangedPayload",
    "FenceAddedPayload",
    "FenceRemovedPayload",
    "InjectionQueuedPayload",
    "SubwanderSpawnedPayload",
    "CircuitTrippedPayload",
    "ProjectionUpdatedPayload",
    "BudgetLowPayload",
    "ProposalPayload",
    "ProposalProposedPayload",
    "ProposalEncodedPayload",
    "ProposalDecisionPayload",
    "ProposalApprovedPayload",
    "ProposalRejectedPayload",
    "ProposalExecutedPayload",
    "ProposalRefusedPayload",
    "EventSubject",
    "EventBase",
    "ENVELOPES",
    "EventOut",
    "EventFrame",
    "EventsFrame",
    "HeartbeatFrame",
    "CaughtUpFrame",
    "WsFrame",
    "payload_json",
    "EXPORTED",
]

# ---- the envelope: a union discriminated on `subject` -------------------------------------

EventSubject = Literal[tuple(s.value for s in Subject)]  # type: ignore[valid-type]


class EventBase(BaseModel):
    """What every stored event carries besides its subject and payload."""

    session_id: str
    seq: int
    ts: datetime


def _envelope(subject: Subject, payload: type[EventPayload]) -> type[EventBase]:
    name = payload.__name__.removesuffix("Payload") + "Event"
    literal: Any = Literal[subject.value]  # type: ignore[valid-type]  # a Literal made at run time
    model: type[EventBase] = create_model(
        name, __base__=EventBase, __module__=__name__, subject=(literal, ...), payload=(payload, ...)
    )
    return model


ENVELOPES: dict[Subject, type[EventBase]] = {s: _envelope(s, PAYLOADS[s]) for s in Subject if s in PAYLOADS}


class EventOut(RootModel[Annotated[Union[tuple(ENVELOPES.values())], Field(discriminator="subject")]]):  # type: ignore[misc]
    """One stored event; `payload` is the model `subject` names."""


class EventFrame(BaseModel):
    type: Literal["event"]
    event: EventOut


class EventsFrame(BaseModel):
    """Several stored events in seq order, as one frame: how the backlog (and a hole the
    live stream left) comes to a socket opened with `batch=1`."""

    type: Literal["events"]
    events: list[EventOut]


class HeartbeatFrame(BaseModel):
    type: Literal["heartbeat"]
    ts: datetime
    last_seq: int


class CaughtUpFrame(BaseModel):
    """Sent once after the stored backlog: what follows is live."""

    type: Literal["caught_up"]
    last_seq: int


class WsFrame(
    RootModel[Annotated[Union[EventFrame, EventsFrame, HeartbeatFrame, CaughtUpFrame], Field(discriminator="type")]]
):
    """What the WebSocket sends."""


def payload_json(payload: EventPayload) -> dict[str, Any]:
    """The payload as it is stored and sent."""
    return payload.model_dump(mode="json")


EXPORTED: tuple[type[BaseModel], ...] = (
    *PAYLOADS.values(),
    SessionStatusPayload,
    FenceChangedPayload,
    ProposalPayload,
    ProposalDecisionPayload,
    ResonanceSummary,
    CrystalSummary,
    EventOut,
    EventFrame,
    EventsFrame,
    HeartbeatFrame,
    CaughtUpFrame,
    WsFrame,
)
