"""A person's verdict on a crystal kept for review (0.5 <= V < 0.7): the crystal row and the
wander.crystal.reviewed event in one transaction."""

from __future__ import annotations

from sqlalchemy import func, select, update

from collections.abc import Callable

from wander.domain.errors import Conflict, NotFound
from wander.domain.models import Crystal, Event, EventDraft
from wander.store.findings_repository import C
from wander.store.mappers import as_uuid as _uuid
from wander.store.repository import PostgresStore


async def review_crystal(
    store: PostgresStore, crystal_id: str, verdict: str, note: str | None,
    event: Callable[[Crystal, str], EventDraft],
) -> tuple[Crystal, list[Event]]:  # fmt: skip
    """accept: the crystal stays active, approved by a person; reject: it is invalidated.
    Only a crystal the gate kept for review, and not yet reviewed, takes a verdict."""
    found = await store.find_crystals(status=None, crystal_id=crystal_id)
    if not found:
        raise NotFound("crystal", crystal_id)
    c = found[0]
    if c.validity.get("verdict") != "review":
        raise Conflict(f"crystal {crystal_id} was not kept for review (gate verdict: {c.validity.get('verdict')})")
    if c.human_approved or c.status != "active":
        raise Conflict(f"crystal {crystal_id} was already reviewed (status {c.status})")
    status = "active" if verdict == "accept" else "invalidated"
    notes = f"{'accepted' if verdict == 'accept' else 'rejected'} by a person" + (f": {note}" if note else "")
    events: list[Event] = []
    async with store.engine.begin() as conn:
        await conn.execute(
            update(C).where(C.c.id == _uuid(c.id)).values(
                status=status, human_approved=verdict == "accept", validation_notes=notes,
                human_approved_at=(await conn.execute(select(func.now()))).scalar_one(), human_approved_by="mind map")
        )  # fmt: skip
        if c.session_id is not None:
            row = await store._lock_session(conn, c.session_id)
            draft = event(c, status)
            events = await store._append_events(conn, c.session_id, row.event_seq + 1, [draft], None)
    c.status, c.human_approved, c.validation_notes = status, verdict == "accept", notes
    return c, events
