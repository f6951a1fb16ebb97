"""Per-session run leases for `wander worker` processes: Postgres session-level advisory
locks held on one dedicated connection per worker.

Why advisory locks and not a lease row with an expiry: the lock lives exactly as long as
the worker's connection. A worker killed (kill -9, OOM, a lost machine once TCP keepalive
gives up) loses its connection, and Postgres releases the lock at once: no expiry to wait
out, no clock to trust, no heartbeat writes, no table. Another worker that gets the
redelivered run request takes the lock and resumes from the last committed step.

- ``acquire(session_id)``: ``pg_try_advisory_lock(LEASE_CLASS, key(session))``; False if
  another worker holds it (the caller naks the run request for later).
- ``verify(session_id)``: before every step's commit (``FencedStore``) the worker checks in
  pg_locks that its lease connection still holds the lock. When the connection died
  (Postgres restarted, network cut), it reconnects and tries to take its leases back; a
  lease someone else took meanwhile is lost, and the step is not committed (LeaseLost, a
  Conflict, ends the engine's run loop cleanly).
- ``release(session_id)``: ``pg_advisory_unlock``; closing the manager releases them all.

Needs a direct (or session-pooled) connection: a transaction-pooling PgBouncer would hand
the lock to whichever client uses that server connection next.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import Any

import asyncpg
from sqlalchemy import exc as sa_exc
from tenacity import AsyncRetrying, retry_if_exception, stop_after_attempt

from wander.core.domain.errors import Conflict

log = logging.getLogger(__name__)
LEASE_CLASS = 0x574B5253  # 'WKRS': the worker-lease advisory lock namespace (positive int4)


# What a lease connection the server dropped raises under a query. InternalClientError
# ("another operation is in progress") is what asyncpg raises on a connection the server
# has just terminated mid-query: it is replaced like a dead one.
_DEAD_CONNECTION = (
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,
    OSError,
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.CannotConnectNowError,
    asyncpg.exceptions.InternalClientError,
)


class LeaseLost(Conflict):
    """This worker no longer holds the session's lease: another worker runs it now."""


def lease_key(session_id: str) -> int:
    """A stable non-negative int4 of the session id (so pg_locks.objid shows it as is)."""
    return int.from_bytes(uuid.UUID(session_id).bytes[:4], "big") & 0x7FFFFFFF


def libpq_url(url: str) -> str:
    """asyncpg takes postgresql:// URLs; SQLAlchemy's +asyncpg form is accepted too."""
    scheme, rest = url.split("://", 1)
    return "postgresql://" + rest if scheme.startswith("postgres") else url


