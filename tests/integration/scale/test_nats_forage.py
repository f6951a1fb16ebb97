"""SANDWICH forage events on a real nats-server: a foraging run's events (sandwich.*) reach
JetStream as wander.forage.<run_id>.<event>, in seq order, once per (run, seq) even when
published twice, and come back to every process's subscribers through the NATS bus, the
same events as the run's own outbox (forage_events)."""

from __future__ import annotations

import asyncio
import json

import nats

from tests.integration.scale.conftest import eventually
from wander.adapters.bus import subjects
from wander.bootstrap.foraging import make_forager
from wander.core.sandwich.model import SUBJECTS


async def run_messages(url: str, run_id: str) -> list[tuple[str, dict, str]]:
    nc = await nats.connect(url)
    try:
        sub = await nc.jetstream().subscribe(f"wander.forage.{run_id}.>", ordered_consumer=True)
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


async def test_forage_events_travel_on_nats(scale_app, nats_server):
    app = scale_app
    await app.bus.listen()
    assert await app.scale.client.wait_connected(30)
    heard = []

    async def collect(e):
        heard.append(e)

    unsubscribe = app.bus.subscribe(collect)
    summary = await make_forager(app, seed=7).run(patience=2, max_attempts=6)
    stored = await app.sandwiches.events_after(summary.run_id)
    assert [e.seq for e in stored] == list(range(1, len(stored) + 1)) and len(
        stored
    ) == summary.attempts + summary.made + 2

    async def all_heard():
        return len([e for e in heard if e.session_id == summary.run_id]) >= len(stored)

    await eventually(all_heard, 30, "the run's events back from NATS")
    unsubscribe()
    mine = [e for e in heard if e.session_id == summary.run_id]
    assert [(e.seq, e.subject, e.payload) for e in mine] == [(e.seq, e.subject, e.payload) for e in stored]
    assert mine[0].subject == SUBJECTS[0] and mine[-1].subject == SUBJECTS[3]

    in_stream = await run_messages(nats_server.url, summary.run_id)
    assert [m[1]["seq"] for m in in_stream] == [e.seq for e in stored]
    assert [m[0] for m in in_stream] == [subjects.event_subject(e.subject, summary.run_id) for e in stored]
    assert in_stream[0][0] == f"wander.forage.{summary.run_id}.forage.started"
    assert [m[2] for m in in_stream] == [f"forage:{summary.run_id}:{e.seq}" for e in stored]
    assert all(subjects.parse_event_subject(m[0]) == (summary.run_id, m[1]["subject"]) for m in in_stream)

    # Published again (a retry): JetStream keeps one message per (run, seq).
    await app.bus.publish(stored)
    await asyncio.sleep(0.5)
    assert [m[1]["seq"] for m in await run_messages(nats_server.url, summary.run_id)] == [e.seq for e in stored]
