"""Archives of finished wanders and their stored 2-D projections.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op
from pgvector.sqlalchemy import Vector
from sqlalchemy.dialects import postgresql

from wander.adapters.postgres.columns import vector_dim

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None
DIM: int = vector_dim()  # WANDER_EMBED_DIM, handed in by the composition root


def upgrade() -> None:
    op.create_table(
        "wander_archives",
        sa.Column("session_id", sa.UUID(), sa.ForeignKey("wander_sessions.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("fingerprint", sa.Text(), nullable=False),
        sa.Column("status", sa.Text(), nullable=False),
        sa.Column("step_count", sa.Integer(), nullable=False),
        sa.Column("loci_count", sa.Integer(), nullable=False),
        sa.Column("crystal_count", sa.Integer(), nullable=False),
        sa.Column("markdown", sa.Text(), nullable=False),
        sa.Column("png", sa.LargeBinary(), nullable=False),
        sa.Column("embedding", Vector(DIM), nullable=False),
        sa.Column("fit_id", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
    )
    op.create_table(
        "wander_projections",
        sa.Column("session_id", sa.UUID(), sa.ForeignKey("wander_sessions.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("fit_id", sa.Text(), nullable=False),
        sa.Column("method", sa.Text(), nullable=False),
        sa.Column("points", postgresql.JSONB(), nullable=False),
        sa.Column("n_loci", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("wander_projections")
    op.drop_table("wander_archives")
