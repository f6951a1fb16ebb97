"""Writes from outside a step that carry their own events: fence changes, a person's
verdict on a crystal, each under the session's row lock with its events in the outbox."""

from __future__ import annotations

import uuid

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from wander.adapters.postgres.event_log import append_events, lock_session
from wander.adapters.postgres.mappers import as_uuid, fence_embeddings, fence_from_json, fence_to_json
from wander.adapters.postgres.tables import WanderCrystal, WanderSession
from wander.core.domain.errors import Conflict
from wander.core.domain.models import FINISHED, Event, EventDraft
from wander.core.engine.ports import FenceChange

S = WanderSession.__table__
C = WanderCrystal.__table__


class InterventionWrites:
    def __init__(self, engine: AsyncEngine):
        self.engine = engine

    async def set_fence(
        self,
        session_id: str,
        change: FenceChange,
        finished: frozenset[str] = FINISHED,
    ) -> list[Event]:
        """Change the fence under the session's lock: `change` gets the fence as it is now and
        gives the new one and its events (two changes at once both count, in one order).
        Refused once the wander is finished."""
        async with self.engine.begin() as conn:
            row = await lock_session(conn, session_id)
            if row.status in finished:
                raise Conflict(f"session {session_id} is {row.status}; its fence can no longer change")
            current = (await conn.execute(select(S.c.fence).where(S.c.id == uuid.UUID(session_id)))).scalar_one()
            anchors, events = change(fence_from_json(current))
            await conn.execute(
                update(S)
                .where(S.c.id == uuid.UUID(session_id))
                .values(fence=fence_to_json(anchors), fence_embeddings=fence_embeddings(anchors))
            )
            return await append_events(conn, session_id, row.event_seq + 1, events, None)

    async def record_crystal_review(
        self,
        crystal_id: str,
        session_id: str | None,
        status: str,
        approved: bool,
        notes: str,
        events: list[EventDraft],
    ) -> list[Event]:
        """A person's verdict on a crystal (engine.workbench checks it) and its events, in one
        transaction."""
        async with self.engine.begin() as conn:
            now = (await conn.execute(select(func.now()))).scalar_one()
            await conn.execute(
                update(C)
                .where(C.c.id == as_uuid(crystal_id))
                .values(
                    status=status,
                    human_approved=approved,
                    validation_notes=notes,
                    human_approved_at=now,
                    human_approved_by="mind map",
                )
            )
            if session_id is None or not events:
                return []
            row = await lock_session(conn, session_id)
            return await append_events(conn, session_id, row.event_seq + 1, events, None)
