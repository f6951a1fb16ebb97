"""Engine and scale-out columns: sandwich crystals, compost, sub-wander lineage, worker ids.

Revision ID: 0003
Revises: 0002
"""

import pgvector.sqlalchemy
import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

from wander.adapters.postgres.columns import vector_dim

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None
DIM: int = vector_dim()  # WANDER_EMBED_DIM, handed in by the composition root


def upgrade() -> None:
    op.add_column("wander_sessions", sa.Column("parent_locus_id", sa.UUID(), nullable=True))
    op.add_column("wander_traces", sa.Column("worker_id", sa.Text(), nullable=True))
    op.add_column("wander_crystals", sa.Column("bread_a_locus_id", sa.UUID(), nullable=True))
    op.add_column("wander_crystals", sa.Column("bread_b_locus_id", sa.UUID(), nullable=True))
    op.add_column("wander_crystals", sa.Column("validity", postgresql.JSONB(), server_default="{}", nullable=False))
    op.add_column("wander_crystals", sa.Column("structural_type", sa.Text(), nullable=True))
    op.add_column(
        "wander_crystals", sa.Column("rumination", postgresql.JSONB(), server_default=sa.text("'[]'"), nullable=False)
    )
    op.create_table(
        "wander_compost",
        sa.Column("id", sa.UUID(), server_default=sa.text("gen_random_uuid()"), nullable=False),
        sa.Column("session_id", sa.UUID(), nullable=False),
        sa.Column("project_id", sa.UUID(), nullable=False),
        sa.Column("kind", sa.Text(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("content", postgresql.JSONB(), server_default="{}", nullable=False),
        sa.Column("embedding", pgvector.sqlalchemy.vector.VECTOR(dim=DIM), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=True),
        sa.ForeignKeyConstraint(["project_id"], ["projects.id"]),
        sa.ForeignKeyConstraint(["session_id"], ["wander_sessions.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_wander_compost_session_id", "wander_compost", ["session_id"])
    op.create_index(
        "idx_compost_embedding",
        "wander_compost",
        ["embedding"],
        postgresql_using="hnsw",
        postgresql_ops={"embedding": "vector_cosine_ops"},
    )


def downgrade() -> None:
    op.drop_index("idx_compost_embedding", table_name="wander_compost")
    op.drop_index("ix_wander_compost_session_id", table_name="wander_compost")
    op.drop_table("wander_compost")
    for col in ("rumination", "structural_type", "validity", "bread_b_locus_id", "bread_a_locus_id"):
        op.drop_column("wander_crystals", col)
    op.drop_column("wander_traces", "worker_id")
    op.drop_column("wander_sessions", "parent_locus_id")
