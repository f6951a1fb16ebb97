"""The wire contract: API bodies, the event envelope and event payloads, WebSocket frames.

Defined once here; JSON Schema (schema.json) and the frontend's TypeScript types
(frontend/src/api/types.gen.ts) are generated from these models by `make schemas`."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

from shared_schemas.action import ACTION_MODELS

SessionStatusName = Literal["active", "paused", "completed", "abandoned"]
SourceTypeName = Literal["SEED", "ADJACENT", "BRIDGED", "SERENDIPITOUS"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ---- requests ------------------------------------------------------------------------


class SessionCreate(Strict):
    seed_concept: str = Field(min_length=1, max_length=2000, description="Where the wander starts.")
    name: str | None = Field(default=None, max_length=255)
    attractor: str | None = Field(default=None, max_length=2000, description="A vague sense of what we look for.")
    allowed_domains: list[str] = Field(default_factory=list)
    forbidden_domains: list[str] = Field(default_factory=list)
    max_steps: int = Field(default=100, ge=1, le=10000)
    cloud_budget_cents: int = Field(default=500, ge=0)
    temperature: float = Field(default=0.7, gt=0, le=10)
    random_seed: int = Field(default=0, ge=0, lt=2**32)
    max_drift_distance: float = Field(default=0.8, gt=0, le=2)
    human_checkpoint_frequency: int = Field(default=50, ge=0)


class SessionPatch(Strict):
    name: str | None = Field(default=None, min_length=1, max_length=255)
    status: Literal["active", "paused", "completed", "abandoned"] | None = None
    allowed_domains: list[str] | None = None
    forbidden_domains: list[str] | None = None
    max_steps: int | None = Field(default=None, ge=1, le=10000)
    temperature: float | None = Field(default=None, gt=0, le=10)


class WanderRequest(Strict):
    n_steps: int = Field(default=10, ge=1, le=1000)
    step_delay_ms: int = Field(default=0, ge=0, le=10000, description="Pause between steps, to watch a wander grow.")


class InjectRequest(Strict):
    concept: str = Field(min_length=1, max_length=2000)
    force_visit: bool = True


class FenceRequest(Strict):
    concept: str = Field(min_length=1, max_length=2000)
    action: Literal["include", "exclude"]


class SearchRequest(Strict):
    query: str = Field(min_length=1, max_length=2000)
    types: list[Literal["locus", "crystal", "resonance"]] = Field(default_factory=lambda: ["locus", "crystal", "resonance"],
                                                                  min_length=1)
    limit: int = Field(default=10, ge=1, le=100)


class SubwanderRequest(Strict):
    max_steps: int = Field(default=50, ge=1, le=10000)
    budget_share: float = Field(default=0.25, ge=0, le=1)
    random_seed: int | None = Field(default=None, ge=0, lt=2**32)


# ---- responses -----------------------------------------------------------------------


class CrystalOut(BaseModel):
    id: str
    session_id: str | None
    insight: str
    confidence: float
    actionability: float
    domains: list[str]
    status: str
    structural_type: str | None
    bread_a_locus_id: str | None
    bread_b_locus_id: str | None
    source_resonance_id: str | None
    source_locus_id: str | None
    validity: dict[str, Any]
    supporting_evidence: list[dict[str, Any]]
    rumination: list[dict[str, Any]]
    human_approved: bool
    validation_notes: str | None
    created_at: datetime | None


class ResonanceOut(BaseModel):
    id: str
    session_id: str | None
    themes: list[str]
    occurrences: int
    strength: float
    status: Literal["candidate", "confirmed", "invalidated"]
    supporting_residue_ids: list[str]
    last_reinforced_at: datetime | None
    created_at: datetime | None


class SearchHit(BaseModel):
    type: Literal["locus", "crystal", "resonance"]
    id: str
    session_id: str | None
    text: str
    similarity: float


class CrystallizeOut(BaseModel):
    crystal: CrystalOut | None
    outcome: str
    rumination_steps: int


class SessionOut(BaseModel):
    id: str
    project_id: str
    name: str
    status: SessionStatusName
    seed_concept: str
    attractor: str | None
    allowed_domains: list[str]
    forbidden_domains: list[str]
    max_drift_distance: float
    max_steps: int
    cloud_budget_cents: int
    cloud_spent_cents: int
    local_calls: int
    cloud_calls: int
    temperature: float
    human_checkpoint_frequency: int
    random_seed: int
    step_count: int
    current_locus_id: str | None
    stopped_reason: str | None
    parent_session_id: str | None
    running: bool = Field(description="A background run is stepping this wander now.")
    last_event_seq: int
    created_at: datetime | None
    last_step_at: datetime | None
    completed_at: datetime | None


class SessionList(BaseModel):
    items: list[SessionOut]
    total: int
    limit: int
    offset: int


class LocusOut(BaseModel):
    id: str
    concept: str
    domains: list[str]
    source_type: SourceTypeName
    kb_key: str | None
    visit_count: int
    abstraction_level: float
    novelty_score: float
    interestingness: float
    actionability: float
    uncertainty: float


class LocusDetail(LocusOut):
    session_id: str
    first_encountered: datetime | None
    last_visited: datetime | None
    adjacent_to: list[dict[str, Any]]
    connections: list["Connection"]
    arrived_by: "ResidueOut | None" = Field(description="The residue of the encounter that first reached it.")


class Connection(BaseModel):
    locus_id: str
    concept: str
    direction: Literal["from", "to"]
    step_number: int


class ResidueOut(BaseModel):
    connection: str
    tension: str
    bridge: str
    surprise: str
    possibility: str
    themes: list[str]
    interestingness: float
    actionability: float
    model_used: str


class TraceStep(BaseModel):
    step_number: int
    from_locus_id: str | None
    to_locus_id: str
    from_concept: str | None
    to_concept: str
    adjacencies_considered: int | None
    selection_scores: dict[str, Any]
    selection_reason: str | None
    model_used: str | None
    created_at: datetime | None
    residue: ResidueOut | None


class StepOut(BaseModel):
    step_number: int
    from_locus: LocusOut
    to_locus: LocusOut
    residue: ResidueOut
    resonances_detected: int


class WanderStarted(BaseModel):
    session_id: str
    n_steps: int
    from_step: int
    status: SessionStatusName
    running: bool


class Problem(BaseModel):
    """RFC 9457 problem details; `field` names the offending input when there is one."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str
    field: str | None = None


