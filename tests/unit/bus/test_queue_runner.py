"""QueueRunner: the Runner contract over a run queue (target in the row first, then the
request), with 'running' following the bus."""

from dataclasses import dataclass, field
from datetime import UTC, datetime

import pytest

from shared_schemas.events import Subject
from wander.adapters.bus.inprocess import InProcessBus
from wander.core.domain.errors import Conflict, NotFound
from wander.core.domain.models import Event, SessionStatus
from wander.core.engine.queue_runner import QueueRunner


@dataclass
class S:
    id: str
    step_count: int = 0
    max_steps: int = 20
    status: SessionStatus = SessionStatus.ACTIVE
    run_until_step: int | None = None
    stopped_reason: str | None = None


@dataclass
class FakeStore:
    sessions: dict[str, S] = field(default_factory=dict)

    async def get_session(self, sid):
        return self.sessions.get(sid)

    async def set_run_target(self, sid, target):
        self.sessions[sid].run_until_step = target

    async def interrupted_runs(self):
        return [
            s
            for s in self.sessions.values()
            if s.status == SessionStatus.ACTIVE and (s.run_until_step or 0) > s.step_count
        ]


class FakeQueue:
    def __init__(self):
        self.requests = []

    async def enqueue(self, sid, target, step_delay_s=0.0):
        self.requests.append((sid, target) if not step_delay_s else (sid, target, step_delay_s))


@dataclass
class FakeEngine:
    store: FakeStore
    bus: InProcessBus


def event(sid, subject, **payload):
    return Event(session_id=sid, seq=1, subject=subject, ts=datetime.now(UTC), payload=payload)


@pytest.fixture
def parts():
    store, bus, queue = FakeStore(), InProcessBus(), FakeQueue()
    return store, bus, queue, QueueRunner(FakeEngine(store, bus), queue)


async def test_start_records_the_target_then_enqueues(parts):
    store, bus, queue, runner = parts
    store.sessions["a"] = S("a", step_count=3, max_steps=10)
    await runner.start("a", 4)
    assert store.sessions["a"].run_until_step == 7 and queue.requests == [("a", 7)]
    assert runner.is_running("a")
    with pytest.raises(Conflict):
        await runner.start("a", 1)
    await bus.publish([event("a", Subject.STEP_COMPLETED, step_number=6)])
    assert runner.is_running("a")
    await bus.publish([event("a", Subject.STEP_COMPLETED, step_number=7)])
    assert not runner.is_running("a")


async def test_target_is_capped_by_max_steps_and_none_means_to_the_end(parts):
    store, _, queue, runner = parts
    store.sessions["a"] = S("a", step_count=8, max_steps=10)
    store.sessions["b"] = S("b", step_count=2, max_steps=12)
    await runner.start("a", 50)
    await runner.start("b", None, 0.25)
    assert queue.requests == [("a", 10), ("b", 12, 0.25)]


async def test_pause_or_completion_ends_running(parts):
    store, bus, _, runner = parts
    store.sessions["a"] = S("a")
    store.sessions["b"] = S("b")
    await runner.start("a", 5)
    await runner.start("b", 5)
    await bus.publish([event("a", Subject.SESSION_PAUSED), event("b", Subject.SESSION_COMPLETED)])
    assert not runner.is_running("a") and not runner.is_running("b")


async def test_unknown_session(parts):
    with pytest.raises(NotFound):
        await parts[3].start("nope", 1)


async def test_resume_interrupted_re_sends_unfinished_runs(parts):
    store, _, queue, runner = parts
    store.sessions["crashed"] = S("crashed", step_count=4, run_until_step=9)
    store.sessions["done"] = S("done", step_count=9, run_until_step=9)
    store.sessions["paused"] = S("paused", step_count=1, run_until_step=9, status=SessionStatus.PAUSED)
    assert await runner.resume_interrupted() == ["crashed"]
    assert queue.requests == [("crashed", 9)] and runner.is_running("crashed")


async def test_wait_follows_the_database(parts):
    store, _, _, runner = parts
    store.sessions["a"] = S("a", step_count=0, max_steps=3)
    await runner.start("a", 3)
    store.sessions["a"].step_count = 3
    store.sessions["a"].status = SessionStatus.COMPLETED
    out = await runner.wait("a", poll_s=0.01)
    assert out.status == "completed" and not runner.is_running("a")
    assert await runner.wait("never-started") is None


async def test_a_missed_end_event_does_not_leave_a_session_running_for_ever(parts):
    store, _, queue, runner = parts
    runner.reconcile_s = 0.01
    store.sessions["a"] = S("a", step_count=0, max_steps=10)
    await runner.start("a", 3)
    store.sessions["a"].step_count = 3  # its step.completed never reached this process
    await runner.start("a", 2)  # not a Conflict: the database says the run is over
    assert queue.requests == [("a", 3), ("a", 5)]
    store.sessions["a"].step_count = 5
    import asyncio

    for _ in range(100):
        if not runner.is_running("a"):
            break
        await asyncio.sleep(0.01)
    assert not runner.is_running("a")
    await runner.shutdown()
