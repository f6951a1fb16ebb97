"""The outbox side the relay needs: unpublished events of a session in seq order, claimed
under a per-session transaction-level advisory lock (so two relays never publish one
session at the same time, which keeps each session's events in seq order on the bus),
and marked published (wander_events.published_at) in that same transaction.

Events older than the horizon are left alone: they are history (a fresh relay on an
old embedded database would otherwise publish every event ever written); the WebSocket
and any late reader get them from the outbox itself."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import timedelta

from sqlalchemy import and_, func, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from wander.adapters.postgres.tables import WanderEvent
from wander.core.domain.models import Event

E = WanderEvent.__table__
RELAY_LOCK_CLASS = 0x57524C59  # 'WRLY': the relay's advisory lock namespace (int4)


def session_key(session_id: str) -> int:
    """A stable int4 of a session id for the second half of a two-key advisory lock."""
    return int.from_bytes(uuid.UUID(session_id).bytes[:4], "big", signed=True)


@dataclass
class OutboxBatch:
    events: list[Event]
    published_through: int | None = None  # the last seq published, set by the relay
    full: bool = False  # the batch hit its limit: there may be more

    def published(self, seq: int) -> None:
        self.published_through = seq


@dataclass
class PostgresOutbox:
    engine: AsyncEngine
    horizon: timedelta = field(default_factory=lambda: timedelta(hours=24))

    async def pending_sessions(self, limit: int = 1000) -> list[str]:
        """Sessions with unpublished events inside the horizon (the relay's sweep)."""
        q = (
            select(E.c.session_id)
            .where(and_(E.c.published_at.is_(None), E.c.ts > func.now() - self.horizon))
            .group_by(E.c.session_id)
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            return [str(r[0]) for r in (await conn.execute(q)).all()]

    @asynccontextmanager
    async def claim(self, session_id: str, after_seq: int = 0, limit: int = 500) -> AsyncIterator[OutboxBatch | None]:
        """The session's unpublished events (seq > after_seq, in seq order), or None when
        another relay holds the session. What the relay marks published is written on exit."""
        sid = uuid.UUID(session_id)
        async with self.engine.begin() as conn:
            got = (
                await conn.execute(select(func.pg_try_advisory_xact_lock(RELAY_LOCK_CLASS, session_key(session_id))))
            ).scalar_one()
            if not got:
                yield None
                return
            rows = (
                await conn.execute(
                    select(E.c.session_id, E.c.seq, E.c.subject, E.c.ts, E.c.payload)
                    .where(
                        E.c.session_id == sid,
                        E.c.seq > after_seq,
                        E.c.published_at.is_(None),
                        E.c.ts > func.now() - self.horizon,
                    )
                    .order_by(E.c.seq)
                    .limit(limit)
                )
            ).all()
            batch = OutboxBatch(
                [
                    Event(session_id=str(r.session_id), seq=r.seq, subject=r.subject, ts=r.ts, payload=r.payload)
                    for r in rows
                ],
                full=len(rows) >= limit,
            )
            yield batch
            if batch.published_through is not None:
                await conn.execute(
                    update(E)
                    .where(E.c.session_id == sid, E.c.seq <= batch.published_through, E.c.published_at.is_(None))
                    .values(published_at=func.now())
                )

    async def unpublished_count(self, session_id: str | None = None) -> int:
        q = select(func.count()).select_from(E).where(E.c.published_at.is_(None))
        if session_id is not None:
            q = q.where(E.c.session_id == uuid.UUID(session_id))
        async with self.engine.connect() as conn:
            return (await conn.execute(q)).scalar_one()
