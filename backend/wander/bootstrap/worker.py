"""`wander worker`: pull run requests from the JetStream work queue and run them.

For each request (session id, target step) the worker takes the session's lease (a
Postgres advisory lock on its own connection, wander.adapters.postgres.leases), runs the engine up to
the target step with its worker id on every trace, releases the lease and acks. While a
run goes on it tells JetStream so (in progress) every third of the ack wait; a worker that
dies stops doing that and loses its lease with its connection, so the request comes back
after the ack wait to another worker, which resumes from the last committed step.

- lease held elsewhere: nak with a delay (the other worker finishes; the request then finds
  its target reached and is acked);
- database away (restart, network): wait and retry the run; committed steps stay done;
- NATS away: the run goes on (events wait in the outbox); acks are best effort;
- steps use the dweller WANDER_DWELLER names (the offline dweller by default);
- a run that keeps failing for another reason: nak with a delay, terminated after
  WANDER_RUN_MAX_ATTEMPTS deliveries (the run target stays in the session row, so an API
  restart re-sends it).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, wait_exponential

from wander.adapters.postgres.database import database_url
from wander.adapters.postgres.leases import FencedStore, LeaseManager, is_transient_db_error
from wander.bootstrap.scale import nats_settings
from wander.bootstrap.settings import Settings, WorkerSettingsSection, load_settings
from wander.bootstrap.wiring import open_app
from wander.core.domain.models import SessionStatus

log = logging.getLogger("wander.bootstrap.worker")


@dataclass(frozen=True)
class WorkerSettings:
    worker_id: str
    concurrency: int = 1
    max_attempts: int = 5
    busy_retry_s: float = 2.0
    health_file: Path | None = None
    threads: int = 1  # math threads (BLAS, torch) per worker: scale with processes, one per core

    @classmethod
    def from_section(cls, w: WorkerSettingsSection) -> WorkerSettings:
        """From the worker section of the settings (WANDER_WORKER_*, WANDER_RUN_MAX_ATTEMPTS)."""
        wid = w.id or f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:4]}"
        return cls(
            worker_id=wid,
            concurrency=max(1, w.concurrency),
            max_attempts=max(1, w.run_max_attempts),
            health_file=w.health_file,
            threads=max(1, w.threads),
        )


def limit_threads(n: int) -> None:
    """Cap the math libraries' thread pools. A step is CPU-bound NumPy (and torch for
    embeddings); their default pools (one thread per core, spinning while they wait) make
    several workers on one machine fight for the cores and burn CPU for nothing."""
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, str(n))  # for libraries not loaded yet
    try:
        from threadpoolctl import threadpool_limits

        threadpool_limits(n)  # for those already loaded (NumPy's BLAS)
    except ImportError:
        pass
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(n)


class Worker:
    def __init__(self, app, leases, settings: WorkerSettings, ack_wait_s: float) -> None:
        """`app` was opened with the engine writing through FencedStore(store, leases), so a
        step commits only while this worker holds the session's lease."""
        self.app = app
        self.leases = leases
        self.settings = settings
        self.ack_wait_s = ack_wait_s
        self.queue = app.run_queue
        self.store = app.store
        app.engine.worker_id = settings.worker_id  # recorded on every trace this worker writes
        self._stop = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()
        self.runs_done = 0

    def stop(self) -> None:
        self._stop.set()

    def _beat(self) -> None:
        if self.settings.health_file is not None:
            try:
                self.settings.health_file.touch()
            except OSError:
                pass

    async def serve(self) -> None:
        slots = asyncio.Semaphore(self.settings.concurrency)
        log.info("worker %s ready", self.settings.worker_id)
        while not self._stop.is_set():
            self._beat()
            await slots.acquire()
            if self._stop.is_set():
                slots.release()
                break
            delivery = await self.queue.next(timeout=2.0)
            if delivery is None:
                slots.release()
                continue
            task = asyncio.create_task(self._handle(delivery), name=f"run-{delivery.session_id}")
            self._tasks.add(task)

            def done(t: asyncio.Task[None]) -> None:
                self._tasks.discard(t)
                slots.release()

            task.add_done_callback(done)
        # Shutting down: runs in flight stop now; their requests go straight to another worker.
        for t in list(self._tasks):
            t.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _keep_alive(self, delivery) -> None:
        while True:
            await asyncio.sleep(max(0.5, self.ack_wait_s / 3))
            await delivery.in_progress()
            self._beat()

    async def _handle(self, delivery) -> None:
        sid, target = delivery.session_id, delivery.target_step
        keep = asyncio.create_task(self._keep_alive(delivery))
        outcome = "error"

        def db_away(state: RetryCallState) -> None:
            exc = state.outcome.exception() if state.outcome else None
            log.warning("run of %s: database unavailable (%s); retrying", sid, _first_line(exc) if exc else "")

        # The database away (restart, network): wait and run again, 0.5 s doubling to 5 s, for as long as it takes.
        retrying = AsyncRetrying(
            retry=retry_if_exception(is_transient_db_error),
            before_sleep=db_away,
            wait=wait_exponential(multiplier=0.5, max=5.0),
            reraise=True,
        )
        try:
            try:
                outcome = await retrying(self._run_leased, sid, target, delivery.step_delay_s)
            except Exception:
                log.exception("run of %s failed", sid)
                outcome = await self._after_failure(sid, target)
        except asyncio.CancelledError:
            await delivery.nak()  # stopping: another worker takes it now
            raise
        finally:
            keep.cancel()
        if outcome == "done":
            self.runs_done += 1
            await delivery.ack()
        elif outcome in ("busy", "lost"):
            await delivery.nak(delay=self.settings.busy_retry_s)
        elif delivery.attempt >= self.settings.max_attempts:
            log.error("run of %s failed %d times; giving up on this request", sid, delivery.attempt)
            await delivery.term()
        else:
            await delivery.nak(delay=min(30.0, 2.0 * delivery.attempt))

    async def _after_failure(self, sid: str, target: int) -> str:
        """A run that raised: nothing left to do if the session is gone or settled."""
        try:
            session = await self.store.get_session(sid)
        except Exception:
            return "error"
        if session is None or session.status != SessionStatus.ACTIVE or session.step_count >= target:
            return "done"
        return "error"

    async def _run_leased(self, sid: str, target: int, step_delay_s: float = 0.0) -> str:
        async def pace(_result) -> None:
            await asyncio.sleep(step_delay_s)

        if not await self.leases.acquire(sid):
            return "busy"
        try:
            idle_rounds = 0
            while True:
                session = await self.store.get_session(sid)
                if session is None or session.status != SessionStatus.ACTIVE or session.step_count >= target:
                    return "done"
                before = session.step_count
                await self.app.engine.run(sid, target - before, on_step=pace if step_delay_s > 0 else None)
                if not await self.leases.verify(sid):
                    return "lost"
                session = await self.store.get_session(sid)
                if session is None or session.status != SessionStatus.ACTIVE or session.step_count >= target:
                    return "done"
                idle_rounds = idle_rounds + 1 if session.step_count == before else 0
                if idle_rounds >= 3:
                    raise RuntimeError(f"session {sid} makes no progress at step {session.step_count}")
                await asyncio.sleep(0.1 * idle_rounds)
        finally:
            try:
                await self.leases.release(sid)
            except Exception as exc:
                log.info("releasing lease of %s: %s", sid, exc)


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0] if lines else ''}"


