"""SQLModel tables: those of 000, plus projects, wander_events (the outbox) and kb_concepts.

The vector dimension follows the embedder (WANDER_EMBED_DIM, 384 for MiniLM)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from pgvector.sqlalchemy import Vector
from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    Text,
    UniqueConstraint,
    func,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY, JSONB, UUID
from sqlmodel import Field, SQLModel

from wander.config import load_section

DIM: int = load_section("database").embed_dim  # WANDER_EMBED_DIM
DEFAULT_PROJECT_ID = uuid.UUID("00000000-0000-0000-0000-000000000001")


def _uuid_pk() -> Any:
    return Field(default_factory=uuid.uuid4, sa_column=Column(UUID(as_uuid=True), primary_key=True,
                                                              server_default=text("gen_random_uuid()")))  # fmt: skip


def _ts(nullable: bool = True, default_now: bool = False) -> Any:
    return Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=nullable,
                                                server_default=func.now() if default_now else None))  # fmt: skip


def _fk(target: str, *, nullable: bool, ondelete: str | None = None, index: bool = False) -> Any:
    return Field(default=None, sa_column=Column(UUID(as_uuid=True), ForeignKey(target, ondelete=ondelete),
                                                nullable=nullable, index=index))  # fmt: skip


def _text_array(nullable: bool = True) -> Any:
    return Field(default_factory=list, sa_column=Column(ARRAY(Text), nullable=nullable, server_default="{}"))


def _jsonb(default: str = "[]") -> Any:
    return Field(default_factory=list, sa_column=Column(JSONB, nullable=False, server_default=text(f"'{default}'")))


def _vector(nullable: bool = True) -> Any:
    return Field(default=None, sa_column=Column(Vector(DIM), nullable=nullable))


class Project(SQLModel, table=True):
    __tablename__ = "projects"
    id: uuid.UUID = _uuid_pk()
    name: str = Field(sa_column=Column(Text, nullable=False, unique=True))
    created_at: datetime | None = _ts(default_now=True)


class WanderSession(SQLModel, table=True):
    __tablename__ = "wander_sessions"
    __table_args__ = (
        CheckConstraint("status IN ('active', 'paused', 'completed', 'abandoned')", name="valid_status"),
    )
    id: uuid.UUID = _uuid_pk()
    project_id: uuid.UUID = _fk("projects.id", nullable=False, index=True)
    name: str = Field(max_length=255)
    status: str = Field(default="active", max_length=50, index=True)
    seed_concept: str = Field(sa_column=Column(Text, nullable=False))
    seed_embedding: Any = _vector()
    attractor: str | None = Field(default=None, sa_column=Column(Text))
    attractor_embedding: Any = _vector()
    allowed_domains: list[str] = _text_array()
    forbidden_domains: list[str] = _text_array()
    fence_embeddings: Any = Field(default=None, sa_column=Column(ARRAY(Vector(DIM))))
    max_drift_distance: float = 0.8
    max_steps: int = 1000
    cloud_budget_cents: int = 500
    cloud_spent_cents: int = 0
    local_calls: int = 0
    cloud_calls: int = 0
    temperature: float = 0.7
    human_checkpoint_frequency: int = 50
    # Beyond 000: replayable randomness, progress, the outbox counter and lineage.
    random_seed: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, server_default="0"))
    step_count: int = 0
    event_seq: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, server_default="0"))
    current_locus_id: uuid.UUID | None = Field(default=None, sa_column=Column(UUID(as_uuid=True)))
    stopped_reason: str | None = Field(default=None, sa_column=Column(Text))
    parent_session_id: uuid.UUID | None = _fk("wander_sessions.id", nullable=True, ondelete="SET NULL")
    run_until_step: int | None = None
    parent_locus_id: uuid.UUID | None = Field(default=None, sa_column=Column(UUID(as_uuid=True)))
    # Fence anchors [{concept, action, embedding}] and a forced visit waiting for the next step.
    fence: list[dict] = _jsonb()
    pending_injection: dict | None = Field(default=None, sa_column=Column(JSONB))
    created_at: datetime | None = _ts(default_now=True)
    last_step_at: datetime | None = _ts()
    completed_at: datetime | None = _ts()


class WanderLocus(SQLModel, table=True):
    __tablename__ = "wander_loci"
    __table_args__ = (
        CheckConstraint("source_type IN ('SEED', 'ADJACENT', 'BRIDGED', 'SERENDIPITOUS')", name="valid_source_type"),
        Index("idx_loci_embedding", "embedding", postgresql_using="hnsw",
              postgresql_ops={"embedding": "vector_cosine_ops"}),
    )  # fmt: skip
    id: uuid.UUID = _uuid_pk()
    session_id: uuid.UUID = _fk("wander_sessions.id", nullable=False, ondelete="CASCADE", index=True)
    concept: str = Field(sa_column=Column(Text, nullable=False))
    embedding: Any = _vector(nullable=False)
    source_type: str = Field(max_length=50)
    domains: list[str] = _text_array(nullable=False)
    abstraction_level: float = 0.5
    novelty_score: float = 0.5
    interestingness: float = 0.5
    actionability: float = 0.0
    uncertainty: float = 0.5
    visit_count: int = 0
    kb_key: str | None = Field(default=None, sa_column=Column(Text))
    first_encountered: datetime | None = _ts(default_now=True)
    last_visited: datetime | None = _ts()
    adjacent_to: list[dict] = _jsonb()
    bridges_to: list[dict] = _jsonb()
    contradicts: list[dict] = _jsonb()


class WanderTrace(SQLModel, table=True):
    __tablename__ = "wander_traces"
    __table_args__ = (
        UniqueConstraint("session_id", "step_number", name="uq_traces_session_step"),
        Index("idx_traces_session", "session_id", "step_number"),
    )
    id: uuid.UUID = _uuid_pk()
    session_id: uuid.UUID = _fk("wander_sessions.id", nullable=False, ondelete="CASCADE")
    step_number: int
    from_locus_id: uuid.UUID | None = _fk("wander_loci.id", nullable=True)
    to_locus_id: uuid.UUID = _fk("wander_loci.id", nullable=False)
    adjacencies_considered: int | None = None
    selection_scores: dict = Field(default_factory=dict, sa_column=Column(JSONB))
    selection_reason: str | None = Field(default=None, sa_column=Column(Text))
    model_used: str | None = Field(default=None, max_length=100)
    tokens_used: int | None = None
    cost_cents: int = 0
    worker_id: str | None = Field(default=None, sa_column=Column(Text))  # who ran the step (scale-out)
    created_at: datetime | None = _ts(default_now=True)


class WanderResidue(SQLModel, table=True):
    __tablename__ = "wander_residues"
    __table_args__ = (
        Index("idx_residues_themes_embedding", "themes_embedding", postgresql_using="hnsw",
              postgresql_ops={"themes_embedding": "vector_cosine_ops"}),
    )  # fmt: skip
    id: uuid.UUID = _uuid_pk()
    session_id: uuid.UUID = _fk("wander_sessions.id", nullable=False, ondelete="CASCADE", index=True)
    trace_id: uuid.UUID = _fk("wander_traces.id", nullable=False, ondelete="CASCADE")
    from_locus_id: uuid.UUID | None = _fk("wander_loci.id", nullable=True)
    to_locus_id: uuid.UUID = _fk("wander_loci.id", nullable=False)
    connection: str | None = Field(default=None, sa_column=Column(Text))
    tension: str | None = Field(default=None, sa_column=Column(Text))
    bridge: str | None = Field(default=None, sa_column=Column(Text))
    surprise: str | None = Field(default=None, sa_column=Column(Text))
    possibility: str | None = Field(default=None, sa_column=Column(Text))
    themes: list[str] = _text_array()
    themes_embedding: Any = _vector()
    interestingness: float | None = None
    actionability: float | None = None
    model_used: str | None = Field(default=None, max_length=100)
    # Beyond 000: the figures and concepts each facet was built from, so it can be checked.
    details: dict = Field(default_factory=dict, sa_column=Column(JSONB, nullable=False, server_default="{}"))
    created_at: datetime | None = _ts(default_now=True)


class WanderResonance(SQLModel, table=True):
    __tablename__ = "wander_resonances"
    __table_args__ = (
        CheckConstraint("status IN ('candidate', 'confirmed', 'invalidated')", name="valid_resonance_status"),
        Index("idx_resonances_embedding", "embedding", postgresql_using="hnsw",
              postgresql_ops={"embedding": "vector_cosine_ops"}),
    )  # fmt: skip
    id: uuid.UUID = _uuid_pk()
    session_id: uuid.UUID | None = _fk("wander_sessions.id", nullable=True, ondelete="CASCADE")
    project_id: uuid.UUID = _fk("projects.id", nullable=False, index=True)
    themes: list[str] = _text_array(nullable=False)
    embedding: Any = _vector(nullable=False)
    occurrences: int = 1
    strength: float = 1.0
    status: str = Field(default="candidate", max_length=50)
    supporting_residue_ids: list[uuid.UUID] = Field(
        default_factory=list, sa_column=Column(ARRAY(UUID(as_uuid=True)), server_default="{}")
    )
    last_reinforced_at: datetime | None = _ts(default_now=True)
    decay_rate: float = 0.1
    created_at: datetime | None = _ts(default_now=True)


class WanderCrystal(SQLModel, table=True):
    __tablename__ = "wander_crystals"
    __table_args__ = (
        CheckConstraint("status IN ('active', 'acted_upon', 'invalidated', 'archived')", name="valid_crystal_status"),
        Index("idx_crystals_embedding", "embedding", postgresql_using="hnsw",
              postgresql_ops={"embedding": "vector_cosine_ops"}),
    )  # fmt: skip
    id: uuid.UUID = _uuid_pk()
    session_id: uuid.UUID | None = _fk("wander_sessions.id", nullable=True, ondelete="SET NULL")
    project_id: uuid.UUID = _fk("projects.id", nullable=False, index=True)
    insight: str = Field(sa_column=Column(Text, nullable=False))
    embedding: Any = _vector(nullable=False)
    confidence: float
    actionability: float
    domains: list[str] = _text_array(nullable=False)
    # A crystal is cross-session knowledge: deleting its wander detaches it (migration 0006).
    source_resonance_id: uuid.UUID | None = _fk("wander_resonances.id", nullable=True, ondelete="SET NULL")
    source_locus_id: uuid.UUID | None = _fk("wander_loci.id", nullable=True, ondelete="SET NULL")
    supporting_evidence: list[dict] = _jsonb()
    status: str = Field(default="active", max_length=50)
    validated_by: str | None = Field(default=None, max_length=100)
    validation_notes: str | None = Field(default=None, sa_column=Column(Text))
    human_approved: bool = False
    human_approved_at: datetime | None = _ts()
    human_approved_by: str | None = Field(default=None, max_length=255)
    # The sandwich (004): two bread loci around the insight, its validity and type, and the
    # rumination (003) that thought it through.
    bread_a_locus_id: uuid.UUID | None = Field(default=None, sa_column=Column(UUID(as_uuid=True)))
    bread_b_locus_id: uuid.UUID | None = Field(default=None, sa_column=Column(UUID(as_uuid=True)))
    validity: dict = Field(default_factory=dict, sa_column=Column(JSONB, nullable=False, server_default="{}"))
    structural_type: str | None = Field(default=None, sa_column=Column(Text))
    rumination: list[dict] = _jsonb()
    created_at: datetime | None = _ts(default_now=True)


class WanderWarmMemory(SQLModel, table=True):
    __tablename__ = "wander_warm_memory"
    id: uuid.UUID = _uuid_pk()
    session_id: uuid.UUID = _fk("wander_sessions.id", nullable=False, ondelete="CASCADE", index=True)
    cluster_type: str = Field(max_length=50)
    content: dict = Field(sa_column=Column(JSONB, nullable=False))
    embedding: Any = _vector()
    strength: float = 1.0
    last_accessed_at: datetime | None = _ts(default_now=True)
    created_at: datetime | None = _ts(default_now=True)
    expires_at: datetime | None = _ts()


class WanderCompost(SQLModel, table=True):
    """Decayed warm memory: gone from the working set, still found by vector distance."""

    __tablename__ = "wander_compost"
    __table_args__ = (
        Index("idx_compost_embedding", "embedding", postgresql_using="hnsw",
              postgresql_ops={"embedding": "vector_cosine_ops"}),
    )  # fmt: skip
    id: uuid.UUID = _uuid_pk()
    session_id: uuid.UUID = _fk("wander_sessions.id", nullable=False, ondelete="CASCADE", index=True)
    project_id: uuid.UUID = _fk("projects.id", nullable=False)
    kind: str = Field(sa_column=Column(Text, nullable=False))
    text: str = Field(sa_column=Column(Text, nullable=False))
    content: dict = Field(default_factory=dict, sa_column=Column(JSONB, nullable=False, server_default="{}"))
    embedding: Any = _vector(nullable=False)
    created_at: datetime | None = _ts(default_now=True)


class WanderEvent(SQLModel, table=True):
    """The outbox: every event, written in the transaction of the change it reports."""

    __tablename__ = "wander_events"
    __table_args__ = (
        Index("ix_wander_events_unpublished", "session_id", "seq", postgresql_where=text("published_at IS NULL")),
    )
    session_id: uuid.UUID = Field(sa_column=Column(UUID(as_uuid=True), ForeignKey("wander_sessions.id",
                                  ondelete="CASCADE"), primary_key=True))  # fmt: skip
    seq: int = Field(sa_column=Column(BigInteger, primary_key=True))
    subject: str = Field(sa_column=Column(Text, nullable=False))
    ts: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False, server_default=func.now()))
    payload: dict = Field(sa_column=Column(JSONB, nullable=False))
    published_at: datetime | None = _ts()


class KbConcept(SQLModel, table=True):
    __tablename__ = "kb_concepts"
    __table_args__ = (
        Index("idx_kb_embedding", "embedding", postgresql_using="hnsw",
              postgresql_ops={"embedding": "vector_cosine_ops"}),
    )  # fmt: skip
    id: int = Field(default=None, sa_column=Column(Integer, primary_key=True, autoincrement=True))
    key: str = Field(sa_column=Column(Text, nullable=False, unique=True))
    label: str = Field(sa_column=Column(Text, nullable=False))
    text: str = Field(sa_column=Column(Text, nullable=False))
    gloss: str = Field(sa_column=Column(Text, nullable=False, server_default=""))
    domains: list[str] = _text_array(nullable=False)
    broader: list[str] = _text_array(nullable=False)
    path: list[str] = _text_array(nullable=False)
    opposites: list[str] = _text_array(nullable=False)
    source: str = Field(sa_column=Column(Text, nullable=False, index=True))
    embedding: Any = _vector()
    created_at: datetime | None = _ts(default_now=True)


class KbSource(SQLModel, table=True):
    """One row per loaded source (the shipped corpus, each imported path) and its fingerprint."""

    __tablename__ = "kb_sources"
    source: str = Field(sa_column=Column(Text, primary_key=True))
    fingerprint: str = Field(sa_column=Column(Text, nullable=False))
    concepts: int = 0
    embedder: str = Field(sa_column=Column(Text, nullable=False))
    loaded_at: datetime | None = _ts(default_now=True)


from wander.store import action_tables as _action_tables  # noqa: E402,F401  (registers the action tables)
from wander.store import sandwich_tables as _sandwich_tables  # noqa: E402,F401  (SANDWICH tables, same metadata)
from wander.store import archive_tables  # noqa: E402,F401  (registers the archive tables)
