"""What a server does once at start so that the first step need not: load the CA kernel's
machine code (compiled on a machine's first start, 10-20 s of CPU) and the corpus's
per-domain neighbourhoods (computed once per cache folder, a few seconds). It runs in a
background thread while the server already answers; `current` says what it is doing now
(the health endpoint carries it and the page shows it). A step that needs either part
meanwhile waits for it (each is computed once, under a lock), never does it twice.

START is the logger of a start's phases; `wander serve` prints it whatever the log level."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from wander.adapters.ca.kernel import fused_available
from wander.adapters.ca.kernel.fused import defer_loading
from wander.adapters.kb import reach_cache

START = logging.getLogger("wander.start")
log = logging.getLogger(__name__)


@contextmanager
def phase(what: str) -> Iterator[None]:
    """Say in the start log what is being done, then how long it took."""
    START.info("%s ...", what)
    t = time.perf_counter()
    yield
    START.info("%s: done in %.1f s", what, time.perf_counter() - t)


class Warmup:
    def __init__(self) -> None:
        self._running: dict[str, None] = {}  # in start order
        self._lock = threading.Lock()
        self._done = threading.Event()

    @property
    def current(self) -> str | None:
        """What the server is preparing now; None once it is ready."""
        with self._lock:
            return "; ".join(self._running) or None

    def start(self, knowledge: Any, cache_dir: Path | None) -> None:
        """Each part in a thread of its own (the kernel's compiler holds the GIL, the matrix
        products do not), started at once."""
        jobs: list[tuple[str, Callable[[], Any]]] = [
            ("loading the CA kernel (compiled on this machine's first start)", _ca_kernel)
        ]
        if knowledge.domain_reach_table() is None:
            jobs.append(("computing the corpus's domain neighbourhoods (once)", lambda: _reach(knowledge, cache_dir)))
        with self._lock:
            self._running = dict.fromkeys(what for what, _ in jobs)
        for what, job in jobs:
            threading.Thread(target=self._run, args=(what, job), name="wander-warmup", daemon=True).start()

    def _run(self, what: str, job: Callable[[], Any]) -> None:
        try:
            with phase(what):
                job()
        except Exception:  # a step does the same work itself and reports its own error
            log.exception("warm-up: %s failed", what)
        finally:
            with self._lock:
                self._running.pop(what, None)
                last = not self._running
            if last:
                START.info("ready: a first step starts at once")
                self._done.set()

    def wait(self, timeout: float | None = None) -> bool:
        return self._done.wait(timeout)


def defer_ca_kernel() -> None:
    """For a process that may be short-lived (a `wander` command): the CA kernel's numba
    passes load only once its CA work pays for loading them (the NumPy passes give the same
    results meanwhile); a 6-step run never needs them. A server's warm-up still loads them
    at start."""
    defer_loading()


def _ca_kernel() -> None:
    fused_available()


def _reach(knowledge: Any, cache_dir: Path | None) -> None:
    knowledge.prepare_domain_reach()
    if cache_dir is not None:
        reach_cache.keep(knowledge, cache_dir)
