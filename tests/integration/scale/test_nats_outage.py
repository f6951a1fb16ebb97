"""NATS stops during a running wander and comes back: the worker keeps stepping (events
wait in the outbox), the relay publishes them afterwards, and a browser's WebSocket on an
API process over NATS ends with every event exactly once, in seq order."""

from __future__ import annotations

import asyncio
import json

import httpx
import websockets

from tests.api.conftest import API, start_server
from tests.integration.scale.conftest import eventually
from wander.adapters.postgres.outbox import PostgresOutbox
from wander.faces.api.app import ApiSettings


async def test_wander_survives_a_nats_outage_and_the_socket_sees_every_event_once(
    scale_app, nats_server, worker_env, spawn_worker, db_url
):
    worker_env["WANDER_DATABASE_URL"] = db_url
    worker_env["WANDER_NATS_URL"] = nats_server.url
    worker = spawn_worker(worker_env, "w-outage")
    server, task, addr = await start_server(scale_app, ApiSettings(heartbeat_s=0.5, resume_interrupted=False))
    outbox = PostgresOutbox(scale_app.db)
    frames: list[dict] = []
    try:
        await worker.wait_ready()
        async with httpx.AsyncClient(base_url=f"http://{addr}", timeout=30) as client:
            r = await client.post(
                API, json={"seed_concept": "information asymmetry", "max_steps": 30, "random_seed": 5}
            )
            assert r.status_code == 201, r.text
            sid = r.json()["id"]

            async with websockets.connect(f"ws://{addr}/ws/sessions/{sid}?after_seq=0") as ws:

                async def reader():
                    while True:
                        frames.append(json.loads(await ws.recv()))

                reading = asyncio.create_task(reader())
                # Paced (the API's step_delay_ms, carried in the run request): still running when NATS goes.
                r = await client.post(f"{API}/{sid}/wander", json={"n_steps": 30, "step_delay_ms": 150})
                assert r.status_code == 202, r.text

                async def steps() -> int:
                    return (await scale_app.store.get_session(sid)).step_count

                await eventually(lambda: _at_least(steps, 4), 180, "the worker to take 4 steps")
                nats_server.stop()
                down_at = await steps()
                # NATS is away: the worker goes on, and its events wait in the outbox.
                await eventually(lambda: _at_least(steps, down_at + 3), 120, "steps while NATS is down")
                assert await outbox.unpublished_count(sid) > 0
                assert worker.alive()
                nats_server.start()

                async def finished():
                    s = await scale_app.store.get_session(sid)
                    return s if s.status == "completed" else None

                session = await eventually(finished, 240, "the wander to complete")
                last = session.event_seq
                await eventually(lambda: _async(lambda: last in _seqs(frames)), 60, "the last event on the socket")
                await eventually(lambda: _is_zero(outbox.unpublished_count(sid)), 60, "the outbox to drain")
                reading.cancel()
    finally:
        server.should_exit = True
        await task
    seqs = _seqs(frames)
    # Every event up to the last step's, once and in order; the archivist's refit on completion
    # may append wander.projection.updated after that, and it arrives in order too.
    assert seqs == list(range(1, len(seqs) + 1)), f"gaps or duplicates: {seqs}"
    assert seqs[-1] >= last
    subjects = [f["event"]["subject"] for f in frames if f["type"] == "event"]
    assert subjects.count("wander.step.completed") == 30
    assert scale_app.bus.received > 0  # live events really came over NATS
    assert worker.alive()


def _seqs(frames: list[dict]) -> list[int]:
    return [f["event"]["seq"] for f in frames if f["type"] == "event"]


async def _at_least(get, n: int) -> bool:
    return (await get()) >= n


async def _async(fn):
    return fn()


async def _is_zero(coro) -> bool:
    return (await coro) == 0
