"""A wander may hold every crystal for a person's verdict (001's scope layer 4, "human
approval", made required per wander): wander_sessions.require_crystal_approval.

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "wander_sessions",
        sa.Column("require_crystal_approval", sa.Boolean(), nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    op.drop_column("wander_sessions", "require_crystal_approval")
