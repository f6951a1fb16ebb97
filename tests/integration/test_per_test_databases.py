"""The per-test database pool (tests/database_pool.py) survives a lost server connection:
one failure on its thread used to stop it and fail every later database test of a worker."""

from __future__ import annotations

import asyncio

import asyncpg

from tests.database_pool import DatabasePool


async def _exists(admin: asyncpg.Connection, name: str) -> bool:
    return bool(await admin.fetchval("SELECT count(*) FROM pg_database WHERE datname = $1", name))


async def test_the_pool_opens_a_new_connection_when_the_server_ends_its_own(pg_server, template_db):
    pool = DatabasePool(pg_server, template_db)
    admin = await asyncpg.connect(pg_server.get_uri("postgres"))
    try:
        first = await asyncio.to_thread(pool.take)
        assert await _exists(admin, first)
        pool.give_back(first)
        ended = 0
        while not ended:  # the pool's thread has connected by now; end its session
            ended = await admin.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = $1",
                pool.application_name,
            )
            await asyncio.sleep(0.05)
        second = await asyncio.to_thread(pool.take)
        third = await asyncio.to_thread(pool.take)  # made after the loss, on a new connection
        assert len({first, second, third}) == 3
        assert await _exists(admin, third)
        conn = await asyncpg.connect(pg_server.get_uri(third))  # a usable copy of the template
        try:
            assert await conn.fetchval("SELECT count(*) FROM alembic_version") == 1
        finally:
            await conn.close()
        for name in (second, third):
            pool.give_back(name)
        await asyncio.to_thread(pool.close)
        for name in (first, second, third):
            assert not await _exists(admin, name), f"{name} was not dropped"
    finally:
        await admin.close()
