"""The vector columns take their size from the composition root (WANDER_EMBED_DIM handed to
use_vector_dim when the database opens), read when SQL is compiled: the DDL and the cast of
every vector written follow it, with no setting read when the tables are defined."""

from __future__ import annotations

import pytest
from sqlalchemy import insert
from sqlalchemy.dialects import postgresql
from sqlalchemy.schema import CreateTable

from wander.adapters.postgres import columns
from wander.adapters.postgres.archive_tables import WanderArchive
from wander.adapters.postgres.tables import WanderLocus


@pytest.fixture
def size():
    before = columns.vector_dim()
    yield
    columns.use_vector_dim(before)


def _sql(statement) -> str:
    return str(statement.compile(dialect=postgresql.dialect()))


def test_the_columns_follow_the_size_handed_in(size):
    assert columns.vector_dim() == columns.DEFAULT_VECTOR_DIM == 384
    columns.use_vector_dim(768)
    assert "embedding VECTOR(768) NOT NULL" in _sql(CreateTable(WanderLocus.__table__))
    assert "embedding VECTOR(768) NOT NULL" in _sql(CreateTable(WanderArchive.__table__))
    written = _sql(insert(WanderLocus.__table__).values(embedding=[0.5] * 768))
    assert "CAST(CAST(%(embedding)s AS REAL[]) AS VECTOR(768))" in written
    columns.use_vector_dim(384)
    assert "VECTOR(384)" in _sql(CreateTable(WanderLocus.__table__))


def test_a_size_below_one_names_the_setting(size):
    with pytest.raises(ValueError, match="WANDER_EMBED_DIM"):
        columns.use_vector_dim(0)
