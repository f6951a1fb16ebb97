"""The paper wallet on Postgres: the shipped executor of approved proposals. It serialises
executions on its own row lock (SELECT ... FOR UPDATE), so concurrent approvals and
executions can never book past a limit; each execution's events go to wander_events in
the same transaction (action_repository.append_events)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, func, insert, literal_column, select, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from wander.adapters.postgres.action_repository import append_events
from wander.adapters.postgres.action_tables import DECISIONS, LEDGER, POSITIONS, PROPOSALS, WALLETS
from wander.core.action.ports import Limits, Order
from wander.core.domain.errors import Refused
from wander.core.domain.models import Event
from wander.core.domain.wallet_views import LedgerEntry, WalletPosition, WalletState

P, D = PROPOSALS, DECISIONS
UTC_TODAY: Any = literal_column("(now() AT TIME ZONE 'UTC')::date")


@dataclass
class PaperWallet:
    """The shipped executor: paper money in Postgres. A real wallet or broker is another
    class with the same execute()."""

    engine: AsyncEngine
    opening_balance_cents: int
    wallet_id: str = "paper"
    name: str = "paper"

    async def _lock(self, conn: AsyncConnection) -> Any:
        await conn.execute(
            pg_insert(WALLETS)
            .values(id=self.wallet_id, balance_cents=self.opening_balance_cents)
            .on_conflict_do_nothing()
        )
        return (
            await conn.execute(
                select(WALLETS, UTC_TODAY.label("today")).where(WALLETS.c.id == self.wallet_id).with_for_update()
            )
        ).one()

    async def _spent(self, conn: AsyncConnection, *where: Any) -> tuple[int, int]:
        row = (
            await conn.execute(
                select(
                    func.coalesce(func.sum(LEDGER.c.amount_cents), 0),
                    func.coalesce(func.sum(LEDGER.c.worst_case_loss_cents), 0),
                ).where(LEDGER.c.wallet_id == self.wallet_id, *where)
            )
        ).one()
        return int(row[0]), int(row[1])

    async def _gate(self, conn: AsyncConnection, order: Order, require_token: bool) -> str:
        pid = uuid.UUID(order.proposal_id)
        row = (await conn.execute(select(P.c.status, P.c.image_sha256).where(P.c.id == pid).with_for_update())).one()
        d = (await conn.execute(select(D).where(D.c.proposal_id == pid))).first()
        if row.status == "executed":
            raise Refused("already executed: a proposal is executed once (replay refused)", 409)
        if row.status == "rejected" and d is not None:
            raise Refused(f"rejected by {d.reviewer} at {d.decided_at:%Y-%m-%d %H:%M:%S} UTC", 403)
        if row.status != "approved" or d is None or d.decision != "approved":
            raise Refused("not approved: a person must approve the proposal before it can execute", 403)
        if require_token and not d.token_verified:
            raise Refused("the approval was not made by a holder of the API token", 403)
        if not (order.image_sha256 == row.image_sha256 == d.image_sha256):
            raise Refused("the image changed since it was approved", 409)
        return str(d.id)

    async def execute(self, order: Order, limits: Limits, require_token: bool, make_events) -> tuple[dict, list[Event]]:
        """Returns (the ledger entry, events) or raises Refused; a tripped breaker and the
        refusal's events are committed before the refusal is raised."""
        refusal: Refused | None = None
        async with self.engine.begin() as conn:
            wallet = await self._lock(conn)  # every execution queues here
            try:
                decision_id = await self._gate(conn, order, require_token)
                entry = await self._book(conn, wallet, order, limits, decision_id)
            except Refused as exc:
                refusal = exc
                events = await append_events(conn, order.session_id, make_events("refused", reason=exc.reason))
            else:
                events = await append_events(conn, order.session_id, make_events("executed", execution=entry))
        if refusal is not None:
            refusal.events = events  # type: ignore[attr-defined]
            raise refusal
        return entry, events

    async def _book(self, conn: AsyncConnection, wallet: Any, order: Order, limits: Limits, decision_id: str) -> dict:
        if wallet.breaker_day == wallet.today:
            raise Refused(f"the breaker is tripped for today (UTC): {wallet.breaker_reason}", 409)
        if order.cost_cents > wallet.balance_cents:
            raise Refused(
                f"insufficient paper balance: {wallet.balance_cents / 100:.2f} < {order.cost_cents / 100:.2f}"
            )
        day = and_(
            text("(wander_wallet_ledger.created_at AT TIME ZONE 'UTC')::date = (now() AT TIME ZONE 'UTC')::date")
        )
        session = LEDGER.c.session_id == (uuid.UUID(order.session_id) if order.session_id else None)
        day_spent, day_loss = await self._spent(conn, day)
        s_spent, s_loss = await self._spent(conn, session if order.session_id else LEDGER.c.session_id.is_(None))
        checks = [
            ("day budget", day_spent + order.cost_cents, limits.day_budget_cents),
            ("session budget", s_spent + order.cost_cents, limits.session_budget_cents),
            ("day loss limit", day_loss + order.worst_case_loss_cents, limits.day_loss_cents),
            ("session loss limit", s_loss + order.worst_case_loss_cents, limits.session_loss_cents),
        ]
        for name, would_be, cap in checks:
            if would_be > cap:
                reason = f"{name} would be crossed ({would_be / 100:.2f} > {cap / 100:.2f}); breaker tripped"
                await conn.execute(
                    update(WALLETS)
                    .where(WALLETS.c.id == self.wallet_id)
                    .values(breaker_day=wallet.today, breaker_reason=reason, updated_at=func.now())
                )
                raise Refused(reason, 409)
        balance = wallet.balance_cents - order.cost_cents
        await conn.execute(
            update(WALLETS).where(WALLETS.c.id == self.wallet_id).values(balance_cents=balance, updated_at=func.now())
        )
        await conn.execute(
            pg_insert(POSITIONS)
            .values(
                wallet_id=self.wallet_id,
                asset=order.asset,
                cost_cents=order.cost_cents,
                worst_case_loss_cents=order.worst_case_loss_cents,
            )
            .on_conflict_do_update(
                index_elements=["wallet_id", "asset"],
                set_={
                    "cost_cents": POSITIONS.c.cost_cents + order.cost_cents,
                    "worst_case_loss_cents": POSITIONS.c.worst_case_loss_cents + order.worst_case_loss_cents,
                },
            )
        )
        row = (
            await conn.execute(
                insert(LEDGER)
                .values(
                    wallet_id=self.wallet_id,
                    proposal_id=uuid.UUID(order.proposal_id),
                    decision_id=uuid.UUID(decision_id),
                    session_id=uuid.UUID(order.session_id) if order.session_id else None,
                    kind="open",
                    asset=order.asset,
                    amount_cents=order.cost_cents,
                    worst_case_loss_cents=order.worst_case_loss_cents,
                    balance_after_cents=balance,
                )
                .returning(LEDGER.c.id, LEDGER.c.created_at)
            )
        ).one()
        await conn.execute(update(P).where(P.c.id == uuid.UUID(order.proposal_id)).values(status="executed"))
        return {
            "ledger_id": row.id,
            "wallet": self.wallet_id,
            "asset": order.asset,
            "amount_cents": order.cost_cents,
            "worst_case_loss_cents": order.worst_case_loss_cents,
            "balance_after_cents": balance,
            "decision_id": decision_id,
            "executed_at": row.created_at.isoformat(),
        }

    async def state(self, limits: Limits) -> WalletState:
        async with self.engine.begin() as conn:
            w = await self._lock(conn)
            positions = (
                await conn.execute(
                    select(POSITIONS).where(POSITIONS.c.wallet_id == self.wallet_id).order_by(POSITIONS.c.asset)
                )
            ).all()
            ledger = (
                await conn.execute(select(LEDGER).where(LEDGER.c.wallet_id == self.wallet_id).order_by(LEDGER.c.id))
            ).all()
        return WalletState(
            wallet=self.wallet_id,
            balance_cents=w.balance_cents,
            breaker=w.breaker_reason if w.breaker_day == w.today else None,
            limits=dict(limits.__dict__),
            positions=[WalletPosition(p.asset, p.cost_cents, p.worst_case_loss_cents) for p in positions],
            ledger=[
                LedgerEntry(
                    id=r.id,
                    proposal_id=str(r.proposal_id),
                    decision_id=str(r.decision_id),
                    session_id=str(r.session_id) if r.session_id else None,
                    kind=r.kind,
                    asset=r.asset,
                    amount_cents=r.amount_cents,
                    balance_after_cents=r.balance_after_cents,
                    created_at=r.created_at.isoformat(),
                )
                for r in ledger
            ],
        )
