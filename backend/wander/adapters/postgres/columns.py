"""Column helpers the table modules share, and the vector dimension: it follows the
embedder (WANDER_EMBED_DIM, 384 for MiniLM). This module reads no settings: the composition
root (wander.bootstrap) hands the dimension to `use_vector_dim` before it opens the database,
and the vector columns' type reads it when SQL is compiled (the migrations' DDL, the casts of
every vector written), not when the tables are defined."""

from __future__ import annotations

import uuid
from typing import Any

import numpy as np
from pgvector.sqlalchemy import Vector
from sqlalchemy import REAL, Column, DateTime, ForeignKey, Text, cast, func, text
from sqlalchemy.dialects.postgresql import ARRAY, JSONB, UUID
from sqlmodel import Field

DEFAULT_VECTOR_DIM = 384  # MiniLM's, WANDER_EMBED_DIM's default
_vector_dim = DEFAULT_VECTOR_DIM
DEFAULT_PROJECT_ID = uuid.UUID("00000000-0000-0000-0000-000000000001")


def uuid_pk() -> Any:
    return Field(
        default_factory=uuid.uuid4,
        sa_column=Column(UUID(as_uuid=True), primary_key=True, server_default=text("gen_random_uuid()")),
    )


def timestamp(nullable: bool = True, default_now: bool = False) -> Any:
    return Field(
        default=None,
        sa_column=Column(
            DateTime(timezone=True), nullable=nullable, server_default=func.now() if default_now else None
        ),
    )


def foreign_key(target: str, *, nullable: bool, ondelete: str | None = None, index: bool = False) -> Any:
    return Field(
        default=None,
        sa_column=Column(UUID(as_uuid=True), ForeignKey(target, ondelete=ondelete), nullable=nullable, index=index),
    )


def text_array(nullable: bool = True) -> Any:
    return Field(default_factory=list, sa_column=Column(ARRAY(Text), nullable=nullable, server_default="{}"))


def jsonb_list(default: str = "[]") -> Any:
    return Field(default_factory=list, sa_column=Column(JSONB, nullable=False, server_default=text(f"'{default}'")))


def use_vector_dim(dim: int) -> None:
    """The size of every vector column (WANDER_EMBED_DIM), for this process."""
    global _vector_dim
    if dim < 1:
        raise ValueError(f"WANDER_EMBED_DIM: must be at least 1 (got {dim})")
    _vector_dim = dim


def vector_dim() -> int:
    """The size of every vector column: DEFAULT_VECTOR_DIM unless use_vector_dim said otherwise."""
    return _vector_dim


class PackedVector(Vector):
    """A pgvector column whose values travel both ways as a binary real[], cast to and from
    vector on the server, instead of pgvector's text form: writing a 384-float vector as
    text costs about 0.1 ms of Python (a float's repr at a time), and parsing one back
    about as much, and a step writes several while a crystal reads every crystal of its
    project. The floats are the same (float32 <-> real is exact)."""

    cache_ok = True

    def bind_expression(self, bindvalue: Any) -> Any:
        return cast(cast(bindvalue, ARRAY(REAL)), Vector(self.dim))

    def bind_processor(self, dialect: Any) -> Any:
        def process(value: Any) -> list[float] | None:
            return None if value is None else np.asarray(value, dtype=np.float32).tolist()

        return process

    def column_expression(self, colexpr: Any) -> Any:
        return cast(colexpr, ARRAY(REAL))

    def result_processor(self, dialect: Any, coltype: Any) -> Any:
        def process(value: Any) -> np.ndarray | None:
            return None if value is None else np.asarray(value, dtype=np.float32)

        return process


class _ProcessSize:
    """The type's size is the process's vector size (vector_dim), read when SQL is compiled."""

    @property
    def dim(self) -> int | None:  # typed as pgvector's attribute; here always the process's size
        return vector_dim()

    @dim.setter
    def dim(self, _: int | None) -> None:  # pgvector's __init__ assigns it; the size is vector_dim's
        pass


class SizedVector(_ProcessSize, Vector):
    """pgvector's vector type, of the process's vector size."""

    cache_ok = True  # one size per process: the compiled SQL may be kept

    def __init__(self) -> None:
        Vector.__init__(self, None)


class SizedPackedVector(_ProcessSize, PackedVector):
    """A PackedVector of the process's vector size: every vector column of the tables."""

    cache_ok = True

    def __init__(self) -> None:
        PackedVector.__init__(self, None)


def vector(nullable: bool = True) -> Any:
    return Field(default=None, sa_column=Column(SizedPackedVector(), nullable=nullable))


# HNSW build options of the vector indexes every step writes (loci, residues, resonances):
# pgvector's defaults (m 16, ef_construction 64) made each of those three writes cost about
# 2 ms of the step in the index alone; these cost about a quarter of that. They serve
# semantic search (a project's loci, themes and resonances), where recall@10 stayed 0.93-1.0.
STEP_WRITTEN_HNSW = {"m": 8, "ef_construction": 16}