class LeaseManager:
    def __init__(self, url: str, *, name: str = "wander-worker", connect_timeout: float = 5.0) -> None:
        self.url = libpq_url(url)
        self.name = name
        self.connect_timeout = connect_timeout
        self._conn: asyncpg.Connection | None = None
        self._lock = asyncio.Lock()
        self._held: set[str] = set()
        self._lost: set[str] = set()

    @property
    def held(self) -> set[str]:
        return set(self._held)

    async def _connect(self) -> asyncpg.Connection:
        return await asyncpg.connect(
            self.url,
            timeout=self.connect_timeout,
            command_timeout=self.connect_timeout,
            server_settings={
                "application_name": self.name[:63],
                "tcp_keepalives_idle": "10",
                "tcp_keepalives_interval": "5",
                "tcp_keepalives_count": "3",
            },
        )

    async def _connection(self) -> asyncpg.Connection:
        """The lease connection; a new one (taking the held leases back) if it died."""
        if self._conn is not None and not self._conn.is_closed():
            return self._conn
        if self._conn is not None:
            log.warning("lease connection lost; reconnecting and taking leases back")
        self._conn = None
        conn = await self._connect()
        for sid in sorted(self._held):
            if not await conn.fetchval("SELECT pg_try_advisory_lock($1, $2)", LEASE_CLASS, lease_key(sid)):
                log.warning("lease of %s was taken by another worker while our connection was down", sid)
                self._held.discard(sid)
                self._lost.add(sid)
        self._conn = conn
        return conn

    async def _run(self, query: str, *args: Any) -> Any:
        """One query on the lease connection; a connection that dies under the query is
        dropped and the query tried once more on a new one (tenacity). A failure to connect
        is raised as it is."""
        in_query = False

        async def once() -> Any:
            nonlocal in_query
            in_query = False
            conn = await self._connection()
            in_query = True
            try:
                return await conn.fetchval(query, *args)
            except _DEAD_CONNECTION:
                await self._drop()
                raise

        retrying = AsyncRetrying(
            retry=retry_if_exception(lambda exc: in_query and isinstance(exc, _DEAD_CONNECTION)),
            stop=stop_after_attempt(2),
            reraise=True,
        )
        return await retrying(once)

    async def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.terminate()
            except Exception:
                pass

    async def acquire(self, session_id: str) -> bool:
        async with self._lock:
            if session_id in self._held:
                return True
            self._lost.discard(session_id)
            got = await self._run("SELECT pg_try_advisory_lock($1, $2)", LEASE_CLASS, lease_key(session_id))
            if got:
                self._held.add(session_id)
            return bool(got)

    async def verify(self, session_id: str) -> bool:
        """True while this worker holds the session's lease (checked in pg_locks)."""
        async with self._lock:
            if session_id not in self._held:
                return False
            n = await self._run(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid = pg_backend_pid()"
                " AND classid = $1::int8::oid AND objid = $2::int8::oid AND objsubid = 2",
                LEASE_CLASS,
                lease_key(session_id),
            )
            if session_id not in self._held:  # lost while reconnecting
                return False
            if not n:
                self._held.discard(session_id)
                self._lost.add(session_id)
                return False
            return True

    async def release(self, session_id: str) -> None:
        async with self._lock:
            if session_id not in self._held:
                return
            self._held.discard(session_id)
            if self._conn is None or self._conn.is_closed():
                return  # the lock went with the connection
            try:
                await self._conn.fetchval("SELECT pg_advisory_unlock($1, $2)", LEASE_CLASS, lease_key(session_id))
            except Exception as exc:  # a dead connection released it anyway
                log.info("lease release of %s: %s", session_id, exc)
                await self._drop()

    async def close(self) -> None:
        async with self._lock:
            self._held.clear()
            if self._conn is not None and not self._conn.is_closed():
                try:
                    await asyncio.wait_for(self._conn.close(), timeout=3)
                except Exception:
                    await self._drop()
            self._conn = None


class FencedStore:
    """The Store port for a worker: a step commits only while this worker holds the
    session's lease; everything else passes straight through to the store."""

    def __init__(self, store: Any, leases: LeaseManager) -> None:
        self._store = store
        self._leases = leases

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def commit_step(self, commit: Any) -> Any:
        sid = commit.session.id
        if not await self._leases.verify(sid):
            raise LeaseLost(f"worker lease of session {sid} lost; another worker runs it")
        return await self._store.commit_step(commit)


_TRANSIENT_PG = (
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.CannotConnectNowError,
    asyncpg.exceptions.CrashShutdownError,
)


def is_transient_db_error(exc: BaseException) -> bool:
    """A lost or refused database connection (a restart, a network cut), as opposed to a
    bug or bad data: retrying after a pause is the right answer."""
    seen = 0
    cur: BaseException | None = exc
    while cur is not None and seen < 10:
        if isinstance(cur, (OSError, ConnectionError, TimeoutError, *_TRANSIENT_PG)):
            return True
        if isinstance(cur, sa_exc.DBAPIError) and (
            cur.connection_invalidated or isinstance(cur.orig, (OSError, *_TRANSIENT_PG))
        ):
            return True
        if isinstance(cur, (sa_exc.DisconnectionError, sa_exc.InterfaceError)):
            return True
        orig = getattr(cur, "orig", None)
        cur = orig if isinstance(orig, BaseException) and orig is not cur else (cur.__cause__ or cur.__context__)
        seen += 1
    return False
