"""Tables of what wanders find and keep: resonances, crystals, and the memory tiers (warm
memory, compost). Registered on SQLModel.metadata (wander.adapters.postgres.tables imports this module)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import CheckConstraint, Column, Index, Text
from sqlalchemy.dialects.postgresql import ARRAY, JSONB, UUID
from sqlmodel import Field, SQLModel

from wander.adapters.postgres.columns import (
    STEP_WRITTEN_HNSW,
    foreign_key,
    jsonb_list,
    text_array,
    timestamp,
    uuid_pk,
    vector,
)


class WanderResonance(SQLModel, table=True):
    __tablename__ = "wander_resonances"
    __table_args__ = (
        CheckConstraint("status IN ('candidate', 'confirmed', 'invalidated')", name="valid_resonance_status"),
        Index(
            "idx_resonances_embedding",
            "embedding",
            postgresql_using="hnsw",
            postgresql_ops={"embedding": "vector_cosine_ops"},
            postgresql_with=STEP_WRITTEN_HNSW,
        ),
    )
    id: uuid.UUID = uuid_pk()
    session_id: uuid.UUID | None = foreign_key("wander_sessions.id", nullable=True, ondelete="CASCADE")
    project_id: uuid.UUID = foreign_key("projects.id", nullable=False, index=True)
    themes: list[str] = text_array(nullable=False)
    embedding: Any = vector(nullable=False)
    occurrences: int = 1
    strength: float = 1.0
    status: str = Field(default="candidate", max_length=50)
    supporting_residue_ids: list[uuid.UUID] = Field(
        default_factory=list, sa_column=Column(ARRAY(UUID(as_uuid=True)), server_default="{}")
    )
    last_reinforced_at: datetime | None = timestamp(default_now=True)
    decay_rate: float = 0.1
    created_at: datetime | None = timestamp(default_now=True)


class WanderCrystal(SQLModel, table=True):
    __tablename__ = "wander_crystals"
    __table_args__ = (
        CheckConstraint("status IN ('active', 'acted_upon', 'invalidated', 'archived')", name="valid_crystal_status"),
        Index(
            "idx_crystals_embedding",
            "embedding",
            postgresql_using="hnsw",
            postgresql_ops={"embedding": "vector_cosine_ops"},
        ),
    )
    id: uuid.UUID = uuid_pk()
    session_id: uuid.UUID | None = foreign_key("wander_sessions.id", nullable=True, ondelete="SET NULL")
    project_id: uuid.UUID = foreign_key("projects.id", nullable=False, index=True)
    insight: str = Field(sa_column=Column(Text, nullable=False))
    embedding: Any = vector(nullable=False)
    confidence: float
    actionability: float
    domains: list[str] = text_array(nullable=False)
    # A crystal is cross-session knowledge: deleting its wander detaches it (migration 0006).
    source_resonance_id: uuid.UUID | None = foreign_key("wander_resonances.id", nullable=True, ondelete="SET NULL")
    source_locus_id: uuid.UUID | None = foreign_key("wander_loci.id", nullable=True, ondelete="SET NULL")
    supporting_evidence: list[dict] = jsonb_list()
    status: str = Field(default="active", max_length=50)
    validated_by: str | None = Field(default=None, max_length=100)
    validation_notes: str | None = Field(default=None, sa_column=Column(Text))
    human_approved: bool = False
    human_approved_at: datetime | None = timestamp()
    human_approved_by: str | None = Field(default=None, max_length=255)
    # The sandwich (004): two bread loci around the insight, its validity and type, and the
    # rumination (003) that thought it through.
    bread_a_locus_id: uuid.UUID | None = Field(default=None, sa_column=Column(UUID(as_uuid=True)))
    bread_b_locus_id: uuid.UUID | None = Field(default=None, sa_column=Column(UUID(as_uuid=True)))
    validity: dict = Field(default_factory=dict, sa_column=Column(JSONB, nullable=False, server_default="{}"))
    structural_type: str | None = Field(default=None, sa_column=Column(Text))
    rumination: list[dict] = jsonb_list()
    created_at: datetime | None = timestamp(default_now=True)


class WanderWarmMemory(SQLModel, table=True):
    __tablename__ = "wander_warm_memory"
    id: uuid.UUID = uuid_pk()
    session_id: uuid.UUID = foreign_key("wander_sessions.id", nullable=False, ondelete="CASCADE", index=True)
    cluster_type: str = Field(max_length=50)
    content: dict = Field(sa_column=Column(JSONB, nullable=False))
    embedding: Any = vector()
    strength: float = 1.0
    last_accessed_at: datetime | None = timestamp(default_now=True)
    created_at: datetime | None = timestamp(default_now=True)
    expires_at: datetime | None = timestamp()


class WanderCompost(SQLModel, table=True):
    """Decayed warm memory: gone from the working set, still found by vector distance."""

    __tablename__ = "wander_compost"
    __table_args__ = (
        Index(
            "idx_compost_embedding",
            "embedding",
            postgresql_using="hnsw",
            postgresql_ops={"embedding": "vector_cosine_ops"},
        ),
    )
    id: uuid.UUID = uuid_pk()
    session_id: uuid.UUID = foreign_key("wander_sessions.id", nullable=False, ondelete="CASCADE", index=True)
    project_id: uuid.UUID = foreign_key("projects.id", nullable=False)
    kind: str = Field(sa_column=Column(Text, nullable=False))
    text: str = Field(sa_column=Column(Text, nullable=False))
    content: dict = Field(default_factory=dict, sa_column=Column(JSONB, nullable=False, server_default="{}"))
    embedding: Any = vector(nullable=False)
    created_at: datetime | None = timestamp(default_now=True)
