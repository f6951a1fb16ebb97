"""wander_sessions.run_until_step: the step a requested run goes to, so that a run
interrupted by a crash is resumed when Wander starts again.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("wander_sessions", sa.Column("run_until_step", sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_column("wander_sessions", "run_until_step")
