"""Wire models of the economic action layer: proposals, decisions, the paper wallet."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

ProposalStatus = Literal["pending", "approved", "rejected", "executed"]


class DecisionRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reviewer: str = Field(min_length=1, max_length=200, description="Who decides (recorded with the decision).")
    image_sha256: str = Field(pattern="^[0-9a-fA-F]{64}$", description="sha256 of the proposal image you reviewed.")
    note: str | None = Field(default=None, max_length=2000)


class DecisionOut(BaseModel):
    id: str
    decision: Literal["approved", "rejected"]
    reviewer: str
    image_sha256: str
    token_verified: bool
    via: str
    note: str | None
    decided_at: datetime


class ProposalOut(BaseModel):
    """An action proposal: its evaluation, its fractal image (the audit record) and the gate."""

    id: str
    crystal_id: str
    session_id: str | None
    status: ProposalStatus
    evaluator: str
    evaluation: dict[str, Any]
    image_sha256: str
    image_url: str
    params: dict[str, Any]
    created_at: datetime
    decision: DecisionOut | None
    execution: dict[str, Any] | None


class WalletOut(BaseModel):
    wallet: str
    balance_cents: int
    breaker: str | None = Field(description="Why the breaker is tripped today (UTC), or null.")
    limits: dict[str, int]
    positions: list[dict[str, Any]]
    ledger: list[dict[str, Any]]


ACTION_MODELS: tuple[type[BaseModel], ...] = (DecisionRequest, DecisionOut, ProposalOut, WalletOut)
