"""Per-test databases copied from the template ahead of need, on a thread.

A copy of the template (the embedded corpus, ~66 MB) takes about half a second, and a drop
a little more; a test that waited for both paid it on the critical path, several hundred
times a suite. The pool keeps one copy ready while the current test runs and drops used
ones in between, so the test only waits when the copy is not ready yet.

One thread does all of it over one server connection (asyncpg, on the thread's own event
loop): no process per copy. A psql run per copy was a shell and a psql process each, and
one failed exec of /bin/sh under a loaded CI machine stopped the pool and failed every later
database test (20 errors); a lost connection is now opened again and the statement retried."""

from __future__ import annotations

import asyncio
import itertools
import os
import queue
import threading
from typing import Any

import asyncpg
from tenacity import Retrying, retry_if_exception, retry_if_exception_type, stop_after_attempt, wait_exponential

from wander.adapters.postgres.leases import is_transient_db_error

# CREATE DATABASE refuses while another session reads the template (the knowledge index
# loads from it once per worker): wait and try again, for up to half a minute.
_TEMPLATE_BUSY = Retrying(
    retry=retry_if_exception_type(asyncpg.ObjectInUseError),
    wait=wait_exponential(multiplier=0.1, max=1),
    stop=stop_after_attempt(60),
    reraise=True,
)
# A connection lost or refused (a busy machine, a backend that ended): open a new one.
_RECONNECT = Retrying(
    retry=retry_if_exception(is_transient_db_error),
    wait=wait_exponential(multiplier=0.2, max=4),
    stop=stop_after_attempt(8),
    reraise=True,
)


class DatabasePool:
    def __init__(self, server: Any, template: str, ahead: int = 1) -> None:
        self._url = server.get_uri("postgres")
        self._template = template
        self._ready: queue.Queue[str] = queue.Queue(maxsize=ahead)
        self._used: queue.SimpleQueue[str] = queue.SimpleQueue()
        self._names = (f"wander_t{os.getpid()}_{i}" for i in itertools.count())
        self._closing = threading.Event()
        self._error: BaseException | None = None
        self._conn: asyncpg.Connection | None = None
        self.application_name = f"wander-test-pool-{os.getpid()}-{id(self)}"  # its server sessions
        self._filler = threading.Thread(target=self._run, name="db-pool", daemon=True)
        self._filler.start()

    def take(self) -> str:
        """The name of a fresh copy of the template, for one test."""
        while True:
            try:
                return self._ready.get(timeout=0.5)
            except queue.Empty:
                if self._error is not None:
                    raise RuntimeError("the test database pool stopped") from self._error
                if not self._filler.is_alive():
                    raise RuntimeError("the test database pool's thread is gone") from None

    def give_back(self, name: str) -> None:
        """Drop a used copy, off the test's path."""
        self._used.put(name)

    def close(self) -> None:
        self._closing.set()
        self._filler.join(timeout=120)

    def _run(self) -> None:
        with asyncio.Runner() as runner:
            try:
                self._fill(runner)
            except BaseException as exc:  # surfaced by take()
                self._error = exc
            finally:
                self._drop_all(runner)
                if self._conn is not None:
                    runner.run(self._conn.close())

    def _fill(self, runner: asyncio.Runner) -> None:
        made: str | None = None
        while not self._closing.is_set():
            if made is None:
                made = next(self._names)
                # first drop a leftover of an earlier run whose process had this pid
                self._execute(runner, _DROP.format(name=made))
                # FILE_COPY copies the files; the default (WAL_LOG) writes every page of
                # the template through the WAL: three times the CPU for this template
                for attempt in _TEMPLATE_BUSY:
                    with attempt:
                        self._execute(runner, f"CREATE DATABASE {made} TEMPLATE {self._template} STRATEGY FILE_COPY")
            try:
                self._ready.put(made, timeout=0.2)
                made = None
            except queue.Full:
                pass
            self._drop_used(runner)
        if made is not None:
            self._used.put(made)

    def _drop_used(self, runner: asyncio.Runner) -> None:
        while True:
            try:
                name = self._used.get_nowait()
            except queue.Empty:
                return
            self._execute(runner, _DROP.format(name=name))

    def _drop_all(self, runner: asyncio.Runner) -> None:
        """At the end: the copies made and not taken, and the used ones not dropped yet."""
        while not self._ready.empty():
            self._used.put(self._ready.get_nowait())
        try:
            self._drop_used(runner)
        except Exception:  # noqa: BLE001 - the server may be gone already; the next run drops leftovers
            pass

    def _execute(self, runner: asyncio.Runner, sql: str) -> None:
        for attempt in _RECONNECT:
            with attempt:
                if self._conn is None or self._conn.is_closed():
                    self._conn = runner.run(
                        asyncpg.connect(self._url, server_settings={"application_name": self.application_name})
                    )
                try:
                    runner.run(self._conn.execute(sql))
                except Exception as exc:
                    if is_transient_db_error(exc):
                        self._conn.terminate()
                        self._conn = None
                    raise


_DROP = "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