async def run_worker(
    settings: Settings | None = None, worker: WorkerSettings | None = None, nats=None, ready=None
) -> int:
    """The `wander worker` process: until SIGTERM/SIGINT. Returns the runs completed."""
    settings = settings or load_settings()
    worker = worker or WorkerSettings.from_section(settings.worker)
    nats = nats or nats_settings(settings.nats)
    if nats is None:
        raise SystemExit("wander worker needs WANDER_NATS_URL (the NATS server with JetStream to pull runs from)")
    t0 = time.monotonic()
    limit_threads(worker.threads)
    leases = LeaseManager(
        database_url(settings.database_url, settings.pg_dir), name=f"wander-worker {worker.worker_id}"
    )
    async with open_app(
        settings,
        nats=nats,
        role="worker",
        dweller=settings.models.dweller,
        wrap_store=lambda store: FencedStore(store, leases),
    ) as app:
        limit_threads(worker.threads)  # again: the embedder has loaded torch by now
        w = Worker(app, leases, worker, nats.ack_wait_s)
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            try:
                loop.add_signal_handler(sig, w.stop)
            except (NotImplementedError, RuntimeError):
                pass
        log.info("worker %s started in %.1f s", worker.worker_id, time.monotonic() - t0)
        if ready is not None:
            ready(w)
        try:
            await w.serve()
        finally:
            await leases.close()
        return w.runs_done
