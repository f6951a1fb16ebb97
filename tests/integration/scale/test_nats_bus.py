"""The NATS EventBus and the outbox relay on a real nats-server and Postgres: events land
in JetStream as wander.<sid>.<event> in seq order with one message per (session, seq),
re-publishing is deduplicated, subscribers get one session or all, and events committed
while NATS is away are published when it is back."""

from __future__ import annotations

import asyncio
import json

import nats
from sqlalchemy import text

from tests.integration.scale.conftest import eventually
from wander.adapters.bus import subjects
from wander.adapters.postgres.outbox import PostgresOutbox
from wander.core.engine.service import NewWander


async def take_steps(app, sid: str, n: int) -> None:
    for _ in range(n):
        walk = await app.engine.load_walk(sid)
        await app.engine.step(walk)


async def stream_messages(url: str, sid: str) -> list[tuple[str, dict, str]]:
    nc = await nats.connect(url)
    try:
        js = nc.jetstream()
        sub = await js.subscribe(subjects.session_filter(sid), ordered_consumer=True)
        out = []
        try:
            while True:
                msg = await sub.next_msg(timeout=1.0)
                out.append((msg.subject, json.loads(msg.data), msg.headers.get("Nats-Msg-Id")))
        except nats.errors.TimeoutError:
            pass
        await sub.unsubscribe()
        return out
    finally:
        await nc.close()


async def test_events_reach_jetstream_in_order_once_and_subscribers_filter(scale_app, nats_server):
    app = scale_app
    mine, everyone = [], []
    await app.bus.listen()  # what an API process has from its start
    unsub_all = app.bus.subscribe(_collect(everyone))
    a = await app.engine.create(NewWander(seed_concept="coral reef", max_steps=10, random_seed=1))
    unsub_one = app.bus.subscribe(_collect(mine), session_id=a.id)
    b = await app.engine.create(NewWander(seed_concept="desert", max_steps=10, random_seed=2))
    await take_steps(app, a.id, 3)
    await take_steps(app, b.id, 2)
    last_a = (await app.store.get_session(a.id)).event_seq
    last_b = (await app.store.get_session(b.id)).event_seq
    outbox = PostgresOutbox(app.db)
    await eventually(lambda: _zero(outbox.unpublished_count()), 30, "the outbox to drain")
    await eventually(lambda: _now(len([e for e in everyone if e.session_id == b.id]) >= last_b), 30, "live events")
    await eventually(lambda: _now(len([e for e in everyone if e.session_id == a.id]) >= last_a), 30, "live events")
    unsub_one()
    unsub_all()
    # Each event once, in seq order; the per-session subscriber sees only its session
    # (from whatever it was registered in time for: the relay publishes asynchronously).
    assert {e.session_id for e in mine} == {a.id}
    assert [e.seq for e in mine] == list(range(mine[0].seq, last_a + 1))
    assert [e.seq for e in everyone if e.session_id == a.id] == list(range(1, last_a + 1))
    assert [e.seq for e in everyone if e.session_id == b.id] == list(range(1, last_b + 1))

    stored = await stream_messages(nats_server.url, a.id)
    assert [m[1]["seq"] for m in stored] == list(range(1, last_a + 1))
    assert all(m[0] == subjects.event_subject(m[1]["subject"], a.id) for m in stored)
    assert [m[2] for m in stored] == [f"{a.id}:{s}" for s in range(1, last_a + 1)]
    assert {m[1]["subject"] for m in stored} >= {"wander.session.created", "wander.step.completed"}

    # A crash between publishing and marking: everything is published again, and JetStream
    # keeps one message per (session, seq).
    async with app.db.begin() as conn:
        await conn.execute(text("UPDATE wander_events SET published_at = NULL WHERE session_id = :s"), {"s": a.id})
    app.scale.relay.kick()
    await eventually(lambda: _zero(outbox.unpublished_count()), 30, "the re-publish")
    assert [m[1]["seq"] for m in await stream_messages(nats_server.url, a.id)] == list(range(1, last_a + 1))


async def test_events_committed_while_nats_is_away_are_published_when_it_returns(scale_app, nats_server):
    app = scale_app
    s = await app.engine.create(NewWander(seed_concept="orchard", max_steps=10, random_seed=4))
    outbox = PostgresOutbox(app.db)
    await eventually(lambda: _zero(outbox.unpublished_count()), 30, "the first events")
    nats_server.stop()
    await eventually(lambda: _now(not app.scale.client.is_connected), 30, "the disconnect")
    await take_steps(app, s.id, 3)  # the engine does not wait for NATS
    waiting = await outbox.unpublished_count(s.id)
    assert waiting > 0
    await asyncio.sleep(1.5)
    assert await outbox.unpublished_count(s.id) == waiting  # nothing vanished, nothing marked
    nats_server.start()
    await eventually(lambda: _zero(outbox.unpublished_count()), 60, "the outbox to drain after the outage")
    last = (await app.store.get_session(s.id)).event_seq
    assert [m[1]["seq"] for m in await stream_messages(nats_server.url, s.id)] == list(range(1, last + 1))


def _collect(into: list):
    async def handler(e):
        into.append(e)

    return handler


async def _zero(coro) -> bool:
    return (await coro) == 0


async def _now(value):
    return value
