"""Loci: the concepts a wander has met (planted ones added by interventions)."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import func, insert, select
from sqlalchemy.ext.asyncio import AsyncEngine

from wander.adapters.postgres.event_log import append_events, lock_session
from wander.adapters.postgres.mappers import as_uuid, locus_from_row, locus_values, parse_uuid
from wander.adapters.postgres.tables import WanderLocus
from wander.core.domain.models import Event, EventDraft, Locus

L = WanderLocus.__table__


class LociRepository:
    def __init__(self, engine: AsyncEngine):
        self.engine = engine

    async def add_locus(self, session_id: str, locus: Locus, events: list[EventDraft]) -> list[Event]:
        async with self.engine.begin() as conn:
            row = await lock_session(conn, session_id)
            await conn.execute(insert(L).values(**locus_values(locus)))
            return await append_events(conn, session_id, row.event_seq + 1, events, None)

    async def plant_locus(
        self, session_id: str, locus: Locus, make_events: Callable[[Locus], list[EventDraft]]
    ) -> tuple[Locus, list[Event]]:
        """The locus, unless the wander has one of the same concept already (case aside): then
        that one, unchanged. Looked up under the session's lock, so two plants of one concept
        at once make one locus. The events make_events gives for it follow either way."""
        async with self.engine.begin() as conn:
            row = await lock_session(conn, session_id)
            q = (
                select(L)
                .where(L.c.session_id == as_uuid(session_id), func.lower(L.c.concept) == locus.concept.lower())
                .order_by(L.c.first_encountered, L.c.id)
                .limit(1)
            )
            found = (await conn.execute(q)).first()
            if found is not None:
                locus = locus_from_row(found)
            else:
                await conn.execute(insert(L).values(**locus_values(locus)))
            return locus, await append_events(conn, session_id, row.event_seq + 1, make_events(locus), None)

    async def loci(
        self, session_id: str, visited: bool | None = None, min_interestingness: float | None = None
    ) -> list[Locus]:
        q = select(L).where(L.c.session_id == as_uuid(session_id)).order_by(L.c.first_encountered, L.c.id)
        if visited is not None:
            q = q.where(L.c.visit_count > 0 if visited else L.c.visit_count == 0)
        if min_interestingness is not None:
            q = q.where(L.c.interestingness >= min_interestingness)
        async with self.engine.connect() as conn:
            return [locus_from_row(r) for r in (await conn.execute(q)).all()]

    async def locus(self, session_id: str, locus_id: str) -> Locus | None:
        lid = parse_uuid(locus_id)
        if lid is None:
            return None
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(L).where(L.c.id == lid, L.c.session_id == as_uuid(session_id)))).first()
        return locus_from_row(row) if row else None
