"""The wire contract of the archive room: archives and projections."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from shared_schemas.common import SessionStatusName


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


ARCHIVE_MODELS: tuple[type[BaseModel], ...] = (ArchiveOut, ArchiveList, ProjectionPoint, ProjectionOut)
