"""Background runs: one asyncio task per session, so that a request that starts a wander
returns at once. Pause and stop act between steps (the store refuses a step of a wander
that is no longer active), and runs cut short by a crash are picked up again on start."""

from __future__ import annotations

import asyncio
import logging

from wander.core.domain.errors import Conflict
from wander.core.engine.service import RunOutcome, WanderEngine

log = logging.getLogger(__name__)


class Runner:
    def __init__(self, engine: WanderEngine):
        self.engine = engine
        self._tasks: dict[str, asyncio.Task[RunOutcome]] = {}
        self._lock = asyncio.Lock()

    def is_running(self, session_id: str) -> bool:
        task = self._tasks.get(session_id)
        return task is not None and not task.done()

    async def start(self, session_id: str, n_steps: int | None, step_delay_s: float = 0.0) -> asyncio.Task[RunOutcome]:
        async with self._lock:
            if self.is_running(session_id):
                raise Conflict(f"session {session_id} is already running")
            task = asyncio.create_task(self._run(session_id, n_steps, step_delay_s), name=f"wander-{session_id}")
            self._tasks[session_id] = task
            return task

    async def _run(self, session_id: str, n_steps: int | None, step_delay_s: float = 0.0) -> RunOutcome:
        async def pace(_result) -> None:
            await asyncio.sleep(step_delay_s)

        try:
            return await self.engine.run(session_id, n_steps, on_step=pace if step_delay_s > 0 else None)
        except Conflict as exc:
            log.info("run of %s ended: %s", session_id, exc)
            return RunOutcome(0, str(exc), "unknown")
        except Exception as exc:
            log.exception("run of %s failed", session_id)
            await self._halt(session_id, exc)
            raise

    async def _halt(self, session_id: str, exc: Exception) -> None:
        """A run that failed stops as a paused wander that says why (it can be resumed),
        not as an active one that nothing runs; if even that cannot be written, the run is
        picked up again at the next start (interrupted_runs)."""
        try:
            await self.engine.halt(session_id, "run_failed", f"{type(exc).__name__}; the server log has the details")
        except Exception:
            log.exception("run of %s: could not pause it after its failure", session_id)

    async def wait(self, session_id: str) -> RunOutcome | None:
        """The outcome of the session's run, once it is over. A waiter that gives up (a
        client gone mid-request) leaves the run going: it is shielded from the waiter's
        cancellation."""
        task = self._tasks.get(session_id)
        return await asyncio.shield(task) if task else None

    async def cancel(self, session_id: str) -> None:
        task = self._tasks.pop(session_id, None)
        if task and not task.done():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def resume_interrupted(self) -> list[str]:
        """Start again every run that a crash left unfinished."""
        resumed = []
        for session in await self.engine.store.interrupted_runs():
            target = session.run_until_step  # set on every interrupted run (the store's query)
            if target is not None and not self.is_running(session.id):
                await self.start(session.id, target - session.step_count)
                resumed.append(session.id)
        return resumed

    async def shutdown(self) -> None:
        for session_id in list(self._tasks):
            await self.cancel(session_id)
