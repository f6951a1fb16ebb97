"""The economic action layer: proposals, human decisions, the paper wallet and its ledger.

Revision ID: 0007
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0007"
down_revision = "0005"
branch_labels = None
depends_on = None

UUID = postgresql.UUID(as_uuid=True)


def _id() -> sa.Column:
    return sa.Column("id", UUID, primary_key=True, server_default=sa.text("gen_random_uuid()"))


def _now(name: str) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now())


def upgrade() -> None:
    op.create_table(
        "wander_proposals",
        _id(),
        sa.Column("crystal_id", UUID, sa.ForeignKey("wander_crystals.id", ondelete="CASCADE"), nullable=False),
        sa.Column("session_id", UUID, sa.ForeignKey("wander_sessions.id", ondelete="SET NULL"), nullable=True),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("evaluator", sa.Text, nullable=False),
        sa.Column("evaluation", postgresql.JSONB, nullable=False),
        sa.Column("image", sa.LargeBinary, nullable=False),
        sa.Column("image_sha256", sa.Text, nullable=False),
        sa.Column("params", postgresql.JSONB, nullable=False),
        _now("created_at"),
        sa.CheckConstraint("status IN ('pending', 'approved', 'rejected', 'executed')", name="valid_proposal_status"),
    )
    op.create_index("ix_wander_proposals_crystal_id", "wander_proposals", ["crystal_id"])
    op.create_table(
        "wander_proposal_decisions",
        _id(),
        sa.Column(
            "proposal_id", UUID, sa.ForeignKey("wander_proposals.id", ondelete="CASCADE"), nullable=False, unique=True
        ),
        sa.Column("decision", sa.Text, nullable=False),
        sa.Column("reviewer", sa.Text, nullable=False),
        sa.Column("image_sha256", sa.Text, nullable=False),
        sa.Column("token_verified", sa.Boolean, nullable=False),
        sa.Column("via", sa.Text, nullable=False),
        sa.Column("note", sa.Text, nullable=True),
        _now("decided_at"),
        sa.CheckConstraint("decision IN ('approved', 'rejected')", name="valid_decision"),
    )
    op.create_table(
        "wander_wallets",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("balance_cents", sa.BigInteger, nullable=False),
        sa.Column("breaker_day", sa.Date, nullable=True),
        sa.Column("breaker_reason", sa.Text, nullable=True),
        _now("updated_at"),
    )
    op.create_table(
        "wander_wallet_positions",
        sa.Column("wallet_id", sa.Text, sa.ForeignKey("wander_wallets.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("asset", sa.Text, primary_key=True),
        sa.Column("cost_cents", sa.BigInteger, nullable=False),
        sa.Column("worst_case_loss_cents", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "wander_wallet_ledger",
        sa.Column("id", sa.BigInteger, primary_key=True, autoincrement=True),
        sa.Column("wallet_id", sa.Text, sa.ForeignKey("wander_wallets.id", ondelete="CASCADE"), nullable=False),
        sa.Column("proposal_id", UUID, sa.ForeignKey("wander_proposals.id"), nullable=False, unique=True),
        sa.Column("decision_id", UUID, sa.ForeignKey("wander_proposal_decisions.id"), nullable=False),
        sa.Column("session_id", UUID, nullable=True),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("asset", sa.Text, nullable=False),
        sa.Column("amount_cents", sa.BigInteger, nullable=False),
        sa.Column("worst_case_loss_cents", sa.BigInteger, nullable=False),
        sa.Column("balance_after_cents", sa.BigInteger, nullable=False),
        _now("created_at"),
    )
    op.create_index("ix_wander_wallet_ledger_session_id", "wander_wallet_ledger", ["session_id"])


def downgrade() -> None:
    for table in (
        "wander_wallet_ledger",
        "wander_wallet_positions",
        "wander_wallets",
        "wander_proposal_decisions",
        "wander_proposals",
    ):
        op.drop_table(table)