# ---- events --------------------------------------------------------------------------


class CandidateOut(BaseModel):
    concept: str
    kb_key: str | None
    locus_id: str | None
    domains: list[str]
    strategy: str
    reason: str
    distance: float
    scores: dict[str, float]
    probability: float | None = None


class SessionCreatedPayload(BaseModel):
    session_id: str
    name: str
    seed_concept: str
    attractor: str | None
    max_steps: int


class SessionStatusPayload(BaseModel):
    session_id: str
    status: SessionStatusName | None = None
    reason: str | None = None
    step_count: int | None = None


class StepStartedPayload(BaseModel):
    session_id: str
    step_number: int
    from_locus_id: str


class AdjacenciesFoundPayload(BaseModel):
    session_id: str
    step_number: int
    from_locus_id: str
    candidates: list[CandidateOut]


class LocusVisitedPayload(BaseModel):
    session_id: str
    step_number: int
    locus: LocusOut
    new: bool


class StepCompletedPayload(BaseModel):
    session_id: str
    step_number: int
    from_locus: LocusOut
    to_locus: LocusOut
    trace_id: str
    residue: ResidueOut
    selection_reason: str
    resonances_detected: int


class CircuitTrippedPayload(BaseModel):
    session_id: str
    reason: str
    detail: str


class ProjectionUpdatedPayload(BaseModel):
    session_id: str
    fit_id: str
    method: Literal["umap", "pca"]
    n_loci: int


