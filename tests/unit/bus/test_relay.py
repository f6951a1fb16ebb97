"""The outbox relay against an in-memory outbox: seq order per session, a failed publish
stops and retries later without losing or reordering anything, a session claimed by
another relay is retried, and re-publishes are harmless to an id-deduplicating sink."""

import asyncio
from contextlib import asynccontextmanager
from datetime import UTC, datetime

from wander.adapters.bus.relay import OutboxRelay
from wander.core.domain.models import Event

NOW = datetime(2025, 1, 1, tzinfo=UTC)


class MemoryOutbox:
    def __init__(self):
        self.rows: dict[tuple[str, int], dict] = {}
        self.locked: set[str] = set()

    def add(self, sid: str, n: int):
        start = max([s for (x, s) in self.rows if x == sid], default=0)
        for seq in range(start + 1, start + n + 1):
            self.rows[(sid, seq)] = {"published": False}
        return list(range(start + 1, start + n + 1))

    async def pending_sessions(self, limit=1000):
        return sorted({sid for (sid, _), r in self.rows.items() if not r["published"]})[:limit]

    @asynccontextmanager
    async def claim(self, session_id, after_seq=0, limit=500):
        if session_id in self.locked:
            yield None
            return
        seqs = sorted(s for (x, s), r in self.rows.items() if x == session_id and s > after_seq and not r["published"])

        class B:
            events = [
                Event(session_id=session_id, seq=s, subject="wander.step.completed", ts=NOW, payload={})
                for s in seqs[:limit]
            ]
            full = len(seqs) >= limit
            upto = None

            def published(self, seq):
                self.upto = seq

        b = B()
        yield b
        if b.upto is not None:
            for (x, s), r in self.rows.items():
                if x == session_id and s <= b.upto:
                    r["published"] = True

    def unpublished(self):
        return sum(1 for r in self.rows.values() if not r["published"])


class Sink:
    """A JetStream stand-in: stores by message id (duplicates dropped), can be 'down'."""

    def __init__(self):
        self.up = True
        self.received: list[tuple[str, int]] = []
        self.stored: dict[str, tuple[str, int]] = {}
        self.fail_after: int | None = None

    async def publish(self, e: Event):
        if not self.up or (self.fail_after is not None and len(self.received) >= self.fail_after):
            raise ConnectionError("nats away")
        self.received.append((e.session_id, e.seq))
        self.stored.setdefault(f"{e.session_id}:{e.seq}", (e.session_id, e.seq))


async def until(cond, timeout=5.0):
    async with asyncio.timeout(timeout):
        while not cond():
            await asyncio.sleep(0.01)


def per_session(received, sid):
    return [s for x, s in received if x == sid]


async def test_publishes_each_session_in_seq_order_and_marks_published():
    outbox, sink = MemoryOutbox(), Sink()
    relay = OutboxRelay(outbox, sink.publish, connected=lambda: sink.up, sweep_s=60)
    relay.start()
    try:
        outbox.add("a", 5)
        outbox.add("b", 3)
        relay.notify({"a", "b"})
        await until(lambda: outbox.unpublished() == 0)
        outbox.add("a", 2)
        relay.notify({"a"})
        await until(lambda: outbox.unpublished() == 0)
    finally:
        await relay.stop()
    assert per_session(sink.received, "a") == [1, 2, 3, 4, 5, 6, 7]
    assert per_session(sink.received, "b") == [1, 2, 3]


async def test_nats_down_means_events_wait_then_go_in_order():
    outbox, sink = MemoryOutbox(), Sink()
    relay = OutboxRelay(outbox, sink.publish, connected=lambda: True, sweep_s=60, fail_backoff_s=0.05)
    relay.start()
    try:
        sink.fail_after = 2  # the server goes away in the middle of a batch
        outbox.add("a", 6)
        relay.notify({"a"})
        await until(lambda: outbox.unpublished() == 4)
        await asyncio.sleep(0.2)  # retries fail meanwhile; nothing is lost
        assert outbox.unpublished() == 4
        sink.fail_after = None
        relay.kick()
        await until(lambda: outbox.unpublished() == 0)
    finally:
        await relay.stop()
    assert per_session(sink.received, "a") == [1, 2, 3, 4, 5, 6]


async def test_the_sweep_finds_events_nobody_notified():
    outbox, sink = MemoryOutbox(), Sink()
    outbox.add("left-by-a-crashed-process", 3)
    relay = OutboxRelay(outbox, sink.publish, connected=lambda: True, sweep_s=0.05)
    relay.start()
    try:
        await until(lambda: outbox.unpublished() == 0)
    finally:
        await relay.stop()
    assert per_session(sink.received, "left-by-a-crashed-process") == [1, 2, 3]


async def test_a_session_claimed_by_another_relay_is_retried():
    outbox, sink = MemoryOutbox(), Sink()
    relay = OutboxRelay(outbox, sink.publish, connected=lambda: True, sweep_s=60, busy_retry_s=0.02)
    relay.start()
    try:
        outbox.add("a", 2)
        outbox.locked.add("a")
        relay.notify({"a"})
        await asyncio.sleep(0.1)
        assert outbox.unpublished() == 2
        outbox.locked.clear()
        await until(lambda: outbox.unpublished() == 0)
    finally:
        await relay.stop()


async def test_a_republish_after_a_lost_mark_is_deduplicated_by_message_id():
    outbox, sink = MemoryOutbox(), Sink()
    outbox.add("a", 3)
    for relay_run in range(2):  # a crash after publishing, before marking: publish again
        relay = OutboxRelay(outbox, sink.publish, connected=lambda: True, sweep_s=60)
        relay.start()
        relay.notify({"a"})
        await until(lambda: len(sink.received) >= 3 * (relay_run + 1))  # noqa: B023 (awaited at once)
        await relay.stop()
        if relay_run == 0:
            for r in outbox.rows.values():
                r["published"] = False
    assert per_session(sink.received, "a") == [1, 2, 3, 1, 2, 3]
    assert sorted(sink.stored.values()) == [("a", 1), ("a", 2), ("a", 3)]


async def test_flush_waits_for_what_is_pending():
    outbox, sink = MemoryOutbox(), Sink()
    relay = OutboxRelay(outbox, sink.publish, connected=lambda: True, sweep_s=60)
    relay.start()
    try:
        outbox.add("a", 50)
        relay.notify({"a"})
        assert await relay.flush(5)
        assert outbox.unpublished() == 0
    finally:
        await relay.stop()


async def test_events_notified_while_a_batch_is_published_are_not_left_behind():
    outbox, sink = MemoryOutbox(), Sink()
    relay = OutboxRelay(outbox, None, connected=lambda: True, sweep_s=3600)  # no sweep to rescue it

    async def publish(e):
        await sink.publish(e)
        if e.seq == 1:  # the next step commits while this batch is being published
            outbox.add("a", 2)
            relay.notify({"a"})

    relay._publish = publish
    relay.start()
    try:
        outbox.add("a", 1)
        relay.notify({"a"})
        await until(lambda: outbox.unpublished() == 0 and len(sink.received) == 3)
        assert await relay.flush(2)
    finally:
        await relay.stop()
    assert per_session(sink.received, "a") == [1, 2, 3]
