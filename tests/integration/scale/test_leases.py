"""Worker leases on real Postgres: one holder per session, released with the connection
(a killed process, a terminated backend), taken back after a reconnect when nobody else
took it, and a step refused once the lease is lost."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import uuid
from types import SimpleNamespace

import asyncpg
import pytest

from tests.integration.scale.conftest import eventually
from wander.adapters.postgres.leases import FencedStore, LeaseLost, LeaseManager, is_transient_db_error, libpq_url


def sid() -> str:
    return str(uuid.uuid4())


async def terminate(db_url: str, name: str) -> None:
    conn = await asyncpg.connect(libpq_url(db_url))
    try:
        await conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", name)
    finally:
        await conn.close()


async def test_one_holder_per_session(db_url):
    a, b = LeaseManager(db_url, name="lease-a"), LeaseManager(db_url, name="lease-b")
    s1, s2 = sid(), sid()
    try:
        assert await a.acquire(s1)
        assert await a.acquire(s1)  # re-entrant for its holder
        assert not await b.acquire(s1)
        assert await b.acquire(s2)
        assert await a.verify(s1) and not await a.verify(s2)
        await a.release(s1)
        assert not await a.verify(s1)
        assert await b.acquire(s1)
    finally:
        await a.close()
        await b.close()


async def test_a_dead_connection_gives_the_lease_back_or_loses_it(db_url):
    a, b = LeaseManager(db_url, name="lease-c"), LeaseManager(db_url, name="lease-d")
    s = sid()
    try:
        assert await a.acquire(s)
        await terminate(db_url, "lease-c")
        assert await a.verify(s)  # reconnected, and nobody had taken it: still ours
        await terminate(db_url, "lease-c")
        assert await eventually(lambda: b.acquire(s), 10, "the lease to be free")
        assert not await a.verify(s)  # taken meanwhile: lost for good
        assert not await a.verify(s)
        fenced = FencedStore(SimpleNamespace(commit_step=None), a)
        with pytest.raises(LeaseLost):
            await fenced.commit_step(SimpleNamespace(session=SimpleNamespace(id=s)))
    finally:
        await a.close()
        await b.close()


async def test_a_killed_process_loses_its_lease(db_url):
    s = sid()
    code = (
        "import asyncio, sys\n"
        "from wander.adapters.postgres.leases import LeaseManager\n"
        "async def main():\n"
        f"    m = LeaseManager({db_url!r})\n"
        f"    assert await m.acquire({s!r})\n"
        "    print('held', flush=True)\n"
        "    await asyncio.sleep(600)\n"
        "asyncio.run(main())\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    b = LeaseManager(db_url, name="lease-e")
    try:
        line = await asyncio.wait_for(asyncio.to_thread(proc.stdout.readline), 60)
        assert line.strip() == "held"
        assert not await b.acquire(s)
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
        assert await eventually(lambda: b.acquire(s), 30, "the killed holder's lease to be released")
    finally:
        if proc.poll() is None:
            proc.kill()
        await b.close()


def test_transient_errors_are_told_from_bugs():
    assert is_transient_db_error(ConnectionRefusedError())
    assert is_transient_db_error(asyncpg.exceptions.AdminShutdownError("shutting down"))
    try:
        try:
            raise OSError("socket gone")
        except OSError as inner:
            raise RuntimeError("wrapped") from inner
    except RuntimeError as exc:
        assert is_transient_db_error(exc)
    assert not is_transient_db_error(ValueError("bad data"))
    assert not is_transient_db_error(AssertionError())


async def test_the_engine_of_a_worker_commits_steps_only_under_its_lease(settings, embedder, knowledge, db_url):
    from wander.bootstrap.wiring import open_app
    from wander.core.engine.service import NewWander

    leases = LeaseManager(db_url, name="lease-engine")
    other = LeaseManager(db_url, name="lease-other")
    try:
        async with open_app(
            settings, embedder=embedder, knowledge=knowledge, wrap_store=lambda store: FencedStore(store, leases)
        ) as app:
            app.engine.worker_id = "w-fenced"
            s = await app.engine.create(NewWander(seed_concept="tide", max_steps=6, random_seed=2))
            assert await other.acquire(s.id)
            out = await app.engine.run(s.id, 3)  # another worker holds it: nothing is committed
            assert out.steps_completed == 0 and await app.store.step_numbers(s.id) == []
            await other.release(s.id)
            assert await leases.acquire(s.id)
            out = await app.engine.run(s.id, 3)
            assert out.steps_completed == 3
            rows = await app.store.trace(s.id)
            assert [r.worker_id for r in rows] == ["w-fenced"] * 3
    finally:
        await leases.close()
        await other.close()
