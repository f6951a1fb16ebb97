"""Postgres restarts under a running worker (a cluster of the test's own, stopped and
started with pg_ctl): the worker waits, reconnects, takes its lease back and finishes
the wander; the trace is gapless and every event gets published."""

from __future__ import annotations

import asyncio

from tests.integration.scale.conftest import eventually, traces
from wander.adapters.postgres.outbox import PostgresOutbox
from wander.bootstrap.settings import load_settings
from wander.bootstrap.wiring import make_runner, open_app
from wander.core.engine.service import NewWander


async def _tolerant(check):
    """A check that may run into the database while it is down."""
    try:
        return await check()
    except Exception:
        return None


async def test_worker_rides_out_a_postgres_restart(
    own_postgres, nats_settings, nats_server, embedder, knowledge, worker_env, spawn_worker, tmp_path
):
    url = own_postgres.uri("wander")
    settings = load_settings({"WANDER_DATABASE_URL": url, "WANDER_HOME": str(tmp_path / "home")})
    worker_env.update(WANDER_DATABASE_URL=url, WANDER_NATS_URL=nats_server.url)
    worker = spawn_worker(worker_env, "w-pg")
    async with open_app(settings, embedder=embedder, knowledge=knowledge, nats=nats_settings, role="api") as app:
        await worker.wait_ready()
        runner = make_runner(app)
        session = await app.engine.create(NewWander(seed_concept="lighthouse", max_steps=30, random_seed=3))
        await runner.start(session.id, 30, 0.1)  # paced: still running when Postgres goes

        async def steps() -> int:
            return len(await traces(app.db, session.id))

        await eventually(lambda: _at_least(steps, 4), 180, "4 steps before the restart")
        await asyncio.to_thread(own_postgres.stop)
        await asyncio.sleep(3)  # the worker's commits fail meanwhile
        assert worker.alive()
        await asyncio.to_thread(own_postgres.start)

        async def completed():
            s = await app.store.get_session(session.id)
            return s if s.status == "completed" else None

        try:
            done = await eventually(lambda: _tolerant(completed), 240, "the wander to complete after the restart")
        except AssertionError:
            raise AssertionError(f"worker log:\n{worker.text()[-4000:]}") from None
        assert done.step_count == 30
        rows = await traces(app.db, session.id)
        assert [r[0] for r in rows] == list(range(1, 31))
        assert {r[1] for r in rows} == {"w-pg"}
        assert worker.alive(), worker.text()[-3000:]
        outbox = PostgresOutbox(app.db)
        await eventually(
            lambda: _tolerant(lambda: _zero(outbox.unpublished_count(session.id))), 60, "the outbox to drain"
        )


async def _at_least(get, n: int) -> bool:
    return (await get()) >= n


async def _zero(coro) -> bool:
    return (await coro) == 0
