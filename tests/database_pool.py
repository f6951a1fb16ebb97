"""Per-test databases copied from the template ahead of need, on a thread.

A copy of the template (the embedded corpus, ~66 MB) takes about half a second, and a drop
a little more; a test that waited for both paid it on the critical path, several hundred
times a suite. The pool keeps one copy ready while the current test runs and drops used
ones in the background, so the test only waits when the copy is not ready yet."""

from __future__ import annotations

import itertools
import os
import queue
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any


class DatabasePool:
    def __init__(self, server: Any, template: str, ahead: int = 1) -> None:
        self._server = server
        self._template = template
        self._ready: queue.Queue[str] = queue.Queue(maxsize=ahead)
        self._names = (f"wander_t{os.getpid()}_{i}" for i in itertools.count())
        self._closing = threading.Event()
        self._dropper = ThreadPoolExecutor(1, thread_name_prefix="db-drop")
        self._error: BaseException | None = None
        self._filler = threading.Thread(target=self._fill, name="db-fill", daemon=True)
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
        self._dropper.submit(self._drop, name)

    def close(self) -> None:
        self._closing.set()
        self._filler.join(timeout=60)
        while not self._ready.empty():
            self._drop(self._ready.get_nowait())
        self._dropper.shutdown(wait=True)

    def _fill(self) -> None:
        try:
            while not self._closing.is_set():
                name = next(self._names)
                self._create(name)
                while not self._closing.is_set():
                    try:
                        self._ready.put(name, timeout=0.2)
                        break
                    except queue.Full:
                        continue
                else:
                    self._drop(name)
        except BaseException as exc:  # surfaced by take()
            self._error = exc

    def _create(self, name: str) -> None:
        # CREATE DATABASE refuses while another session reads the template (the knowledge
        # index loads from it once per worker); psql reports that on stdout, so retry.
        for _ in range(60):
            # One psql run (each is a process, a shell and a server backend): first drop a
            # leftover of an earlier run whose process had this pid. FILE_COPY copies the
            # files; the default (WAL_LOG) writes every page of the template through the
            # WAL: three times the CPU for this 66 MB template
            out = self._server.psql(
                f"{_DROP.format(name=name)} CREATE DATABASE {name} TEMPLATE {self._template} STRATEGY FILE_COPY;"
            )
            if "CREATE DATABASE" in out:
                return
            time.sleep(0.5)
        raise RuntimeError(f"could not copy the template database into {name}")

    def _drop(self, name: str) -> None:
        self._server.psql(_DROP.format(name=name))


_DROP = "SET client_min_messages = warning; DROP DATABASE IF EXISTS {name} WITH (FORCE);"
