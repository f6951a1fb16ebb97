"""The wire contract of the REST API: request and response bodies (the events and the
WebSocket frames are in events.py).

Defined once here; JSON Schema (schema.json) and the frontend's TypeScript types
(frontend/src/api/types.gen.ts) are generated from these models by `make schemas`."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from shared_schemas.action import ACTION_MODELS
from shared_schemas.archive import ARCHIVE_MODELS
from shared_schemas.archive import ArchiveList as ArchiveList
from shared_schemas.archive import ArchiveOut as ArchiveOut
from shared_schemas.archive import ProjectionOut as ProjectionOut
from shared_schemas.brick import BRICK_MODELS

# Re-exported: the shapes and the event contract live in common.py and events.py.
from shared_schemas.common import BridgeLink as BridgeLink
from shared_schemas.common import CandidateOut as CandidateOut
from shared_schemas.common import ContradictionLink as ContradictionLink
from shared_schemas.common import FenceAnchorOut as FenceAnchorOut
from shared_schemas.common import LocusOut as LocusOut
from shared_schemas.common import ResidueOut as ResidueOut
from shared_schemas.common import SessionStatusName as SessionStatusName
from shared_schemas.common import SourceTypeName as SourceTypeName
from shared_schemas.common import Strict as Strict
from shared_schemas.events import PAYLOADS as PAYLOADS
from shared_schemas.events import EventFrame as EventFrame
from shared_schemas.events import EventOut as EventOut
from shared_schemas.events import EventSubject as EventSubject
from shared_schemas.events import Subject as Subject
from shared_schemas.events import WsFrame as WsFrame
from shared_schemas.map_view import MAP_MODELS
from shared_schemas.sandwich_charts import CHART_MODELS
from shared_schemas.sandwich_corpus import SANDWICH_MODELS

# ---- requests ------------------------------------------------------------------------
# Every text a client sends has a maximum length and every list a maximum item count.

MAX_DOMAINS = 64  # items in allowed_domains / forbidden_domains (the corpus has a few dozen)
Domain = Annotated[str, Field(max_length=200)]


class SessionCreate(Strict):
    seed_concept: str = Field(min_length=1, max_length=2000, description="Where the wander starts.")
    name: str | None = Field(default=None, max_length=255)
    attractor: str | None = Field(default=None, max_length=2000, description="A vague sense of what we look for.")
    allowed_domains: list[Domain] = Field(default_factory=list, max_length=MAX_DOMAINS)
    forbidden_domains: list[Domain] = Field(default_factory=list, max_length=MAX_DOMAINS)
    max_steps: int = Field(default=100, ge=1, le=10000)
    cloud_budget_cents: int = Field(default=500, ge=0)
    temperature: float = Field(default=0.7, gt=0, le=10)
    random_seed: int = Field(default=0, ge=0, lt=2**32)
    max_drift_distance: float = Field(default=0.8, gt=0, le=2)
    human_checkpoint_frequency: int = Field(default=50, ge=0)
    require_crystal_approval: bool = Field(
        default=False,
        description="Hold every crystal for a person's verdict: none is accepted by the gate alone.",
    )


class SessionPatch(Strict):
    name: str | None = Field(default=None, min_length=1, max_length=255)
    status: Literal["active", "paused", "completed", "abandoned"] | None = None
    allowed_domains: list[Domain] | None = Field(default=None, max_length=MAX_DOMAINS)
    forbidden_domains: list[Domain] | None = Field(default=None, max_length=MAX_DOMAINS)
    max_steps: int | None = Field(default=None, ge=1, le=10000)
    temperature: float | None = Field(default=None, gt=0, le=10)
    cloud_budget_cents: int | None = Field(
        default=None, ge=0, description="Raise it to unstick a budget-tripped wander."
    )
    max_drift_distance: float | None = Field(default=None, gt=0, le=2)
    human_checkpoint_frequency: int | None = Field(default=None, ge=0, description="Pause every N steps; 0: never.")


class WanderRequest(Strict):
    n_steps: int = Field(default=10, ge=1, le=10000, description="At most max_steps (10,000), like a wander's own cap.")
    step_delay_ms: int = Field(default=0, ge=0, le=10000, description="Pause between steps, to watch a wander grow.")


class InjectRequest(Strict):
    concept: str = Field(min_length=1, max_length=2000)
    force_visit: bool = True


class FenceRequest(Strict):
    concept: str = Field(min_length=1, max_length=2000)
    action: Literal["include", "exclude"]


class SearchRequest(Strict):
    query: str = Field(min_length=1, max_length=2000)
    types: list[Literal["locus", "crystal", "resonance"]] = Field(
        default_factory=lambda: ["locus", "crystal", "resonance"],  # type: ignore[arg-type]
        min_length=1,
        max_length=32,  # three kinds; repeats are harmless, an endless list is not
    )
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
    require_crystal_approval: bool = False
    random_seed: int
    step_count: int
    current_locus_id: str | None
    stopped_reason: str | None
    parent_session_id: str | None
    parent_locus_id: str | None = Field(default=None, description="The parent's locus a sub-wander went deeper from.")
    fence: list[FenceAnchorOut] = Field(default_factory=list)
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


class LocusDetail(LocusOut):
    session_id: str
    first_encountered: datetime | None
    last_visited: datetime | None
    adjacent_to: list[dict[str, Any]]
    bridges_to: list[BridgeLink] = []
    contradicts: list[ContradictionLink] = []
    connections: list[Connection]
    arrived_by: ResidueOut | None = Field(description="The residue of the encounter that first reached it.")
    arrived_why: str | None = Field(
        default=None,
        description="Why the step that first reached it was chosen (toward the attractor, bridge, analogy, "
        "tension, novelty, a person's hint), with the strategy that put it forward.",
    )


class Connection(BaseModel):
    locus_id: str
    concept: str
    direction: Literal["from", "to"]
    step_number: int


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


class WanderOutcome(BaseModel):
    """What a run waited for did (POST .../wander?wait=true): 000's answer to the wander call.
    stopped_reason is null when the run took its steps and the wander is still active;
    otherwise it says why the wander is no longer active (max_steps, a breaker, a pause)."""

    session_id: str
    steps_completed: int
    crystals_formed: int
    stopped_reason: str | None = None
    status: SessionStatusName
    step_count: int


class Problem(BaseModel):
    """RFC 9457 problem details; `field` names the offending input when there is one."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str
    field: str | None = None


