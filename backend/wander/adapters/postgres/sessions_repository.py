"""Sessions: create, read, list, a step's start (its controls and start events), status
changes, settings, delete."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import bindparam, delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from wander.adapters.postgres.event_log import append_events, events_params, lock_session, numbered, with_events
from wander.adapters.postgres.faults import writing
from wander.adapters.postgres.mappers import (
    as_uuid,
    fence_embeddings,
    fence_from_json,
    fence_to_json,
    locus_values,
    parse_uuid,
    session_from_row,
    session_values,
)
from wander.adapters.postgres.tables import WanderLocus, WanderSession
from wander.core.domain.errors import Conflict
from wander.core.domain.models import FINISHED, Event, EventDraft, Locus, Session, SessionStatus
from wander.core.engine.ports import InjectionChange, SessionControls

S = WanderSession.__table__
L = WanderLocus.__table__
# A step's start is one statement, its own transaction (autocommit: no BEGIN and COMMIT
# round trips): if the wander is still active, it claims the events' numbers, writes them
# and returns the controls a person may have changed meanwhile.
_START_STEP = with_events(
    update(S)
    .where(S.c.id == bindparam("sid"), S.c.status == SessionStatus.ACTIVE.value)
    .values(event_seq=S.c.event_seq + bindparam("n"))
    .returning(
        S.c.id,
        S.c.event_seq,
        func.clock_timestamp().label("ts"),  # when the events are written
        S.c.allowed_domains,
        S.c.forbidden_domains,
        S.c.temperature,
        S.c.max_steps,
        S.c.fence,
        S.c.pending_injection,
        S.c.cloud_budget_cents,
    )
)
UPDATABLE = frozenset(
    {
        "name",
        "allowed_domains",
        "forbidden_domains",
        "max_steps",
        "temperature",
        "cloud_budget_cents",
        "max_drift_distance",
        "human_checkpoint_frequency",
    }
)


class SessionsRepository:
    def __init__(self, engine: AsyncEngine):
        self.engine = engine

    async def create_session(self, session: Session, seed_loci: list[Locus], events: list[EventDraft]) -> list[Event]:
        """The session, its seed locus first (then any planted seeds), and their events."""
        async with self.engine.begin() as conn:
            await conn.execute(
                insert(S).values(id=as_uuid(session.id), created_at=session.created_at, **session_values(session))
            )
            for locus in seed_loci:
                await conn.execute(insert(L).values(**locus_values(locus)))
            return await append_events(conn, session.id, 1, events, session.created_at)

    async def create_subwander(
        self, child: Session, seed_loci: list[Locus], events: list[EventDraft], parent_events: list[EventDraft]
    ) -> list[Event]:
        """A sub-wander in one transaction: the child as create_session writes it, the parent's
        cloud budget less the child's, and the parent's events after its last (under its lock).
        Returns the child's events, then the parent's."""
        assert child.parent_session_id is not None
        parent_id = child.parent_session_id
        async with self.engine.begin() as conn:
            row = await lock_session(conn, parent_id)
            await conn.execute(
                update(S)
                .where(S.c.id == as_uuid(parent_id))
                .values(cloud_budget_cents=S.c.cloud_budget_cents - child.cloud_budget_cents)
            )
            await conn.execute(
                insert(S).values(id=as_uuid(child.id), created_at=child.created_at, **session_values(child))
            )
            for locus in seed_loci:
                await conn.execute(insert(L).values(**locus_values(locus)))
            mine = await append_events(conn, child.id, 1, events, child.created_at)
            return mine + await append_events(conn, parent_id, row.event_seq + 1, parent_events, None)

    async def get_session(self, session_id: str) -> Session | None:
        sid = parse_uuid(session_id)
        if sid is None:
            return None
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(S).where(S.c.id == sid))).first()
        return session_from_row(row) if row else None

    async def list_sessions(self, status: str | None = None, limit: int = 50, offset: int = 0) -> list[Session]:
        q = select(S).order_by(S.c.created_at.desc()).limit(limit).offset(offset)
        if status:
            q = q.where(S.c.status == status)
        async with self.engine.connect() as conn:
            return [session_from_row(r) for r in (await conn.execute(q)).all()]

    async def count_sessions(self, status: str | None = None) -> int:
        q = select(func.count()).select_from(S)
        if status:
            q = q.where(S.c.status == status)
        async with self.engine.connect() as conn:
            return (await conn.execute(q)).scalar_one()

    async def children(self, session_id: str) -> list[Session]:
        q = select(S).where(S.c.parent_session_id == as_uuid(session_id)).order_by(S.c.created_at)
        async with self.engine.connect() as conn:
            return [session_from_row(r) for r in (await conn.execute(q)).all()]

    async def start_step(self, session_id: str, events: list[EventDraft]) -> tuple[SessionControls, list[Event]]:
        with writing("the events"):
            async with self.engine.connect() as conn:
                conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
                params = {"sid": as_uuid(session_id)} | events_params(events)
                r = (await conn.execute(_START_STEP, params)).first()
                if r is None:
                    row = await lock_session(conn, session_id)  # Conflict if it is gone
                    raise Conflict(f"session {session_id} is {row.status}")
        started = numbered(session_id, r.event_seq, r.ts, events)
        controls = SessionControls(
            SessionStatus.ACTIVE.value,
            list(r.allowed_domains or []),
            list(r.forbidden_domains or []),
            r.temperature,
            r.max_steps,
            fence_from_json(r.fence),
            r.pending_injection,
            r.cloud_budget_cents,
        )
        return controls, started

    async def set_status(
        self,
        session_id: str,
        status: str,
        reason: str | None,
        events: list[EventDraft],
        allowed_from: Iterable[str] | None = None,
    ) -> list[Event]:
        """Change the status; with allowed_from, only from one of those (checked under the row lock,
        so a step that completes the wander meanwhile wins over a late pause)."""
        async with self.engine.begin() as conn:
            row = await lock_session(conn, session_id)
            if allowed_from is not None and row.status not in set(allowed_from):
                raise Conflict(f"session {session_id} is {row.status}; cannot become {status}")
            values: dict[str, Any] = {"status": status, "stopped_reason": reason}
            if status == SessionStatus.COMPLETED:
                values["completed_at"] = func.now()
            elif status == SessionStatus.ACTIVE:
                values["completed_at"] = None  # a completed wander extended by raising max_steps
            await conn.execute(update(S).where(S.c.id == as_uuid(session_id)).values(**values))
            return await append_events(conn, session_id, row.event_seq + 1, events, None)

    async def set_controls(self, session_id: str, **values: Any) -> None:
        """fence (anchors), written by interventions. A pending injection goes through
        set_injection, which writes its event with it."""
        if "pending_injection" in values:
            raise ValueError("pending_injection is set by set_injection (with its event)")
        if "fence" in values:
            values["fence_embeddings"] = fence_embeddings(values["fence"])
            values["fence"] = fence_to_json(values["fence"])
        await self._update(session_id, **values)

    async def set_injection(
        self, session_id: str, change: InjectionChange, finished: frozenset[str] = FINISHED
    ) -> list[Event]:
        """Set the pending forced injection under the session's lock: `change` gets the one
        pending now and gives the new one and its events, written in the same transaction
        (two injections at once: one replaces the other, each with its event, in seq order).
        Refused once the wander is finished."""
        async with self.engine.begin() as conn:
            row = await lock_session(conn, session_id)
            if row.status in finished:
                raise Conflict(f"session {session_id} is {row.status}; nothing can be injected")
            sid = as_uuid(session_id)
            current = (await conn.execute(select(S.c.pending_injection).where(S.c.id == sid))).scalar_one()
            pending, events = change(current)
            await conn.execute(update(S).where(S.c.id == sid).values(pending_injection=pending))
            return await append_events(conn, session_id, row.event_seq + 1, events, None)

    async def set_budget(self, session_id: str, cloud_budget_cents: int) -> None:
        await self._update(session_id, cloud_budget_cents=cloud_budget_cents)

    async def set_run_target(self, session_id: str, run_until_step: int | None) -> None:
        await self._update(session_id, run_until_step=run_until_step)

    async def interrupted_runs(self) -> list[Session]:
        """Active sessions whose requested run had not reached its step: left by a crash."""
        q = select(S).where(S.c.status == SessionStatus.ACTIVE.value, S.c.run_until_step > S.c.step_count)
        async with self.engine.connect() as conn:
            return [session_from_row(r) for r in (await conn.execute(q)).all()]

    async def update_session(self, session_id: str, **values: Any) -> None:
        """Settings a person may change (name, domains, max_steps, temperature, budget, drift, checkpoints)."""
        bad = set(values) - UPDATABLE
        if bad:
            raise ValueError(f"not updatable: {sorted(bad)}")
        if values:
            await self._update(session_id, **values)

    async def delete_session(self, session_id: str) -> bool:
        async with self.engine.begin() as conn:
            # Events and traces go with the session (ON DELETE CASCADE).
            res = await conn.execute(delete(S).where(S.c.id == as_uuid(session_id)))
            return res.rowcount > 0

    async def _update(self, session_id: str, **values: Any) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(update(S).where(S.c.id == as_uuid(session_id)).values(**values))
