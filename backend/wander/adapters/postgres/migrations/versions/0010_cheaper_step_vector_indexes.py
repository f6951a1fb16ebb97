"""The vector indexes every step writes (loci, residues' themes, resonances) built with
cheaper HNSW options (store/columns.py STEP_WRITTEN_HNSW): with pgvector's defaults their
three index writes were the largest part of a step's commit (the step's overhead).

Revision ID: 0010
Revises: 0009
"""

from alembic import op

from wander.adapters.postgres.columns import STEP_WRITTEN_HNSW

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None
INDEXES = (
    ("idx_loci_embedding", "wander_loci", "embedding"),
    ("idx_residues_themes_embedding", "wander_residues", "themes_embedding"),
    ("idx_resonances_embedding", "wander_resonances", "embedding"),
)


def _rebuild(options: str) -> None:
    for name, table, column in INDEXES:
        op.execute(f"DROP INDEX IF EXISTS {name}")
        op.execute(f"CREATE INDEX {name} ON {table} USING hnsw ({column} vector_cosine_ops){options}")


def upgrade() -> None:
    _rebuild(" WITH (" + ", ".join(f"{k} = {v}" for k, v in STEP_WRITTEN_HNSW.items()) + ")")


def downgrade() -> None:
    _rebuild("")
