"""A forced injection is a state change with its event: POST .../inject with
force_visit writes wander.injection.queued in the transaction that sets the session's
pending injection, so the log says what the session holds; a refused inject writes
neither. (It used to set the pending injection and write no event.)"""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

import httpx
import pytest
import websockets

from shared_schemas.events import EventOut, Subject
from tests.api.conftest import API, create
from wander.bootstrap.wiring import offline_engine
from wander.core.domain.errors import Conflict
from wander.core.domain.models import SessionStatus
from wander.core.engine.service import Interventions, NewWander

# Background work (the projection refit) may append its own events; not the inject's.
BACKGROUND = {Subject.PROJECTION_UPDATED}


@pytest.fixture
async def other(server):
    """A second client, with its own connection pool."""
    async with httpx.AsyncClient(base_url=f"http://{server}", timeout=30) as c:
        yield c


async def events_since(app, sid: str, after_seq: int) -> list:
    """The session's events after after_seq, checked gapless from 1 over the whole log."""
    events = await app.store.events_after(sid)
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    return [e for e in events if e.seq > after_seq and e.subject not in BACKGROUND]


def queued(events) -> list:
    return [e for e in events if e.subject == Subject.INJECTION_QUEUED]


async def test_a_forced_inject_writes_one_event_with_the_pending_injection(app, client, server):
    s = await create(client, max_steps=30, random_seed=5, human_checkpoint_frequency=0, max_drift_distance=2)
    sid = s["id"]
    before = (await app.store.get_session(sid)).event_seq

    async with websockets.connect(f"ws://{server}/ws/sessions/{sid}?after_seq={before}") as ws:
        async with asyncio.timeout(30):
            while json.loads(await ws.recv())["type"] != "caught_up":
                pass
        r = await client.post(f"{API}/{sid}/inject", json={"concept": "  Lighthouse   keeper "})
        assert r.status_code == 200, r.text
        # published live, and valid against the wire contract (the union narrows on subject)
        async with asyncio.timeout(30):
            while (frame := json.loads(await ws.recv()))["type"] != "event":
                pass
    live = EventOut.model_validate(frame["event"]).root
    assert live.subject == Subject.INJECTION_QUEUED and live.seq == before + 1

    session = await app.store.get_session(sid)
    events = await events_since(app, sid, before)
    assert [(e.seq, e.subject) for e in events] == [(before + 1, Subject.INJECTION_QUEUED)]
    assert session.event_seq == before + 1
    pending = session.pending_injection
    assert pending is not None and pending["concept"] == "Lighthouse keeper"
    assert events[0].payload == {
        "session_id": sid,
        "concept": "Lighthouse keeper",
        "injection_id": pending["id"],
        "replaced": None,
    }
    assert live.payload.model_dump() == events[0].payload

    # A hint (no forced visit) plants a locus: wander.locus.planted, no injection queued.
    r = await client.post(f"{API}/{sid}/inject", json={"concept": "harbour", "force_visit": False})
    assert r.status_code == 200, r.text
    hint = await events_since(app, sid, before + 1)
    assert [e.subject for e in hint] == [Subject.LOCUS_PLANTED]
    assert (await app.store.get_session(sid)).pending_injection == pending

    # Replacing the pending injection writes a new event that names the one it replaced.
    mark = (await app.store.get_session(sid)).event_seq
    r = await client.post(f"{API}/{sid}/inject", json={"concept": "tide"})
    assert r.status_code == 200, r.text
    session = await app.store.get_session(sid)
    events = await events_since(app, sid, mark)
    assert [(e.seq, e.subject) for e in events] == [(mark + 1, Subject.INJECTION_QUEUED)]
    assert events[0].payload["replaced"] == "Lighthouse keeper"
    assert session.pending_injection == {"concept": "tide", "id": events[0].payload["injection_id"]}
    assert events[0].payload["injection_id"] != pending["id"]

    # The next step takes it.
    step = await client.post(f"{API}/{sid}/step")
    assert step.status_code == 200 and step.json()["to_locus"]["concept"] == "tide", step.text
    assert (await app.store.get_session(sid)).pending_injection is None


