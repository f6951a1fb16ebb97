"""Proposals and their human decisions on Postgres (the paper wallet is wallet_repository.py).

Every change writes its events to wander_events in the same transaction (the outbox),
numbered from the session row's event_seq under its row lock, as the main store does."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from wander.adapters.postgres.action_tables import DECISIONS, LEDGER, PROPOSALS
from wander.adapters.postgres.tables import WanderEvent, WanderSession
from wander.core.action.ports import Decision, Proposal
from wander.core.domain.errors import Refused
from wander.core.domain.models import Event, EventDraft

S = WanderSession.__table__
E = WanderEvent.__table__
P, D = PROPOSALS, DECISIONS


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
