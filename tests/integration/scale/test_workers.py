"""`wander worker` processes pulling runs from JetStream: a worker killed mid-wander is
replaced by another that resumes from the last committed step, and no session is ever
stepped by two workers at once."""

from __future__ import annotations

import asyncio
import itertools
import signal

from tests.integration.scale.conftest import eventually, traces
from wander.adapters.postgres.outbox import PostgresOutbox
from wander.bootstrap.wiring import make_runner
from wander.core.engine.service import NewWander


async def _completed(app, sid: str):
    s = await app.store.get_session(sid)
    return s if s.status == "completed" else None


def assert_no_interleaving(rows: list[tuple[int, str, object]]) -> list[str]:
    """Per session, the worker ids in step order form contiguous runs, and each run ends
    (in time) before the next begins; returns the workers in order."""
    assert [r[0] for r in rows] == list(range(1, len(rows) + 1)), f"steps not gapless: {[r[0] for r in rows]}"
    assert all(r[1] for r in rows), "a step without a worker id"
    blocks = [(wid, list(grp)) for wid, grp in itertools.groupby(rows, key=lambda r: r[1])]
    order = [wid for wid, _ in blocks]
    assert len(order) == len(set(order)), f"a worker came back after another took over: {order}"
    times = [r[2] for r in rows]
    assert times == sorted(times), "steps committed out of order in time"
    for (_, a), (_, b) in zip(blocks, blocks[1:]):
        assert max(r[2] for r in a) < min(r[2] for r in b), "two workers stepped the session at the same time"
    return order


async def test_a_killed_worker_is_replaced_and_the_trace_stays_gapless(
    scale_app, nats_server, worker_env, spawn_worker, db_url
):
    worker_env.update(WANDER_DATABASE_URL=db_url, WANDER_NATS_URL=nats_server.url)
    workers = {wid: spawn_worker(worker_env, wid) for wid in ("w-a", "w-b")}
    await asyncio.gather(*(w.wait_ready() for w in workers.values()))
    runner = make_runner(scale_app)
    session = await scale_app.engine.create(NewWander(seed_concept="tide pools", max_steps=30, random_seed=11))
    await runner.start(session.id, 30, 0.1)  # paced: the victim is mid-run when it dies

    async def running_worker():
        rows = await traces(scale_app.db, session.id)
        return rows[-1][1] if len(rows) >= 5 else None

    victim = await eventually(running_worker, 180, "5 steps")
    workers[victim].kill(signal.SIGKILL)
    survivor = next(w for w in workers if w != victim)

    done = await eventually(lambda: _completed(scale_app, session.id), 240, "the survivor to finish the wander")
    assert done.step_count == 30
    rows = await traces(scale_app.db, session.id)
    order = assert_no_interleaving(rows)
    assert order == [victim, survivor], order
    assert workers[survivor].alive()
    # Every event of the session was published, the killed worker's last ones included.
    outbox = PostgresOutbox(scale_app.db)
    await eventually(lambda: _zero(outbox.unpublished_count(session.id)), 60, "the outbox to drain")


async def test_two_workers_ten_wanders_never_step_a_session_at_once(
    scale_app, nats_server, worker_env, spawn_worker, db_url
):
    worker_env.update(WANDER_DATABASE_URL=db_url, WANDER_NATS_URL=nats_server.url)
    workers = [spawn_worker(worker_env, wid) for wid in ("w-1", "w-2")]
    await asyncio.gather(*(w.wait_ready() for w in workers))
    runner = make_runner(scale_app)
    sids = []
    for i in range(10):
        s = await scale_app.engine.create(
            NewWander(
                seed_concept=["harbor", "lantern", "orchard", "glacier", "market"][i % 5], max_steps=6, random_seed=i
            )
        )
        await runner.start(s.id, 6)
        sids.append(s.id)
    # A duplicate request for some sessions (two API processes resuming the same crash):
    for sid in sids[:3]:
        await scale_app.run_queue.enqueue(sid, 6)

    async def all_done():
        return all([await _completed(scale_app, sid) for sid in sids])

    await eventually(all_done, 300, "ten wanders to complete", interval=0.5)
    used = set()
    for sid in sids:
        rows = await traces(scale_app.db, sid)
        assert len(rows) == 6
        used.update(assert_no_interleaving(rows))
    assert used == {"w-1", "w-2"}, f"both workers should have run wanders: {used}"
    assert all(w.alive() for w in workers)


async def _zero(coro) -> bool:
    return (await coro) == 0
