"""Read models of the paper wallet: its balance, breaker, positions and ledger as the faces
show them (GET /api/v1/action/wallet, `wander wallet`), as typed plain data. No I/O."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class WalletPosition:
    asset: str
    cost_cents: int
    worst_case_loss_cents: int


@dataclass(frozen=True)
class LedgerEntry:
    """One booked execution; ids and the time as text, as the faces print them."""

    id: int
    proposal_id: str
    decision_id: str
    session_id: str | None
    kind: str
    asset: str
    amount_cents: int
    balance_after_cents: int
    created_at: str


@dataclass(frozen=True)
class WalletState:
    wallet: str
    balance_cents: int
    breaker: str | None  # why the breaker is tripped today (UTC), or None
    limits: dict[str, int]
    positions: list[WalletPosition] = field(default_factory=list)
    ledger: list[LedgerEntry] = field(default_factory=list)
