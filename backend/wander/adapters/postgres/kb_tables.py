"""Tables of the knowledge base: the concept corpus (with its embeddings) and the sources
loaded into it. Registered on SQLModel.metadata (wander.adapters.postgres.tables imports this module)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Column, Index, Integer, Text
from sqlmodel import Field, SQLModel

from wander.adapters.postgres.columns import text_array, timestamp, vector


class KbConcept(SQLModel, table=True):
    __tablename__ = "kb_concepts"
    __table_args__ = (
        Index(
            "idx_kb_embedding", "embedding", postgresql_using="hnsw", postgresql_ops={"embedding": "vector_cosine_ops"}
        ),
    )
    id: int = Field(default=None, sa_column=Column(Integer, primary_key=True, autoincrement=True))
    key: str = Field(sa_column=Column(Text, nullable=False, unique=True))
    label: str = Field(sa_column=Column(Text, nullable=False))
    text: str = Field(sa_column=Column(Text, nullable=False))
    gloss: str = Field(sa_column=Column(Text, nullable=False, server_default=""))
    domains: list[str] = text_array(nullable=False)
    broader: list[str] = text_array(nullable=False)
    path: list[str] = text_array(nullable=False)
    opposites: list[str] = text_array(nullable=False)
    source: str = Field(sa_column=Column(Text, nullable=False, index=True))
    embedding: Any = vector()
    created_at: datetime | None = timestamp(default_now=True)


class KbSource(SQLModel, table=True):
    """One row per loaded source (the shipped corpus, each imported path) and its fingerprint."""

    __tablename__ = "kb_sources"
    source: str = Field(sa_column=Column(Text, primary_key=True))
    fingerprint: str = Field(sa_column=Column(Text, nullable=False))
    concepts: int = 0
    embedder: str = Field(sa_column=Column(Text, nullable=False))
    loaded_at: datetime | None = timestamp(default_now=True)