EventSubject = Literal[
    "wander.session.created", "wander.session.paused", "wander.session.resumed", "wander.session.completed",
    "wander.step.started", "wander.step.completed", "wander.adjacencies.found", "wander.locus.visited",
    "wander.resonance.detected", "wander.resonance.strengthened", "wander.resonance.confirmed",
    "wander.crystal.formed", "wander.crystal.validated", "wander.fence.approached", "wander.circuit.tripped",
    "wander.budget.low", "wander.projection.updated",
    "wander.proposal.proposed", "wander.proposal.encoded", "wander.proposal.approved", "wander.proposal.rejected",
    "wander.proposal.executed", "wander.proposal.refused",
]  # fmt: skip

PAYLOADS: dict[str, type[BaseModel]] = {
    "wander.session.created": SessionCreatedPayload,
    "wander.session.paused": SessionStatusPayload,
    "wander.session.resumed": SessionStatusPayload,
    "wander.session.completed": SessionStatusPayload,
    "wander.step.started": StepStartedPayload,
    "wander.step.completed": StepCompletedPayload,
    "wander.adjacencies.found": AdjacenciesFoundPayload,
    "wander.locus.visited": LocusVisitedPayload,
    "wander.circuit.tripped": CircuitTrippedPayload,
    "wander.projection.updated": ProjectionUpdatedPayload,
}


class EventOut(BaseModel):
    session_id: str
    seq: int
    subject: EventSubject
    ts: datetime
    payload: dict[str, Any]


class EventFrame(BaseModel):
    type: Literal["event"]
    event: EventOut


class HeartbeatFrame(BaseModel):
    type: Literal["heartbeat"]
    ts: datetime
    last_seq: int


class CaughtUpFrame(BaseModel):
    """Sent once after the stored backlog: what follows is live."""

    type: Literal["caught_up"]
    last_seq: int


WsFrame = Union[EventFrame, HeartbeatFrame, CaughtUpFrame]



# ---- archives and projections (issue 11) ---------------------------------------------


class ArchiveOut(BaseModel):
    session_id: str
    name: str
    seed_concept: str
    attractor: str | None
    status: SessionStatusName
    step_count: int
    loci_count: int
    crystal_count: int
    fingerprint: str = Field(description="Which state of the wander the artefacts show.")
    fit_id: str | None = Field(description="The projection fit the UMAP plot was drawn from.")
    archived_at: datetime | None
    created_at: datetime | None = Field(description="When the wander was created.")
    similarity: float | None = Field(default=None, description="Cosine similarity to the search query, if any.")
    written: bool | None = Field(default=None, description="POST .../archive: written now (false: already current).")


class ArchiveList(BaseModel):
    items: list[ArchiveOut]


class ProjectionPoint(BaseModel):
    locus_id: str
    x: float
    y: float
    fitted: bool = Field(description="Placed by the fit itself; false: placed by transform since.")
    session_id: str | None = None


class ProjectionOut(BaseModel):
    session_id: str | None = None
    sessions: list[str] | None = None
    fit_id: str
    method: Literal["umap", "pca"]
    points: list[ProjectionPoint]


LocusDetail.model_rebuild()

EXPORTED: tuple[type[BaseModel], ...] = (
    SessionCreate, SessionPatch, WanderRequest, InjectRequest, FenceRequest, SearchRequest, SubwanderRequest,
    CrystalOut, ResonanceOut, SearchHit, CrystallizeOut, SessionOut, SessionList, LocusOut, LocusDetail, Connection,
    ResidueOut, TraceStep, StepOut, WanderStarted, Problem, CandidateOut, SessionCreatedPayload,
    SessionStatusPayload, StepStartedPayload, AdjacenciesFoundPayload, LocusVisitedPayload, StepCompletedPayload,
    CircuitTrippedPayload, EventOut, EventFrame, HeartbeatFrame, CaughtUpFrame, *ACTION_MODELS,
    ProjectionUpdatedPayload, ArchiveOut, ArchiveList, ProjectionPoint, ProjectionOut,
)  # fmt: skip
