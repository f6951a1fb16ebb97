"""SQLModel tables: those of 000 around a wander (projects, sessions, loci, traces,
residues) and wander_events (the outbox). What wanders find and keep is findings_tables.py,
the knowledge base kb_tables.py, the column helpers and the vector dimension columns.py;
their names are re-exported here."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Text,
    UniqueConstraint,
    false,
    func,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY, JSONB, UUID
from sqlmodel import Field, SQLModel

from wander.adapters.postgres.columns import (  # noqa: F401  (DEFAULT_PROJECT_ID re-exported)
    DEFAULT_PROJECT_ID,
    STEP_WRITTEN_HNSW,
    SizedVector,
    foreign_key,
    jsonb_list,
    text_array,
    timestamp,
    uuid_pk,
    vector,
)
from wander.adapters.postgres.findings_tables import (  # noqa: F401  (re-exported)
    WanderCompost,
    WanderCrystal,
    WanderResonance,
    WanderWarmMemory,
)
from wander.adapters.postgres.kb_tables import KbConcept, KbSource  # noqa: F401  (re-exported)


class Project(SQLModel, table=True):
    __tablename__ = "projects"
    id: uuid.UUID = uuid_pk()
    name: str = Field(sa_column=Column(Text, nullable=False, unique=True))
    created_at: datetime | None = timestamp(default_now=True)


class WanderSession(SQLModel, table=True):
    __tablename__ = "wander_sessions"
    __table_args__ = (CheckConstraint("status IN ('active', 'paused', 'completed', 'abandoned')", name="valid_status"),)
    id: uuid.UUID = uuid_pk()
    project_id: uuid.UUID = foreign_key("projects.id", nullable=False, index=True)
    name: str = Field(max_length=255)
    status: str = Field(default="active", max_length=50, index=True)
    seed_concept: str = Field(sa_column=Column(Text, nullable=False))
    seed_embedding: Any = vector()
    attractor: str | None = Field(default=None, sa_column=Column(Text))
    attractor_embedding: Any = vector()
    allowed_domains: list[str] = text_array()
    forbidden_domains: list[str] = text_array()
    fence_embeddings: Any = Field(default=None, sa_column=Column(ARRAY(SizedVector())))
    max_drift_distance: float = 0.8
    max_steps: int = 1000
    cloud_budget_cents: int = 500
    cloud_spent_cents: int = 0
    local_calls: int = 0
    cloud_calls: int = 0
    temperature: float = 0.7
    human_checkpoint_frequency: int = 50
    # Layer 4 made required: every crystal is held for a person's verdict.
    require_crystal_approval: bool = Field(
        default=False, sa_column=Column(Boolean, nullable=False, server_default=false())
    )
    # Beyond 000: replayable randomness, progress, the outbox counter and lineage.
    random_seed: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, server_default="0"))
    step_count: int = 0
    event_seq: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, server_default="0"))
    current_locus_id: uuid.UUID | None = Field(default=None, sa_column=Column(UUID(as_uuid=True)))
    stopped_reason: str | None = Field(default=None, sa_column=Column(Text))
    parent_session_id: uuid.UUID | None = foreign_key("wander_sessions.id", nullable=True, ondelete="SET NULL")
    run_until_step: int | None = None
    parent_locus_id: uuid.UUID | None = Field(default=None, sa_column=Column(UUID(as_uuid=True)))
    # Fence anchors [{concept, action, embedding}] and a forced visit waiting for the next step.
    fence: list[dict] = jsonb_list()
    pending_injection: dict | None = Field(default=None, sa_column=Column(JSONB))
    created_at: datetime | None = timestamp(default_now=True)
    last_step_at: datetime | None = timestamp()
    completed_at: datetime | None = timestamp()


class WanderLocus(SQLModel, table=True):
    __tablename__ = "wander_loci"
    __table_args__ = (
        CheckConstraint("source_type IN ('SEED', 'ADJACENT', 'BRIDGED', 'SERENDIPITOUS')", name="valid_source_type"),
        Index(
            "idx_loci_embedding",
            "embedding",
            postgresql_using="hnsw",
            postgresql_ops={"embedding": "vector_cosine_ops"},
            postgresql_with=STEP_WRITTEN_HNSW,
        ),
    )
    id: uuid.UUID = uuid_pk()
    session_id: uuid.UUID = foreign_key("wander_sessions.id", nullable=False, ondelete="CASCADE", index=True)
    concept: str = Field(sa_column=Column(Text, nullable=False))
    embedding: Any = vector(nullable=False)
    source_type: str = Field(max_length=50)
    domains: list[str] = text_array(nullable=False)
    abstraction_level: float = 0.5
    novelty_score: float = 0.5
    interestingness: float = 0.5
    actionability: float = 0.0
    uncertainty: float = 0.5
    visit_count: int = 0
    kb_key: str | None = Field(default=None, sa_column=Column(Text))
    first_encountered: datetime | None = timestamp(default_now=True)
    last_visited: datetime | None = timestamp()
    adjacent_to: list[dict] = jsonb_list()
    bridges_to: list[dict] = jsonb_list()
    contradicts: list[dict] = jsonb_list()


class WanderTrace(SQLModel, table=True):
    __tablename__ = "wander_traces"
    __table_args__ = (
        UniqueConstraint("session_id", "step_number", name="uq_traces_session_step"),
        Index("idx_traces_session", "session_id", "step_number"),
    )
    id: uuid.UUID = uuid_pk()
    session_id: uuid.UUID = foreign_key("wander_sessions.id", nullable=False, ondelete="CASCADE")
    step_number: int
    from_locus_id: uuid.UUID | None = foreign_key("wander_loci.id", nullable=True)
    to_locus_id: uuid.UUID = foreign_key("wander_loci.id", nullable=False)
    adjacencies_considered: int | None = None
    selection_scores: dict = Field(default_factory=dict, sa_column=Column(JSONB))
    selection_reason: str | None = Field(default=None, sa_column=Column(Text))
    model_used: str | None = Field(default=None, max_length=100)
    tokens_used: int | None = None
    cost_cents: int = 0
    worker_id: str | None = Field(default=None, sa_column=Column(Text))  # who ran the step (scale-out)
    created_at: datetime | None = timestamp(default_now=True)


class WanderResidue(SQLModel, table=True):
    __tablename__ = "wander_residues"
    __table_args__ = (
        Index(
            "idx_residues_themes_embedding",
            "themes_embedding",
            postgresql_using="hnsw",
            postgresql_ops={"themes_embedding": "vector_cosine_ops"},
            postgresql_with=STEP_WRITTEN_HNSW,
        ),
    )
    id: uuid.UUID = uuid_pk()
    session_id: uuid.UUID = foreign_key("wander_sessions.id", nullable=False, ondelete="CASCADE", index=True)
    trace_id: uuid.UUID = foreign_key("wander_traces.id", nullable=False, ondelete="CASCADE")
    from_locus_id: uuid.UUID | None = foreign_key("wander_loci.id", nullable=True)
    to_locus_id: uuid.UUID = foreign_key("wander_loci.id", nullable=False)
    connection: str | None = Field(default=None, sa_column=Column(Text))
    tension: str | None = Field(default=None, sa_column=Column(Text))
    bridge: str | None = Field(default=None, sa_column=Column(Text))
    surprise: str | None = Field(default=None, sa_column=Column(Text))
    possibility: str | None = Field(default=None, sa_column=Column(Text))
    themes: list[str] = text_array()
    themes_embedding: Any = vector()
    interestingness: float | None = None
    actionability: float | None = None
    model_used: str | None = Field(default=None, max_length=100)
    # Beyond 000: the figures and concepts each facet was built from, so it can be checked.
    details: dict = Field(default_factory=dict, sa_column=Column(JSONB, nullable=False, server_default="{}"))
    created_at: datetime | None = timestamp(default_now=True)


class WanderEvent(SQLModel, table=True):
    """The outbox: every event, written in the transaction of the change it reports."""

    __tablename__ = "wander_events"
    __table_args__ = (
        Index("ix_wander_events_unpublished", "session_id", "seq", postgresql_where=text("published_at IS NULL")),
    )
    session_id: uuid.UUID = Field(
        sa_column=Column(UUID(as_uuid=True), ForeignKey("wander_sessions.id", ondelete="CASCADE"), primary_key=True)
    )
    seq: int = Field(sa_column=Column(BigInteger, primary_key=True))
    subject: str = Field(sa_column=Column(Text, nullable=False))
    ts: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False, server_default=func.now()))
    payload: dict = Field(sa_column=Column(JSONB, nullable=False))
    published_at: datetime | None = timestamp()


from wander.adapters.postgres import action_tables as _action_tables  # noqa: E402,F401  (registers the action tables)
from wander.adapters.postgres import archive_tables  # noqa: E402,F401  (registers the archive tables)
from wander.adapters.postgres import sandwich_tables as _sandwich_tables  # noqa: E402,F401  (SANDWICH tables, same metadata)
