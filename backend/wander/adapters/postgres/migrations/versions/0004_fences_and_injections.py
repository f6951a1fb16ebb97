"""Fence anchors (include/exclude, with their embeddings) and a pending forced injection.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "wander_sessions", sa.Column("fence", postgresql.JSONB(), server_default=sa.text("'[]'"), nullable=False)
    )
    op.add_column("wander_sessions", sa.Column("pending_injection", postgresql.JSONB(), nullable=True))


def downgrade() -> None:
    op.drop_column("wander_sessions", "pending_injection")
    op.drop_column("wander_sessions", "fence")
