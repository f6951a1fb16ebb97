"""QueueRunner.wait answers what the run did, as 000's wander call does: the steps taken
since the run was asked for (not since the wait began), the crystals the bus announced
meanwhile, and why the wander stopped (nothing while it is still active)."""

from datetime import UTC, datetime

from shared_schemas.events import Subject
from tests.unit.bus.test_queue_runner import FakeEngine, FakeQueue, FakeStore, S
from wander.adapters.bus.inprocess import InProcessBus
from wander.core.domain.models import Event, SessionStatus
from wander.core.engine.queue_runner import QueueRunner


def event(sid, subject, **payload):
    return Event(session_id=sid, seq=1, subject=subject, ts=datetime.now(UTC), payload=payload)


async def test_the_outcome_counts_from_the_start_of_the_run():
    store, bus = FakeStore(), InProcessBus()
    runner = QueueRunner(FakeEngine(store, bus), FakeQueue())
    store.sessions["a"] = S("a", step_count=2, max_steps=10)
    await runner.start("a", 3)
    # a worker took two of the steps before anyone waited, one of them forming a crystal
    store.sessions["a"].step_count = 4
    await bus.publish([event("a", Subject.CRYSTAL_FORMED), event("b", Subject.CRYSTAL_FORMED)])
    await bus.publish([event("a", Subject.CRYSTAL_FORMED)])
    store.sessions["a"].step_count = 5
    out = await runner.wait("a", poll_s=0.01)
    assert (out.steps_completed, out.crystals_formed, out.stopped_reason, out.status) == (3, 2, None, "active")
    await runner.shutdown()


async def test_a_wander_that_stops_says_why_and_the_next_run_counts_afresh():
    store, bus = FakeStore(), InProcessBus()
    runner = QueueRunner(FakeEngine(store, bus), FakeQueue())
    store.sessions["a"] = S("a", step_count=0, max_steps=10)
    await runner.start("a", 8)
    await bus.publish([event("a", Subject.CRYSTAL_FORMED)])
    s = store.sessions["a"]
    s.step_count, s.status, s.stopped_reason = 6, SessionStatus.PAUSED, "loop_detected"
    out = await runner.wait("a", poll_s=0.01)
    assert (out.steps_completed, out.crystals_formed, out.stopped_reason, out.status) == (
        6,
        1,
        "loop_detected",
        "paused",
    )

    s.status, s.stopped_reason = SessionStatus.ACTIVE, None
    await runner.start("a", 8)
    s.step_count, s.status, s.stopped_reason = 10, SessionStatus.COMPLETED, "max_steps"
    out = await runner.wait("a", poll_s=0.01)
    assert (out.steps_completed, out.crystals_formed, out.stopped_reason) == (4, 0, "max_steps")
    await runner.shutdown()
