"""The event outbox's write side: every change to a wander appends its events to
wander_events in the same transaction, numbered from the session row's event_seq, which
that transaction holds locked; so seq is gapless per session, and a crash loses the
change and its events together or neither. (The relay's side is store/outbox.py.)"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import CTE, Select, Text, Update, and_, bindparam, column, func, insert, select, true, update
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from wander.adapters.postgres.mappers import as_uuid
from wander.adapters.postgres.tables import WanderEvent, WanderSession
from wander.core.domain.errors import Conflict
from wander.core.domain.models import Event, EventDraft

S = WanderSession.__table__
E = WanderEvent.__table__
_INSERT_EVENTS = insert(E)


async def lock_session(conn: AsyncConnection, session_id: str, *columns: Any) -> Any:
    """The session's status, step_count and event_seq (and COLUMNS), its row locked until
    the transaction ends."""
    row = (await conn.execute(_lock_query(columns), {"sid": as_uuid(session_id)})).first()
    if row is None:
        raise Conflict(f"session {session_id} no longer exists")
    return row


# Every step runs these statements twice: built once, SQLAlchemy reuses their compiled form
# without building and hashing a new statement each time (about 0.1 ms each).
@functools.cache
def _lock_query(columns: tuple[Any, ...]) -> Any:
    return (
        select(S.c.status, S.c.step_count, S.c.event_seq, *columns).where(S.c.id == bindparam("sid")).with_for_update()
    )


def _advance_query(stamp: bool) -> Any:
    """UPDATE of the session row's event_seq (parameter v_event_seq); with STAMP, RETURNING
    the time it is written."""
    q = update(S).where(S.c.id == bindparam("sid")).values(event_seq=bindparam("v_event_seq"))
    return q.returning(func.clock_timestamp()) if stamp else q


_ADVANCE, _ADVANCE_STAMPED = _advance_query(False), _advance_query(True)


def with_events(advance: Update, also: Iterable[Callable[[CTE], CTE]] = ()) -> Select:
    """One statement from ADVANCE, an UPDATE of the session row that adds :n to event_seq and
    returns the row's id, event_seq and a `ts`: it also writes the :drafts
    (events_params) numbered after the seqs it claimed, and returns what ADVANCE returns.
    ALSO: more writes of the statement, each made from the `advanced` CTE (so that they
    write nothing when it is empty). No row: ADVANCE's WHERE did not hold, and nothing is
    written."""
    advanced = advance.cte("advanced")
    drafts = (
        func.jsonb_array_elements(bindparam("drafts", type_=JSONB))
        .table_valued(column("value", JSONB), with_ordinality="ord")
        .render_derived()
    )
    return select(advanced).add_cte(
        insert(E)
        .from_select(
            ["session_id", "seq", "subject", "ts", "payload"],
            select(
                advanced.c.id,
                advanced.c.event_seq - bindparam("n") + drafts.c.ord,
                drafts.c.value["subject"].astext,
                advanced.c.ts,
                drafts.c.value.op("->", return_type=JSONB)("payload"),  # not value['payload']: Postgres 14+
            ).select_from(advanced.join(drafts, true())),
        )
        .cte("advanced_events"),
        *(write(advanced) for write in also),
    )


def events_params(drafts: list[EventDraft]) -> dict[str, Any]:
    """with_events' parameters for DRAFTS."""
    return {"n": len(drafts), "drafts": [{"subject": d.subject, "payload": d.payload} for d in drafts]}


def numbered(session_id: str, last_seq: int, ts: datetime, drafts: list[EventDraft]) -> list[Event]:
    """The events with_events wrote, the last of them numbered LAST_SEQ."""
    first = last_seq - len(drafts) + 1
    return [Event(session_id, first + i, d.subject, ts, d.payload) for i, d in enumerate(drafts)]


async def append_events(
    conn: AsyncConnection, session_id: str, first_seq: int, drafts: list[EventDraft], ts: datetime | None
) -> list[Event]:
    """The events, numbered from first_seq, and the session row's event_seq advanced to the
    last of them (the caller holds the row locked)."""
    if not drafts:
        return []
    params = {"sid": as_uuid(session_id), "v_event_seq": first_seq + len(drafts) - 1}
    if ts is None:
        # The time the event is written (not the start of its transaction or of the step).
        ts = (await conn.execute(_ADVANCE_STAMPED, params)).scalar_one()
    else:
        await conn.execute(_ADVANCE, params)
    return await insert_events(conn, session_id, first_seq, drafts, ts)


async def insert_events(
    conn: AsyncConnection, session_id: str, first_seq: int, drafts: list[EventDraft], ts: datetime
) -> list[Event]:
    """The events' rows, numbered from first_seq: the caller has advanced event_seq."""
    events = [
        Event(session_id=session_id, seq=first_seq + i, subject=d.subject, ts=ts, payload=d.payload)
        for i, d in enumerate(drafts)
    ]
    if events:
        await conn.execute(
            _INSERT_EVENTS,
            [
                dict(session_id=as_uuid(e.session_id), seq=e.seq, subject=e.subject, ts=e.ts, payload=e.payload)
                for e in events
            ],
        )
    return events


async def append_after_lock(conn: AsyncConnection, session_id: str, drafts: list[EventDraft]) -> list[Event]:
    """Lock the session row and append the events after its last seq."""
    row = await lock_session(conn, session_id)
    return await append_events(conn, session_id, row.event_seq + 1, drafts, None)


class EventLogRepository:
    def __init__(self, engine: AsyncEngine):
        self.engine = engine

    async def event_texts_after(
        self, session_id: str, after_seq: int = 0, limit: int = 10_000
    ) -> list[tuple[int, str]]:
        """events_after's events as (seq, EventOut JSON), the payload's JSON as Postgres keeps
        it: not decoded into Python and encoded again (a catch-up of 20,000 events spent most
        of the server's time doing that)."""
        q = (
            select(E.c.session_id, E.c.seq, E.c.subject, E.c.ts, E.c.payload.cast(Text).label("payload"))
            .where(and_(E.c.session_id == as_uuid(session_id), E.c.seq > after_seq))
            .order_by(E.c.seq)
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(q)).all()
        return [(r.seq, event_out_json(str(r.session_id), r.seq, r.ts, r.subject, r.payload)) for r in rows]

    async def events_after(self, session_id: str, after_seq: int = 0, limit: int = 10_000) -> list[Event]:
        q = (
            select(E)
            .where(and_(E.c.session_id == as_uuid(session_id), E.c.seq > after_seq))
            .order_by(E.c.seq)
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            return [
                Event(session_id=str(r.session_id), seq=r.seq, subject=r.subject, ts=r.ts, payload=r.payload)
                for r in (await conn.execute(q)).all()
            ]


def event_out_json(session_id: str, seq: int, ts: datetime, subject: str, payload_json: str) -> str:
    """An EventOut of shared_schemas.events around a payload that is JSON already (the same
    fields and timestamp form as api/ws.py's event_json)."""
    stamp = ts.isoformat().replace("+00:00", "Z")
    return (
        f'{{"session_id": {json.dumps(session_id)}, "seq": {int(seq)}, "ts": {json.dumps(stamp)}, '
        f'"subject": {json.dumps(subject)}, "payload": {payload_json}}}'
    )
