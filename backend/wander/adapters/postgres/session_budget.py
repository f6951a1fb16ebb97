"""A wander session's cloud budget on Postgres, for callers outside a step (the model
evaluator of the action layer). A hold is one conditional UPDATE, so concurrent holds can
never take the session past its budget; a step's own spend is added by its commit
(`cloud_spent_cents + cost`), so both compose."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncEngine

from wander.adapters.postgres.mappers import parse_uuid
from wander.adapters.postgres.tables import WanderSession

S = WanderSession.__table__


@dataclass
class SessionBudget:
    engine: AsyncEngine

    async def reserve(self, session_id: str, cents: int) -> bool:
        sid = parse_uuid(session_id)
        if sid is None:
            return False
        async with self.engine.begin() as conn:
            held = await conn.execute(
                update(S)
                .where(S.c.id == sid, S.c.cloud_spent_cents + cents <= S.c.cloud_budget_cents)
                .values(cloud_spent_cents=S.c.cloud_spent_cents + cents)
            )
            return held.rowcount == 1

    async def settle(self, session_id: str, held_cents: int, spent_cents: int, route: str) -> None:
        sid = parse_uuid(session_id)
        if sid is None:
            return
        calls = S.c.cloud_calls if route == "cloud" else S.c.local_calls
        async with self.engine.begin() as conn:
            await conn.execute(
                update(S)
                .where(S.c.id == sid)
                .values(cloud_spent_cents=S.c.cloud_spent_cents + (spent_cents - held_cents), **{calls.name: calls + 1})
            )
