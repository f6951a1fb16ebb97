"""The typed payload of every event subject, one model per subject (registered in
event_subjects.PAYLOADS as each class is defined), and the parts they share."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, Field

from shared_schemas.common import (
    BridgeLink,
    CandidateOut,
    ContradictionLink,
    FenceAnchorOut,
    LocusOut,
    ResidueOut,
    SessionStatusName,
)
from shared_schemas.event_subjects import EventPayload, Subject

# ---- parts ---------------------------------------------------------------------------


class ResonanceSummary(BaseModel):
    id: str
    themes: list[str]
    occurrences: int
    strength: float
    status: Literal["candidate", "confirmed", "invalidated"]
    session_id: str | None


class CrystalSummary(BaseModel):
    id: str
    insight: str
    confidence: float
    structural_type: str | None
    status: str
    bread: list[str | None] = Field(description="The two loci the insight sits between.")
    domains: list[str]
    V: float | None = Field(description="The validity score.")
    verdict: str | None


# ---- payloads, one per subject ---------------------------------------------------------


class SessionCreatedPayload(EventPayload):
    subject: ClassVar[Subject] = Subject.SESSION_CREATED
    name: str
    seed_concept: str
    attractor: str | None
    max_steps: int


class SessionStatusPayload(EventPayload):
    """What the session-status subjects share."""

    status: SessionStatusName | None = None
    reason: str | None = None
    detail: str | None = None
    step_count: int | None = None


class SessionPausedPayload(SessionStatusPayload):
    subject: ClassVar[Subject] = Subject.SESSION_PAUSED


class SessionResumedPayload(SessionStatusPayload):
    subject: ClassVar[Subject] = Subject.SESSION_RESUMED


class SessionCompletedPayload(SessionStatusPayload):
    subject: ClassVar[Subject] = Subject.SESSION_COMPLETED


class StepStartedPayload(EventPayload):
    subject: ClassVar[Subject] = Subject.STEP_STARTED
    step_number: int
    from_locus_id: str


class StepCompletedPayload(EventPayload):
    subject: ClassVar[Subject] = Subject.STEP_COMPLETED
    step_number: int
    from_locus: LocusOut
    to_locus: LocusOut
    trace_id: str
    residue: ResidueOut
    selection_reason: str
    resonances_detected: int
    strategy: str = ""
    why: str = ""  # why the step was chosen: toward the attractor, bridge, analogy, tension, novelty, a person's hint
    # what the step taught of the reached locus's connections (engine.connections): new entries
    bridges: list[BridgeLink] = []
    contradictions: list[ContradictionLink] = []


class AdjacenciesFoundPayload(EventPayload):
    subject: ClassVar[Subject] = Subject.ADJACENCIES_FOUND
    step_number: int
    from_locus_id: str
    candidates: list[CandidateOut]


class LocusVisitedPayload(EventPayload):
    subject: ClassVar[Subject] = Subject.LOCUS_VISITED
    step_number: int
    locus: LocusOut
    new: bool
    injected: bool = Field(default=False, description="Planted by a person, not reached by the walk.")


class LocusPlantedPayload(EventPayload):
    """A locus added to the map without the walk going there (a preset's other seeds, an
    inject without force_visit): it never becomes "current". An inject of a concept the
    wander already has a locus of plants no second one: the event names that existing
    locus (its id, its visit count), which marks it as the hint."""

    subject: ClassVar[Subject] = Subject.LOCUS_PLANTED
    step_number: int
    locus: LocusOut
    source: Literal["preset", "inject"]


class ResonanceDetectedPayload(EventPayload):
    subject: ClassVar[Subject] = Subject.RESONANCE_DETECTED
    resonance: ResonanceSummary


class ResonanceStrengthenedPayload(EventPayload):
    subject: ClassVar[Subject] = Subject.RESONANCE_STRENGTHENED
    resonance: ResonanceSummary
    similarity: float


class ResonanceConfirmedPayload(EventPayload):
    subject: ClassVar[Subject] = Subject.RESONANCE_CONFIRMED
    resonance: ResonanceSummary
    similarity: float


class CrystalFormedPayload(EventPayload):
    subject: ClassVar[Subject] = Subject.CRYSTAL_FORMED
    crystal: CrystalSummary


class CrystalValidatedPayload(EventPayload):
    subject: ClassVar[Subject] = Subject.CRYSTAL_VALIDATED
    crystal_id: str
    V: float


class CrystalReviewedPayload(EventPayload):
    """A person's verdict on a crystal the gate kept for review (0.5 <= V < 0.7)."""

    subject: ClassVar[Subject] = Subject.CRYSTAL_REVIEWED
    crystal_id: str
    verdict: Literal["accept", "reject"]
    status: str
    note: str | None = None


