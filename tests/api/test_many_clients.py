"""A hundred WebSocket clients on one wander: the real app under uvicorn, real
`websockets` clients, the wander running with no delay between steps. Every client gets
every event in seq order with no gap and no duplicate, all of them the same events. Events
may follow the completion (a projection refit, say), so each client is checked to hold a
gapless run from seq 1 through the completion event, not that nothing comes after it.
Counts and order are asserted, never time."""

from __future__ import annotations

import asyncio

import httpx
import websockets
from sqlalchemy import text

from tests.api.conftest import API, create, wait_idle
from tests.api.test_ws_abuse import collector, eventually, seqs, serve
from wander.faces.api.ws import socket_stats

CLIENTS = 100
STEPS = 12
COMPLETED = "wander.session.completed"


def events(frames: list[dict]) -> list[dict]:
    return [f["event"] for f in frames if f["type"] == "event"]


def completed_seq(frames: list[dict]) -> int | None:
    return next((e["seq"] for e in events(frames) if e["subject"] == COMPLETED), None)


async def test_100_clients_each_get_every_event_in_order(db_url, tmp_path, embedder, knowledge):
    async with serve(db_url, tmp_path, embedder, knowledge) as (addr, app, wired):
        async with httpx.AsyncClient(base_url=f"http://{addr}", timeout=60) as client:
            sid = (await create(client, max_steps=STEPS, random_seed=100, human_checkpoint_frequency=0))["id"]
            url = f"ws://{addr}/ws/sessions/{sid}?after_seq=0"
            sockets = list(await asyncio.gather(*(websockets.connect(url) for _ in range(CLIENTS))))
            frames: list[list[dict]] = [[] for _ in sockets]
            readers = [asyncio.create_task(collector(ws, into)) for ws, into in zip(sockets, frames)]
            try:
                stats = socket_stats(app)
                await eventually(lambda: stats.open == CLIENTS, f"{CLIENTS} sockets open")
                await eventually(lambda: stats.subscribed == CLIENTS, f"{CLIENTS} sockets subscribed")
                r = await client.post(f"{API}/{sid}/wander", json={"n_steps": STEPS})  # step_delay_ms 0
                assert r.status_code < 300, r.text
                session = await wait_idle(client, sid, timeout=600)
                await eventually(
                    lambda: all(completed_seq(f) is not None for f in frames),
                    "every client got the completion event",
                    timeout=120,
                )
            finally:
                for reader in readers:
                    reader.cancel()
                await asyncio.gather(*readers, return_exceptions=True)
                await asyncio.gather(*(ws.close() for ws in sockets))
            assert session["step_count"] == STEPS and session["status"] == "completed"
            done = completed_seq(frames[0])
            assert done is not None and done <= session["last_event_seq"]
            # What the wander wrote up to its completion, as the store's event log has it.
            async with wired.db.connect() as conn:
                rows = await conn.execute(
                    text(
                        "SELECT seq, subject FROM wander_events WHERE session_id = :sid AND seq <= :done ORDER BY seq"
                    ),
                    {"sid": sid, "done": done},
                )
                expected = [(r[0], r[1]) for r in rows.all()]
        assert [s for s, _ in expected] == list(range(1, done + 1))
        assert sum(1 for _, subject in expected if subject == "wander.step.completed") == STEPS
        for i, got in enumerate(frames):
            got_seqs = seqs(got)
            # In order, no gap, no duplicate: exactly 1, 2, ... (whatever came after the completion).
            assert got_seqs == list(range(1, len(got_seqs) + 1)), f"client {i}: {got_seqs}"
            assert completed_seq(got) == done, f"client {i} saw the completion at another seq"
            assert [(e["seq"], e["subject"]) for e in events(got) if e["seq"] <= done] == expected, f"client {i}"
        assert stats.dropped_slow == 0
        print(f"{CLIENTS} clients x {done} events through the completion, {stats.accepted} sockets accepted")
