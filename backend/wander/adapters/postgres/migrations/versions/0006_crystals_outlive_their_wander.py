"""Crystals outlive their wander: deleting a wander detaches its crystals (their source
locus and resonance become NULL, as session_id already does) instead of failing.

Revision ID: 0006
Revises: 0007
"""

from alembic import op

revision = "0006"
down_revision = "0007"
branch_labels = None
depends_on = None

FKS = (("source_locus_id", "wander_loci"), ("source_resonance_id", "wander_resonances"))


def _replace(ondelete: str | None) -> None:
    for column, target in FKS:
        name = f"wander_crystals_{column}_fkey"
        op.drop_constraint(name, "wander_crystals", type_="foreignkey")
        op.create_foreign_key(name, "wander_crystals", target, [column], ["id"], ondelete=ondelete)


def upgrade() -> None:
    _replace("SET NULL")


def downgrade() -> None:
    _replace(None)