class FenceApproachedPayload(EventPayload):
    subject: ClassVar[Subject] = Subject.FENCE_APPROACHED
    step_number: int
    concept: str
    anchor: str
    boundary: Literal["include", "exclude"]
    cosine: float


class FenceChangedPayload(EventPayload):
    """What both fence changes carry: the anchor changed and the whole fence after it."""

    concept: str
    fence: list[FenceAnchorOut]


class FenceAddedPayload(FenceChangedPayload):
    subject: ClassVar[Subject] = Subject.FENCE_ADDED
    action: Literal["include", "exclude"]


class FenceRemovedPayload(FenceChangedPayload):
    subject: ClassVar[Subject] = Subject.FENCE_REMOVED


class InjectionQueuedPayload(EventPayload):
    """A forced injection was queued: the next step goes to `concept`, whoever runs it.
    Written in the transaction that sets the session's pending injection; the step that
    takes it reports the visit (wander.step.completed)."""

    subject: ClassVar[Subject] = Subject.INJECTION_QUEUED
    concept: str
    injection_id: str = Field(description="The pending injection's id: the step that takes it clears this one only.")
    replaced: str | None = Field(
        description="The concept of the pending forced injection this one replaced (null when none was pending)."
    )


class SubwanderSpawnedPayload(EventPayload):
    """A sub-wander ("go deeper") was spawned from a locus of this wander. On the parent's
    stream (`session_id` is the parent's), written in the transaction that creates the
    child; the child's own progress is on the child's stream."""

    subject: ClassVar[Subject] = Subject.SUBWANDER_SPAWNED
    child_session_id: str
    parent_locus_id: str = Field(description="The parent's locus the child is seeded at.")
    seed_concept: str
    name: str
    max_steps: int
    budget_share: float = Field(description="The share of the parent's remaining cloud budget the child took.")
    cloud_budget_cents: int = Field(description="The child's cloud budget: that share, in cents.")


class CircuitTrippedPayload(EventPayload):
    subject: ClassVar[Subject] = Subject.CIRCUIT_TRIPPED
    reason: str
    detail: str
    step_number: int | None = None


class ProjectionUpdatedPayload(EventPayload):
    """The stored 2-D projection of the wander's loci was refitted: maps fetch it again."""

    subject: ClassVar[Subject] = Subject.PROJECTION_UPDATED
    fit_id: str
    method: Literal["umap", "pca"]
    n_loci: int


class BudgetLowPayload(EventPayload):
    subject: ClassVar[Subject] = Subject.BUDGET_LOW
    spent_cents: int
    budget_cents: int
    share: float


# ---- the action layer's payloads (wander.core.action.service) ---------------------------------


class ProposalPayload(EventPayload):
    """What every proposal event carries; a proposal's crystal may have no session."""

    proposal_id: str
    session_id: str | None  # type: ignore[assignment]


class ProposalProposedPayload(ProposalPayload):
    subject: ClassVar[Subject] = Subject.PROPOSAL_PROPOSED
    crystal_id: str
    status: Literal["pending"]
    action: str
    expected_value_cents: int
    cost_cents: int
    evaluator: str


class ProposalEncodedPayload(ProposalPayload):
    subject: ClassVar[Subject] = Subject.PROPOSAL_ENCODED
    crystal_id: str
    image_sha256: str
    image_url: str
    bytes: int
    side: int


class ProposalDecisionPayload(ProposalPayload):
    reviewer: str
    image_sha256: str
    via: str
    token_verified: bool


class ProposalApprovedPayload(ProposalDecisionPayload):
    subject: ClassVar[Subject] = Subject.PROPOSAL_APPROVED
    status: Literal["approved"]


class ProposalRejectedPayload(ProposalDecisionPayload):
    subject: ClassVar[Subject] = Subject.PROPOSAL_REJECTED
    status: Literal["rejected"]


class ProposalExecutedPayload(ProposalPayload):
    subject: ClassVar[Subject] = Subject.PROPOSAL_EXECUTED
    status: Literal["executed"]
    execution: dict[str, Any]


class ProposalRefusedPayload(ProposalPayload):
    subject: ClassVar[Subject] = Subject.PROPOSAL_REFUSED
    status: Literal["refused"]
    reason: str
