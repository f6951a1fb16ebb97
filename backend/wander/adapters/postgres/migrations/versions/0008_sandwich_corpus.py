"""The SANDWICH corpus (seed 004): sources, sandwiches, ingredients, relations, foraging runs,
the foraging log and the runs' outbox (wander.adapters.postgres.sandwich_tables).

Revision ID: 0008
Revises: 0006
"""

from alembic import op

from wander.adapters.postgres import sandwich_tables as t

revision = "0008"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    bind = op.get_bind()
    for table in t.ALL:
        table.create(bind, checkfirst=True)


def downgrade() -> None:
    bind = op.get_bind()
    for table in reversed(t.ALL):
        table.drop(bind, checkfirst=True)