# ---- the mind map as a workbench: crystal review, fences, compare ----------------------


class CrystalReview(Strict):
    verdict: Literal["accept", "reject"]
    note: str | None = Field(default=None, max_length=2000)


class FenceOut(BaseModel):
    concept: str
    action: Literal["include", "exclude"]


class CompareOut(BaseModel):
    a: LocusOut
    b: LocusOut
    cosine_distance: float
    shared_domains: list[str]
    only_a_domains: list[str]
    only_b_domains: list[str]
    midpoint_concept: str | None = Field(description="The corpus concept nearest the midpoint of the two loci.")
    midpoint_gloss: str | None
    path: list[str] = Field(
        description="Locus ids of the walk from a to b (empty when it never went from one to the other)."
    )


LocusDetail.model_rebuild()

# ---- recall (the Wheeler memory: crystals and episodic memories; the Open WebUI pipeline) ----


class RecallRequest(Strict):
    query: str = Field(min_length=1, max_length=4000, description="What to recall memories for (a chat message).")
    top_k: int = Field(default=5, ge=1, le=50, description="Maximum memories to return.")
    alpha: float = Field(default=0.3, ge=0, le=1, description="Reconstruction blend: 0 pure stored, 1 pure query.")
    min_similarity: float = Field(
        default=0.1, ge=-1, le=1, description="Pearson threshold below which memories are dropped."
    )
    max_context_length: int = Field(
        default=2000, ge=100, le=20000, description="Soft cap on the context block's characters."
    )


class RecallHitOut(BaseModel):
    id: str
    text: str
    chunk: str
    similarity: float
    temperature: float
    tier: str
    hits: int


class RecallOut(BaseModel):
    hits: list[RecallHitOut]
    context: str = Field(description="The formatted block to prepend to a system message ('' when nothing passed).")


# The API's models in the generated files; the event contract adds its own (events.EXPORTED).
EXPORTED: tuple[type[BaseModel], ...] = (
    SessionCreate,
    SessionPatch,
    WanderRequest,
    InjectRequest,
    FenceRequest,
    SearchRequest,
    SubwanderRequest,
    CrystalOut,
    ResonanceOut,
    SearchHit,
    CrystallizeOut,
    SessionOut,
    SessionList,
    LocusOut,
    LocusDetail,
    Connection,
    ResidueOut,
    TraceStep,
    StepOut,
    WanderStarted,
    WanderOutcome,
    Problem,
    CandidateOut,
    FenceAnchorOut,
    *ACTION_MODELS,
    CrystalReview,
    FenceOut,
    CompareOut,
    RecallRequest,
    RecallHitOut,
    RecallOut,
    *SANDWICH_MODELS,
    *ARCHIVE_MODELS,
    *BRICK_MODELS,
    *CHART_MODELS,
    *MAP_MODELS,
)
