"""Tables of the archive room: one archive and one stored projection per wander."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import Column, DateTime, ForeignKey, Integer, LargeBinary, Text, func
from sqlalchemy.dialects.postgresql import JSONB, UUID
from sqlmodel import Field, SQLModel

from wander.adapters.postgres.columns import SizedVector


def _session_pk() -> Any:
    return Field(
        sa_column=Column(UUID(as_uuid=True), ForeignKey("wander_sessions.id", ondelete="CASCADE"), primary_key=True)
    )


def _now() -> Any:
    return Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=False, server_default=func.now()))


class WanderArchive(SQLModel, table=True):
    """The artefacts of a finished wander; `fingerprint` says which state of it they show."""

    __tablename__ = "wander_archives"
    session_id: uuid.UUID = _session_pk()
    fingerprint: str = Field(sa_column=Column(Text, nullable=False))
    status: str = Field(sa_column=Column(Text, nullable=False))
    step_count: int = Field(sa_column=Column(Integer, nullable=False))
    loci_count: int = Field(sa_column=Column(Integer, nullable=False))
    crystal_count: int = Field(sa_column=Column(Integer, nullable=False))
    markdown: str = Field(sa_column=Column(Text, nullable=False))
    png: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    embedding: Any = Field(default=None, sa_column=Column(SizedVector(), nullable=False))
    fit_id: str | None = Field(default=None, sa_column=Column(Text))
    created_at: datetime | None = _now()


class WanderProjection(SQLModel, table=True):
    """The latest 2-D fit of a wander's loci: {locus_id: [x, y]} and the fit's id."""

    __tablename__ = "wander_projections"
    session_id: uuid.UUID = _session_pk()
    fit_id: str = Field(sa_column=Column(Text, nullable=False))
    method: str = Field(sa_column=Column(Text, nullable=False))
    points: dict = Field(default_factory=dict, sa_column=Column(JSONB, nullable=False))
    n_loci: int = Field(sa_column=Column(Integer, nullable=False))
    created_at: datetime | None = _now()