async def test_concurrent_forced_injects_each_write_an_event_and_the_last_by_seq_stands(app, client, other):
    s = await create(client, max_steps=30, random_seed=6, human_checkpoint_frequency=0, max_drift_distance=2)
    sid = s["id"]
    assert (await client.post(f"{API}/{sid}/step")).status_code == 200

    rounds: list[tuple[str, ...]] = [("tide", "orchard"), ("lighthouse", "lighthouse"), ("ember", "glacier", "canal")]
    previous: str | None = None
    for concepts in rounds:
        mark = (await app.store.get_session(sid)).event_seq
        clients = [client, other]
        answers = await asyncio.gather(
            *(clients[i % 2].post(f"{API}/{sid}/inject", json={"concept": c}) for i, c in enumerate(concepts))
        )
        assert all(a.status_code == 200 for a in answers), [a.text for a in answers]
        session = await app.store.get_session(sid)
        events = await events_since(app, sid, mark)
        # one event per inject, consecutive seqs, each concept once
        assert [e.seq for e in events] == list(range(mark + 1, mark + 1 + len(concepts)))
        assert all(e.subject == Subject.INJECTION_QUEUED for e in events)
        assert sorted(e.payload["concept"] for e in events) == sorted(concepts)
        assert len({e.payload["injection_id"] for e in events}) == len(concepts)
        # each replaced the one pending before it, in seq order: one order, no lost write
        replaced = [e.payload["replaced"] for e in events]
        assert replaced == [previous] + [e.payload["concept"] for e in events[:-1]]
        # the session holds the injection of the last event by seq
        last = events[-1].payload
        assert session.pending_injection == {"concept": last["concept"], "id": last["injection_id"]}
        assert session.event_seq == events[-1].seq
        previous = last["concept"]

    step = await client.post(f"{API}/{sid}/step")
    assert step.status_code == 200 and step.json()["to_locus"]["concept"] == previous, step.text
    assert (await app.store.get_session(sid)).pending_injection is None


async def test_a_refused_inject_writes_no_event(app, client, monkeypatch):
    s = await create(client, max_steps=30, random_seed=7, human_checkpoint_frequency=0, max_drift_distance=2)
    sid = s["id"]
    assert (await client.post(f"{API}/{sid}/inject", json={"concept": "tide"})).status_code == 200
    pending = (await app.store.get_session(sid)).pending_injection
    mark = (await app.store.get_session(sid)).event_seq

    # An unknown session: 404, and nothing written anywhere.
    ghost = str(uuid.uuid4())
    r = await client.post(f"{API}/{ghost}/inject", json={"concept": "lighthouse"})
    assert r.status_code == 404, r.text
    assert await app.store.events_after(ghost) == []

    # A bad concept: 422 naming the field, no event, the pending injection as it was.
    for concept in ("", "   ", "x" * 5000):
        r = await client.post(f"{API}/{sid}/inject", json={"concept": concept})
        assert r.status_code == 422, r.text
        assert r.json()["field"] == "concept"
    session = await app.store.get_session(sid)
    assert session.event_seq == mark and session.pending_injection == pending
    assert await events_since(app, sid, mark) == []

    # The wander finishes after the inject read it and before it writes: refused under the
    # session's lock (409), with the abandonment's events and no injection event.
    original = app.store.set_injection

    async def finished_meanwhile(session_id: str, change: Any) -> Any:
        await app.engine.set_status(session_id, SessionStatus.ABANDONED, "test")
        return await original(session_id, change)

    monkeypatch.setattr(app.store, "set_injection", finished_meanwhile)
    r = await client.post(f"{API}/{sid}/inject", json={"concept": "lighthouse"})
    assert r.status_code == 409, r.text
    monkeypatch.undo()
    session = await app.store.get_session(sid)
    assert str(session.status) == "abandoned" and session.pending_injection == pending
    events = await events_since(app, sid, mark)
    # the session's counter names a logged event, and only background events (archiving the
    # abandoned wander may add one at any time) follow it
    log = await app.store.events_after(sid)
    assert events and queued(events) == [] and session.event_seq in [e.seq for e in log]
    assert all(e.subject in BACKGROUND for e in log if e.seq > session.event_seq)

    # And once it is finished, refused before anything is written.
    r = await client.post(f"{API}/{sid}/inject", json={"concept": "lighthouse"})
    assert r.status_code == 409, r.text
    assert all(e.subject in BACKGROUND for e in await app.store.events_after(sid) if e.seq > session.event_seq)


async def test_the_in_memory_store_writes_the_event_with_the_injection(knowledge, embedder):
    """The in-memory twin keeps the same contract: the pending injection and its event together."""
    engine, store, clock = offline_engine(knowledge, embedder)
    session = await engine.create(NewWander(seed_concept="coral reef", max_steps=5, human_checkpoint_frequency=0))
    sid, mark = session.id, len(store.events[session.id])
    steer = Interventions(engine)
    await steer.inject(sid, "lighthouse")
    await steer.inject(sid, "tide")
    events = store.events[sid][mark:]
    assert [(e.seq, e.subject) for e in events] == [
        (mark + 1, Subject.INJECTION_QUEUED),
        (mark + 2, Subject.INJECTION_QUEUED),
    ]
    assert [(e.payload["concept"], e.payload["replaced"]) for e in events] == [
        ("lighthouse", None),
        ("tide", "lighthouse"),
    ]
    assert store.sessions[sid].pending_injection == {"concept": "tide", "id": events[1].payload["injection_id"]}
    assert store.sessions[sid].event_seq == mark + 2

    clock.advance(seconds=30)
    result = await engine.step(await engine.load_walk(sid))
    assert result.to_locus.concept == "tide" and store.sessions[sid].pending_injection is None

    await engine.set_status(sid, SessionStatus.ABANDONED, "test")
    seq = store.sessions[sid].event_seq
    with pytest.raises(Conflict):
        await steer.inject(sid, "lighthouse")
    assert store.sessions[sid].event_seq == seq and store.sessions[sid].pending_injection is None
