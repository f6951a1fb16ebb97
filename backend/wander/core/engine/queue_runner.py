"""Background runs through a work queue (scale-out): the Runner's contract, but a run is a
request (session id, target step) put on a queue that `wander worker` processes pull,
instead of an asyncio task in this process.

The run target goes into the session row first (so a request lost with its queue is
re-sent by the next start's crash resume), then the request onto the queue. Whether a
session is running, as this process sees it, follows the bus: a run this process asked
for ends at the step.completed of its target step, or at a pause or completion."""

from __future__ import annotations

import asyncio
from typing import Protocol

from shared_schemas.events import Subject
from wander.core.domain.errors import Conflict, NotFound
from wander.core.domain.models import Event, SessionStatus
from wander.core.engine.service import RunOutcome, WanderEngine, run_outcome


class RunQueue(Protocol):
    async def enqueue(self, session_id: str, target_step: int, step_delay_s: float = 0.0) -> None:
        """Ask for the session to be run up to target_step (at least once, by some worker),
        pausing step_delay_s after each step (a paced run to watch)."""
        ...


class QueueRunner:
    def __init__(self, engine: WanderEngine, queue: RunQueue, reconcile_s: float = 5.0) -> None:
        self.engine = engine
        self.queue = queue
        self.reconcile_s = reconcile_s
        self._targets: dict[str, int] = {}
        # per run asked for here: the step it started from and the crystals formed since,
        # as the bus told (what wait answers)
        self._runs: dict[str, list[int]] = {}
        self._unsubscribe = engine.bus.subscribe(self._on_event)
        self._reconciler: asyncio.Task[None] | None = None

    def is_running(self, session_id: str) -> bool:
        return session_id in self._targets

    async def start(self, session_id: str, n_steps: int | None, step_delay_s: float = 0.0) -> None:
        session = await self.engine.store.get_session(session_id)
        if session is None:
            raise NotFound("session", session_id)
        if self.is_running(session_id) and not await self._settled(session_id):
            raise Conflict(f"session {session_id} is already running")
        target = session.max_steps if n_steps is None else min(session.max_steps, session.step_count + n_steps)
        await self.engine.store.set_run_target(session_id, target)
        self._runs[session_id] = [session.step_count, 0]
        self._track(session_id, target)
        await self.queue.enqueue(session_id, target, step_delay_s)

    def _track(self, session_id: str, target: int) -> None:
        self._targets[session_id] = target
        if self._reconciler is None or self._reconciler.done():
            self._reconciler = asyncio.create_task(self._reconcile(), name="wander-run-reconcile")

    async def _settled(self, session_id: str) -> bool:
        """Whether the run this process tracks is over, as the database says (a missed
        event, e.g. across a bus reconnect, must not leave it 'running' for ever)."""
        target = self._targets.get(session_id)
        if target is None:
            return True
        session = await self.engine.store.get_session(session_id)
        if session is None or session.status != SessionStatus.ACTIVE or session.step_count >= target:
            self._targets.pop(session_id, None)
            return True
        return False

    async def _reconcile(self) -> None:
        while self._targets:
            await asyncio.sleep(self.reconcile_s)
            for session_id in list(self._targets):
                try:
                    await self._settled(session_id)
                except Exception:  # the database is away: next round
                    break

    async def _on_event(self, event: Event) -> None:
        run = self._runs.get(event.session_id)
        if run is not None and event.subject == Subject.CRYSTAL_FORMED:
            run[1] += 1
        target = self._targets.get(event.session_id)
        if target is None:
            return
        if event.subject == Subject.STEP_COMPLETED and int(event.payload.get("step_number", 0)) >= target:
            self._targets.pop(event.session_id, None)
        elif event.subject in (Subject.SESSION_PAUSED, Subject.SESSION_COMPLETED):
            self._targets.pop(event.session_id, None)

    async def wait(self, session_id: str, poll_s: float = 0.2) -> RunOutcome | None:
        """Until the run this process asked for is over, as the database says."""
        target = self._targets.get(session_id)
        if target is None:
            return None
        start_steps: int | None = self._runs[session_id][0] if session_id in self._runs else None
        while True:
            session = await self.engine.store.get_session(session_id)
            if session is None:
                self._targets.pop(session_id, None)
                self._runs.pop(session_id, None)
                return None
            if start_steps is None:
                start_steps = session.step_count
            if session.status != SessionStatus.ACTIVE or session.step_count >= target:
                self._targets.pop(session_id, None)
                crystals = self._runs.pop(session_id, [0, 0])[1]
                return run_outcome(session, session.step_count - start_steps, crystals)
            await asyncio.sleep(poll_s)

    async def cancel(self, session_id: str) -> None:
        # The workers stop on their own: the store refuses steps of a session that is no
        # longer active (or no longer exists).
        self._targets.pop(session_id, None)
        self._runs.pop(session_id, None)

    async def resume_interrupted(self) -> list[str]:
        """Re-send every run that has not reached its target (a crash, a lost request);
        a duplicate is harmless: the worker holding the session's lease runs it once."""
        resumed = []
        for session in await self.engine.store.interrupted_runs():
            assert session.run_until_step is not None
            self._track(session.id, session.run_until_step)
            await self.queue.enqueue(session.id, session.run_until_step)
            resumed.append(session.id)
        return resumed

    async def shutdown(self) -> None:
        self._unsubscribe()
        if self._reconciler is not None:
            self._reconciler.cancel()
            await asyncio.gather(self._reconciler, return_exceptions=True)
