"""Proposals, their human decisions and the paper wallet on Postgres.

Every change writes its events to wander_events in the same transaction (the outbox),
numbered from the session row's event_seq under its row lock, as the main store does.
The paper wallet serialises executions on its own row lock (SELECT ... FOR UPDATE), so
concurrent approvals and executions can never book past a limit."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, func, insert, literal_column, select, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from wander.action.ports import Decision, Limits, Order, Proposal
from wander.domain.errors import Refused
from wander.domain.models import Event, EventDraft
from wander.store.action_tables import DECISIONS, LEDGER, POSITIONS, PROPOSALS, WALLETS
from wander.store.tables import WanderEvent, WanderSession

S = WanderSession.__table__
E = WanderEvent.__table__
P, D = PROPOSALS, DECISIONS
UTC_TODAY: Any = literal_column("(now() AT TIME ZONE 'UTC')::date")


async def append_events(conn: AsyncConnection, session_id: str | None, drafts: list[EventDraft]) -> list[Event]:
    """The drafts as the session's next events (gapless seq under the session row lock)."""
    if session_id is None or not drafts:
        return []
    sid = uuid.UUID(session_id)
    row = (await conn.execute(select(S.c.event_seq, func.now()).where(S.c.id == sid).with_for_update())).first()
    if row is None:
        return []
    events = [
        Event(session_id=session_id, seq=row[0] + 1 + i, subject=d.subject, ts=row[1], payload=d.payload)
        for i, d in enumerate(drafts)
    ]
    await conn.execute(
        insert(E),
        [{"session_id": sid, "seq": e.seq, "subject": e.subject, "ts": e.ts, "payload": e.payload} for e in events],
    )
    await conn.execute(update(S).where(S.c.id == sid).values(event_seq=events[-1].seq))
    return events


def _decision(r: Any) -> Decision | None:
    if r is None or r.d_id is None:
        return None
    return Decision(str(r.d_id), r.decision, r.reviewer, r.d_sha, r.token_verified, r.via, r.note, r.decided_at)


def _proposal(r: Any) -> Proposal:
    execution = None
    if r.l_id is not None:
        execution = {
            "ledger_id": r.l_id,
            "asset": r.asset,
            "amount_cents": r.amount_cents,
            "balance_after_cents": r.balance_after_cents,
            "executed_at": r.executed_at,
        }
    return Proposal(
        str(r.id),
        str(r.crystal_id),
        str(r.session_id) if r.session_id else None,
        r.status,
        r.evaluator,
        r.evaluation,
        r.image_sha256,
        r.params,
        r.created_at,
        _decision(r),
        execution,
    )


def _select():
    return (
        select(
            P.c.id,
            P.c.crystal_id,
            P.c.session_id,
            P.c.status,
            P.c.evaluator,
            P.c.evaluation,
            P.c.image_sha256,
            P.c.params,
            P.c.created_at,
            D.c.id.label("d_id"),
            D.c.decision,
            D.c.reviewer,
            D.c.image_sha256.label("d_sha"),
            D.c.token_verified,
            D.c.via,
            D.c.note,
            D.c.decided_at,
            LEDGER.c.id.label("l_id"),
            LEDGER.c.asset,
            LEDGER.c.amount_cents,
            LEDGER.c.balance_after_cents,
            LEDGER.c.created_at.label("executed_at"),
        )
        .outerjoin(D, D.c.proposal_id == P.c.id)
        .outerjoin(LEDGER, LEDGER.c.proposal_id == P.c.id)
    )


@dataclass
class ActionRepository:
    engine: AsyncEngine

    async def add(self, values: dict[str, Any], drafts: list[EventDraft]) -> list[Event]:
        async with self.engine.begin() as conn:
            await conn.execute(insert(P).values(**values))
            return await append_events(conn, str(values["session_id"]) if values["session_id"] else None, drafts)

    async def get(self, proposal_id: str) -> Proposal | None:
        try:
            pid = uuid.UUID(proposal_id)
        except ValueError:
            return None
        async with self.engine.connect() as conn:
            row = (await conn.execute(_select().where(P.c.id == pid))).first()
        return _proposal(row) if row else None

    async def find(self, status: str | None = None, session_id: str | None = None) -> list[Proposal]:
        q = _select().order_by(P.c.created_at)
        if status is not None:
            q = q.where(P.c.status == status)
        if session_id is not None:
            q = q.where(P.c.session_id == uuid.UUID(session_id))
        async with self.engine.connect() as conn:
            return [_proposal(r) for r in (await conn.execute(q)).all()]

    async def image(self, proposal_id: str) -> bytes | None:
        async with self.engine.connect() as conn:
            return (await conn.execute(select(P.c.image).where(P.c.id == uuid.UUID(proposal_id)))).scalar_one_or_none()

    async def events(self, session_id: str | None, drafts: list[EventDraft]) -> list[Event]:
        async with self.engine.begin() as conn:
            return await append_events(conn, session_id, drafts)

    async def decide(
        self,
        proposal_id: str,
        decision: str,
        reviewer: str,
        image_sha256: str,
        token_verified: bool,
        via: str,
        note: str | None,
        make_events,
    ) -> list[Event]:
        """One decision per proposal, on the image the reviewer saw; a second one is refused."""
        pid = uuid.UUID(proposal_id)
        async with self.engine.begin() as conn:
            row = (
                await conn.execute(
                    select(P.c.status, P.c.image_sha256, P.c.session_id).where(P.c.id == pid).with_for_update()
                )
            ).one()
            if row.status != "pending":
                raise Refused(f"proposal {proposal_id} is already {row.status}; a decision is made once", 409)
            if image_sha256 != row.image_sha256:
                raise Refused("image_sha256: not the sha256 of this proposal's image; review the current image", 409)
            await conn.execute(
                insert(D).values(
                    proposal_id=pid,
                    decision=decision,
                    reviewer=reviewer,
                    image_sha256=image_sha256,
                    token_verified=token_verified,
                    via=via,
                    note=note,
                )
            )
            await conn.execute(update(P).where(P.c.id == pid).values(status=decision))
            sid = str(row.session_id) if row.session_id else None
            return await append_events(conn, sid, make_events(sid))


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

    async def state(self, limits: Limits) -> dict[str, Any]:
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
        return {
            "wallet": self.wallet_id,
            "balance_cents": w.balance_cents,
            "breaker": w.breaker_reason if w.breaker_day == w.today else None,
            "limits": limits.__dict__,
            "positions": [
                {"asset": p.asset, "cost_cents": p.cost_cents, "worst_case_loss_cents": p.worst_case_loss_cents}
                for p in positions
            ],
            "ledger": [
                {
                    "id": r.id,
                    "proposal_id": str(r.proposal_id),
                    "decision_id": str(r.decision_id),
                    "session_id": str(r.session_id) if r.session_id else None,
                    "kind": r.kind,
                    "asset": r.asset,
                    "amount_cents": r.amount_cents,
                    "balance_after_cents": r.balance_after_cents,
                    "created_at": r.created_at.isoformat(),
                }
                for r in ledger
            ],
        }
