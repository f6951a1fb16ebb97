"""The SANDWICH review queue: marginal sandwiches (0.5 <= V < 0.7) kept for a person's verdict
(wander.adapters.postgres.sandwich_tables.REVIEWS).

Revision ID: 0012
Revises: 0011
"""

from alembic import op

from wander.adapters.postgres.sandwich_tables import REVIEWS

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    REVIEWS.create(op.get_bind(), checkfirst=True)


def downgrade() -> None:
    REVIEWS.drop(op.get_bind(), checkfirst=True)
