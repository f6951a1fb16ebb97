"""What the action service depends on: an evaluator, an executor (wallet) and a proposal
store. One file per implementation: the offline evaluator (evaluator.py), the model
evaluator (wander.adapters.llm.evaluator, over a CloudBudget: wander.adapters.postgres.session_budget) and the
paper wallet (wander.adapters.postgres.action_repository) ship; a real broker is one more file behind
the same Protocol."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from wander.core.domain.models import Crystal


@dataclass
class CrystalContext:
    """A crystal with the evidence it stands on: its bread loci and the residues that reached them."""

    crystal: Crystal
    loci: dict[str, str] = field(default_factory=dict)  # locus id -> concept
    residues: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Limits:
    """Per-session and per-day caps, in cents; a breaker trips when one would be crossed."""

    session_budget_cents: int
    day_budget_cents: int
    session_loss_cents: int
    day_loss_cents: int


class CloudBudget(Protocol):
    """A wander session's cloud budget (the same cents the router spends on dwellings), for
    a model evaluator: a call's estimate is held before it is made and replaced by what it
    really cost after."""

    async def reserve(self, session_id: str, cents: int) -> bool:
        """Hold `cents` if what the session has left covers them; False (nothing held) otherwise."""
        ...

    async def settle(self, session_id: str, held_cents: int, spent_cents: int, route: str) -> None:
        """Replace a hold with what the call cost (0 when it failed) and count the call on `route`."""
        ...


class Evaluator(Protocol):
    name: str

    async def evaluate(self, ctx: CrystalContext) -> dict[str, Any]:
        """What to do, expected value, cost, worst-case loss, risk, tractability, evidence."""
        ...


@dataclass
class Order:
    """What an executor is asked to do, taken from the decoded image (not from the table)."""

    proposal_id: str
    decision_id: str
    image_sha256: str
    session_id: str | None
    asset: str
    cost_cents: int
    worst_case_loss_cents: int


@dataclass
class Decision:
    id: str
    decision: str
    reviewer: str
    image_sha256: str
    token_verified: bool
    via: str
    note: str | None
    decided_at: datetime


@dataclass
class Proposal:
    id: str
    crystal_id: str
    session_id: str | None
    status: str
    evaluator: str
    evaluation: dict[str, Any]
    image_sha256: str
    params: dict[str, Any]
    created_at: datetime
    decision: Decision | None = None
    execution: dict[str, Any] | None = None


class Executor(Protocol):
    name: str

    async def execute(self, order: Order, limits: Limits, require_token: bool) -> tuple[dict[str, Any], list]:
        """Under the wallet's row lock: check the gate and the limits, book the operation;
        returns (execution record, events). Raises Refused with the reason otherwise."""
        ...
