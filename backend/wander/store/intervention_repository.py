"""Writes from outside a step that carry their own events: a step's start (published
before the step's work, in its own small transaction), fence changes. Mixed into
PostgresStore, which supplies the row lock and the outbox."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import update

from wander.domain.errors import Conflict
from wander.domain.models import Event, EventDraft, FenceAnchor
from wander.store.tables import WanderSession

S = WanderSession.__table__


class InterventionWrites:
    async def record_events(self: Any, session_id: str, events: list[EventDraft],
                            require_status: str | None = None) -> list[Event]:  # fmt: skip
        """Append events alone (e.g. wander.step.started), numbered after the session's last."""
        async with self.engine.begin() as conn:
            row = await self._lock_session(conn, session_id)
            if require_status is not None and row.status != require_status:
                raise Conflict(f"session {session_id} is {row.status}")
            return await self._append_events(
                conn, session_id, row.event_seq + 1, events, None
            )

    async def set_fence(self: Any, session_id: str, anchors: list[FenceAnchor], events: list[EventDraft],
                        finished: tuple[str, ...] = ("completed", "abandoned")) -> list[Event]:  # fmt: skip
        """Replace the fence and write its events, refused once the wander is finished."""
        async with self.engine.begin() as conn:
            row = await self._lock_session(conn, session_id)
            if row.status in finished:
                raise Conflict(
                    f"session {session_id} is {row.status}; its fence can no longer change"
                )
            from wander.store.repository import (
                fence_to_json,  # the module that mixes this in
            )

            await conn.execute(
                update(S)
                .where(S.c.id == uuid.UUID(session_id))
                .values(fence=fence_to_json(anchors))
            )
            return await self._append_events(
                conn, session_id, row.event_seq + 1, events, None
            )
