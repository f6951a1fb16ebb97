"""The relay's back-off (tenacity) when NATS or the database is away: nothing is published
or lost meanwhile, a kick (NATS reconnected) ends the wait at once, and a failing sweep
neither stops notified sessions from going out nor is given up."""

import asyncio

from wander.bus.relay import OutboxRelay

from .test_relay import MemoryOutbox, Sink, per_session, until


async def test_a_kick_ends_the_back_off_while_nats_was_away():
    outbox, sink = MemoryOutbox(), Sink()
    sink.up = False
    relay = OutboxRelay(outbox, sink.publish, connected=lambda: sink.up, sweep_s=3600, fail_backoff_s=3600)
    relay.start()
    try:
        outbox.add("a", 3)
        relay.notify({"a"})
        await asyncio.sleep(0.1)
        assert outbox.unpublished() == 3 and sink.received == []
        sink.up = True
        relay.kick()  # what the reconnect callback does: no waiting out the hour
        await until(lambda: outbox.unpublished() == 0)
    finally:
        await relay.stop()
    assert per_session(sink.received, "a") == [1, 2, 3]


async def test_a_failed_publish_is_retried_after_the_back_off_without_a_kick():
    outbox, sink = MemoryOutbox(), Sink()
    relay = OutboxRelay(outbox, sink.publish, connected=lambda: True, sweep_s=3600, fail_backoff_s=0.02)
    relay.start()
    try:
        sink.fail_after = 1
        outbox.add("a", 4)
        relay.notify({"a"})
        await until(lambda: relay.failures >= 3)  # tried again and again, one event through
        assert outbox.unpublished() == 3
        sink.fail_after = None
        await until(lambda: outbox.unpublished() == 0)
    finally:
        await relay.stop()
    assert per_session(sink.received, "a") == [1, 2, 3, 4]


class SweepFails(MemoryOutbox):
    def __init__(self):
        super().__init__()
        self.sweeps = 0

    async def pending_sessions(self, limit=1000):
        self.sweeps += 1
        if self.sweeps <= 3:
            raise OSError("database away")
        return await super().pending_sessions(limit)


async def test_a_failing_sweep_is_retried_and_notified_sessions_still_go_out():
    outbox, sink = SweepFails(), Sink()
    outbox.add("left-behind", 2)
    relay = OutboxRelay(outbox, sink.publish, connected=lambda: True, sweep_s=3600, fail_backoff_s=0.02)
    relay.start()
    try:
        outbox.add("notified", 2)
        relay.notify({"notified"})
        await until(lambda: per_session(sink.received, "notified") == [1, 2])
        await until(lambda: per_session(sink.received, "left-behind") == [1, 2])  # the 4th sweep found it
    finally:
        await relay.stop()
    assert outbox.sweeps >= 4 and outbox.unpublished() == 0
