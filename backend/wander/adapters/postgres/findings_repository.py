"""What wanders find: resonances (recurring themes) and crystals (validated insights)."""

from __future__ import annotations

from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncEngine

from wander.adapters.postgres.event_log import append_after_lock
from wander.adapters.postgres.mappers import as_uuid, crystal_from_row, crystal_values, parse_uuid, resonance_from_row
from wander.adapters.postgres.tables import WanderCrystal, WanderResonance
from wander.core.domain.models import Crystal, CrystalStatus, Event, EventDraft, Resonance

RS = WanderResonance.__table__
C = WanderCrystal.__table__


class FindingsRepository:
    def __init__(self, engine: AsyncEngine):
        self.engine = engine

    async def find_resonances(self, session_id: str | None = None, status: str | None = None) -> list[Resonance]:
        q = select(RS).order_by(RS.c.created_at)
        if session_id is not None:
            q = q.where(RS.c.session_id == as_uuid(session_id))
        if status is not None:
            q = q.where(RS.c.status == status)
        async with self.engine.connect() as conn:
            return [resonance_from_row(r) for r in (await conn.execute(q)).all()]

    async def find_crystals(
        self,
        session_id: str | None = None,
        status: str | None = None,
        min_confidence: float | None = None,
        crystal_id: str | None = None,
    ) -> list[Crystal]:
        q = select(C).order_by(C.c.created_at)
        if session_id is not None:
            q = q.where(C.c.session_id == as_uuid(session_id))
        if status is not None:
            q = q.where(C.c.status == status)
        if min_confidence is not None:
            q = q.where(C.c.confidence >= min_confidence)
        if crystal_id is not None:
            cid = parse_uuid(crystal_id)
            if cid is None:
                return []
            q = q.where(C.c.id == cid)
        async with self.engine.connect() as conn:
            return [crystal_from_row(r) for r in (await conn.execute(q)).all()]

    async def crystals(self, project_id: str) -> list[Crystal]:
        """The project's crystals that still stand (not invalidated)."""
        q = (
            select(C)
            .where(C.c.project_id == as_uuid(project_id), C.c.status != CrystalStatus.INVALIDATED.value)
            .order_by(C.c.created_at)
        )
        async with self.engine.connect() as conn:
            return [crystal_from_row(r) for r in (await conn.execute(q)).all()]

    async def session_crystals(self, session_id: str) -> list[Crystal]:
        return await self.find_crystals(session_id=session_id)

    async def save_crystal(self, crystal: Crystal, events: list[EventDraft]) -> list[Event]:
        async with self.engine.begin() as conn:
            await conn.execute(insert(C).values(**crystal_values(crystal)))
            if crystal.session_id is None:
                return []
            return await append_after_lock(conn, crystal.session_id, events)
