"""The pool's liveness check (store/database.py): instead of SQLAlchemy's pre-ping on every
checkout, a connection the server closed is replaced, and one idle for a while is pinged
first; a busy connection is reused as it is."""

from __future__ import annotations

import asyncio

import asyncpg
from sqlalchemy import text
from sqlalchemy.dialects.postgresql.asyncpg import AsyncAdapt_asyncpg_connection

from wander.adapters.postgres import database
from wander.adapters.postgres.database import make_engine


async def _backend_pid(engine) -> int:
    async with engine.connect() as conn:
        return (await conn.execute(text("SELECT pg_backend_pid()"))).scalar_one()


async def test_a_connection_the_server_closed_is_replaced_at_checkout(db_url):
    engine = make_engine(db_url, pool_size=1)
    try:
        first = await _backend_pid(engine)
        assert await _backend_pid(engine) == first  # a busy connection comes back as it was
        killer = await asyncpg.connect(db_url)
        try:
            assert await killer.fetchval("SELECT pg_terminate_backend($1)", first)
            while await killer.fetchval("SELECT count(*) FROM pg_stat_activity WHERE pid = $1", first):
                await asyncio.sleep(0.02)
        finally:
            await killer.close()
        await asyncio.sleep(0.1)  # the event loop reads the server's goodbye on the idle socket
        # Without the check the next statement would fail on the dead connection.
        assert await _backend_pid(engine) != first
    finally:
        await engine.dispose()


async def test_a_connection_idle_past_the_limit_is_pinged_and_replaced_when_the_ping_fails(db_url, monkeypatch):
    engine = make_engine(db_url, pool_size=1)
    try:
        first = await _backend_pid(engine)
        pings: list[str] = []

        def failing_ping(self) -> None:
            pings.append("ping")
            raise ConnectionResetError("gone")

        monkeypatch.setattr(AsyncAdapt_asyncpg_connection, "ping", failing_ping)
        monkeypatch.setattr(database, "PING_AFTER_IDLE_S", 0.0)
        await asyncio.sleep(0.01)
        assert await _backend_pid(engine) != first  # the ping failed: a fresh connection
        assert pings == ["ping"]
    finally:
        await engine.dispose()
