"""Tables of the economic action layer: proposals, their human decisions, and the paper
wallet (balance, positions, a ledger of every operation with its proposal and decision).
Registered on SQLModel.metadata (wander.adapters.postgres.tables imports this module)."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    Date,
    DateTime,
    ForeignKey,
    LargeBinary,
    Table,
    Text,
    func,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB, UUID
from sqlmodel import SQLModel

META = SQLModel.metadata


def _id() -> Column:
    return Column("id", UUID(as_uuid=True), primary_key=True, server_default=text("gen_random_uuid()"))


def _now(name: str) -> Column:
    return Column(name, DateTime(timezone=True), nullable=False, server_default=func.now())


PROPOSALS = Table(
    "wander_proposals",
    META,
    _id(),
    Column(
        "crystal_id",
        UUID(as_uuid=True),
        ForeignKey("wander_crystals.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    Column("session_id", UUID(as_uuid=True), ForeignKey("wander_sessions.id", ondelete="SET NULL"), nullable=True),
    Column("status", Text, nullable=False),
    Column("evaluator", Text, nullable=False),
    Column("evaluation", JSONB, nullable=False),
    Column("image", LargeBinary, nullable=False),
    Column("image_sha256", Text, nullable=False),
    Column("params", JSONB, nullable=False),
    _now("created_at"),
    CheckConstraint("status IN ('pending', 'approved', 'rejected', 'executed')", name="valid_proposal_status"),
)

DECISIONS = Table(
    "wander_proposal_decisions",
    META,
    _id(),
    Column(
        "proposal_id",
        UUID(as_uuid=True),
        ForeignKey("wander_proposals.id", ondelete="CASCADE"),
        nullable=False,
        unique=True,
    ),
    Column("decision", Text, nullable=False),
    Column("reviewer", Text, nullable=False),
    Column("image_sha256", Text, nullable=False),
    Column("token_verified", Boolean, nullable=False),
    Column("via", Text, nullable=False),
    Column("note", Text, nullable=True),
    _now("decided_at"),
    CheckConstraint("decision IN ('approved', 'rejected')", name="valid_decision"),
)

WALLETS = Table(
    "wander_wallets",
    META,
    Column("id", Text, primary_key=True),
    Column("balance_cents", BigInteger, nullable=False),
    Column("breaker_day", Date, nullable=True),
    Column("breaker_reason", Text, nullable=True),
    _now("updated_at"),
)

POSITIONS = Table(
    "wander_wallet_positions",
    META,
    Column("wallet_id", Text, ForeignKey("wander_wallets.id", ondelete="CASCADE"), primary_key=True),
    Column("asset", Text, primary_key=True),
    Column("cost_cents", BigInteger, nullable=False),
    Column("worst_case_loss_cents", BigInteger, nullable=False),
)

LEDGER = Table(
    "wander_wallet_ledger",
    META,
    Column("id", BigInteger, primary_key=True, autoincrement=True),
    Column("wallet_id", Text, ForeignKey("wander_wallets.id", ondelete="CASCADE"), nullable=False),
    Column("proposal_id", UUID(as_uuid=True), ForeignKey("wander_proposals.id"), nullable=False, unique=True),
    Column("decision_id", UUID(as_uuid=True), ForeignKey("wander_proposal_decisions.id"), nullable=False),
    Column("session_id", UUID(as_uuid=True), nullable=True, index=True),
    Column("kind", Text, nullable=False),
    Column("asset", Text, nullable=False),
    Column("amount_cents", BigInteger, nullable=False),
    Column("worst_case_loss_cents", BigInteger, nullable=False),
    Column("balance_after_cents", BigInteger, nullable=False),
    _now("created_at"),
)
