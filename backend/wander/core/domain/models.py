"""Plain data of a wander: sessions, loci, candidates, residues, traces and events. No I/O."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

import numpy as np


def new_id() -> str:
    return str(uuid.uuid4())


class SessionStatus(StrEnum):
    ACTIVE = "active"
    PAUSED = "paused"
    COMPLETED = "completed"
    ABANDONED = "abandoned"


FINISHED = frozenset({SessionStatus.COMPLETED, SessionStatus.ABANDONED})  # no step, no resume after these


class SourceType(StrEnum):
    SEED = "SEED"
    ADJACENT = "ADJACENT"
    BRIDGED = "BRIDGED"
    SERENDIPITOUS = "SERENDIPITOUS"


@dataclass
class Session:
    id: str
    project_id: str
    name: str
    seed_concept: str
    seed_embedding: np.ndarray
    attractor: str | None = None
    attractor_embedding: np.ndarray | None = None
    status: SessionStatus = SessionStatus.ACTIVE
    allowed_domains: list[str] = field(default_factory=list)
    forbidden_domains: list[str] = field(default_factory=list)
    max_drift_distance: float = 0.8
    max_steps: int = 1000
    cloud_budget_cents: int = 500
    cloud_spent_cents: int = 0
    local_calls: int = 0
    cloud_calls: int = 0
    temperature: float = 0.7
    human_checkpoint_frequency: int = 50
    require_crystal_approval: bool = False  # every crystal held for a person's verdict
    random_seed: int = 0
    step_count: int = 0
    current_locus_id: str | None = None
    stopped_reason: str | None = None
    parent_session_id: str | None = None
    parent_locus_id: str | None = None
    fence: list[FenceAnchor] = field(default_factory=list)
    pending_injection: dict[str, Any] | None = None  # {"concept": ...} to visit next, forced
    run_until_step: int | None = None  # the step a requested run goes to; resumed after a crash
    event_seq: int = 0  # seq of the last event written for this session
    created_at: datetime | None = None
    last_step_at: datetime | None = None
    completed_at: datetime | None = None


@dataclass
class Locus:
    id: str
    session_id: str
    concept: str
    embedding: np.ndarray
    source_type: SourceType
    domains: list[str]
    abstraction_level: float = 0.5
    novelty_score: float = 0.5
    interestingness: float = 0.5
    actionability: float = 0.0
    uncertainty: float = 0.5
    visit_count: int = 0
    kb_key: str | None = None
    first_encountered: datetime | None = None
    last_visited: datetime | None = None
    adjacent_to: list[dict[str, Any]] = field(default_factory=list)
    bridges_to: list[dict[str, Any]] = field(default_factory=list)  # engine.connections
    contradicts: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Scores:
    interestingness: float
    novelty: float
    bridge_potential: float
    uncertainty: float
    composite: float = 0.0

    def as_dict(self) -> dict[str, float]:
        return {
            "interestingness": round(self.interestingness, 4),
            "novelty": round(self.novelty, 4),
            "bridge_potential": round(self.bridge_potential, 4),
            "uncertainty": round(self.uncertainty, 4),
            "composite": round(self.composite, 4),
        }


@dataclass
class Candidate:
    """A concept proposed as the next locus, with the strategy that made it and why."""

    concept: str
    embedding: np.ndarray
    domains: list[str]
    strategy: str
    reason: str
    distance: float
    scores: Scores  # every strategy scores what it puts forward
    kb_key: str | None = None
    locus_id: str | None = None  # set when the candidate is a locus the wander already has
    abstraction_level: float = 0.5
    # why it was put forward, in a word a person reads: "toward the attractor", "bridge",
    # "analogy", "tension", "novelty" or "a person's hint" (WHYS)
    why: str = ""


WHYS = ("toward the attractor", "bridge", "analogy", "tension", "novelty", "a person's hint")


@dataclass
class Residue:
    """What dwelling on an encounter leaves behind: five facets, themes and two scores."""

    connection: str
    tension: str
    bridge: str
    surprise: str
    possibility: str
    themes: list[str]
    interestingness: float
    actionability: float
    model_used: str
    themes_embedding: np.ndarray | None = None
    details: dict[str, Any] = field(default_factory=dict)
    # What the dwelling cost and where it ran: route is offline | local | cloud.
    route: str = "offline"
    tokens_used: int = 0
    cost_cents: int = 0
    # A model answer that could not be repaired is kept (raw) and the dwell marked failed.
    failed: bool = False
    raw_output: str | None = None

    FACETS = ("connection", "tension", "bridge", "surprise", "possibility")

    def facets(self) -> dict[str, str]:
        return {name: getattr(self, name) for name in self.FACETS}


@dataclass
class Trace:
    id: str
    session_id: str
    step_number: int
    from_locus_id: str | None
    to_locus_id: str
    adjacencies_considered: int
    selection_scores: dict[str, Any]
    selection_reason: str
    model_used: str
    tokens_used: int = 0
    cost_cents: int = 0
    worker_id: str | None = None
    created_at: datetime | None = None


@dataclass
class EventDraft:
    """An event before the store gives it its gapless per-session sequence number."""

    subject: str
    payload: dict[str, Any]


@dataclass
class Event:
    session_id: str
    seq: int
    subject: str
    ts: datetime
    payload: dict[str, Any]


@dataclass
class FenceAnchor:
    """A fence post given as a concept: include anchors draw the region the wander may walk,
    exclude anchors cut regions out of it (see engine/fence.py for the geometry)."""

    concept: str
    action: str  # include | exclude
    embedding: np.ndarray


@dataclass
class CompostItem:
    id: str
    kind: str  # what it was in warm memory: theme_cluster | failed_path | summary
    text: str
    domains: list[str]
    embedding: np.ndarray


class ResonanceStatus(StrEnum):
    CANDIDATE = "candidate"
    CONFIRMED = "confirmed"
    INVALIDATED = "invalidated"


class CrystalStatus(StrEnum):
    ACTIVE = "active"
    ACTED_UPON = "acted_upon"
    INVALIDATED = "invalidated"
    ARCHIVED = "archived"


@dataclass
class Resonance:
    id: str
    project_id: str
    session_id: str | None
    themes: list[str]
    embedding: np.ndarray
    occurrences: int = 1
    strength: float = 1.0
    status: ResonanceStatus = ResonanceStatus.CANDIDATE
    supporting_residue_ids: list[str] = field(default_factory=list)
    last_reinforced_at: datetime | None = None
    decay_rate: float = 0.1
    created_at: datetime | None = None


@dataclass
class WarmMemory:
    id: str
    session_id: str
    cluster_type: str  # theme_cluster | failed_path | summary
    content: dict[str, Any]
    embedding: np.ndarray | None
    strength: float = 1.0
    last_accessed_at: datetime | None = None
    created_at: datetime | None = None
    expires_at: datetime | None = None


@dataclass
class HotItem:
    """One encounter in working memory, in full detail."""

    step_number: int
    residue_id: str
    from_concept: str
    to_concept: str
    to_domains: list[str]
    themes: list[str]
    themes_embedding: np.ndarray
    interestingness: float
    # the step's words by facet (connection, tension, ...): a dweller reads the recent ones so
    # as not to open its facets as the last steps did, in whichever process takes the step
    facets: dict[str, str] = field(default_factory=dict)


@dataclass
class Crystal:
    id: str
    project_id: str
    session_id: str | None
    insight: str
    embedding: np.ndarray
    confidence: float
    actionability: float
    domains: list[str]
    status: str = CrystalStatus.ACTIVE
    source_resonance_id: str | None = None
    source_locus_id: str | None = None
    supporting_evidence: list[dict[str, Any]] = field(default_factory=list)
    bread_a_locus_id: str | None = None
    bread_b_locus_id: str | None = None
    validity: dict[str, Any] = field(default_factory=dict)
    structural_type: str | None = None
    rumination: list[dict[str, Any]] = field(default_factory=list)
    validated_by: str | None = None
    validation_notes: str | None = None
    human_approved: bool = False
    created_at: datetime | None = None
