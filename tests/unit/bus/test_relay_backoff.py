"""The relay's back-off (tenacity) when NATS or the database is away: nothing is published
or lost meanwhile, a kick (NATS reconnected) ends the wait at once, and a failing sweep
neither stops notified sessions from going out nor is given up. And its pipelining: a
batch is sent at once in seq order, and only the acknowledged prefix is marked."""

import asyncio

from wander.adapters.bus.relay import OutboxRelay

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


class AckingSink(Sink):
    """JetStream-like: a publish is sent at once and acknowledged later (or refused)."""

    def __init__(self):
        super().__init__()
        self.sent: list[int] = []
        self.in_flight_max = 0
        self.acks: list[asyncio.Future] = []
        self.refuse: set[int] = set()

    async def publish(self, e):
        self.sent.append(e.seq)
        ack = asyncio.get_running_loop().create_future()
        self.acks.append(ack)
        self.in_flight_max = max(self.in_flight_max, sum(1 for a in self.acks if not a.done()))
        await ack
        if e.seq in self.refuse:
            raise TimeoutError("nats: timeout")
        self.received.append((e.session_id, e.seq))

    def ack_all(self):
        for a in self.acks:
            if not a.done():
                a.set_result(None)


async def test_a_batch_is_pipelined_in_seq_order_and_only_the_acknowledged_prefix_is_marked():
    outbox, sink = MemoryOutbox(), AckingSink()
    relay = OutboxRelay(outbox, sink.publish, connected=lambda: True, sweep_s=3600, fail_backoff_s=0.02)
    relay.start()
    try:
        sink.refuse = {3}
        outbox.add("a", 5)
        relay.notify({"a"})
        await until(lambda: len(sink.sent) == 5)  # all five sent before any acknowledgement
        assert sink.sent == [1, 2, 3, 4, 5] and sink.in_flight_max == 5
        sink.ack_all()
        await until(lambda: outbox.unpublished() == 3 and relay.failures >= 1)
        sink.refuse = set()
        async with asyncio.timeout(5):
            while outbox.unpublished():  # the retries: 3, 4 and 5 again, in order
                sink.ack_all()
                await asyncio.sleep(0.01)
    finally:
        sink.ack_all()
        await relay.stop()
    assert sink.sent[:5] == [1, 2, 3, 4, 5] and sink.sent[5:8] == [3, 4, 5]
    assert [s for _, s in sink.received][:2] == [1, 2] and sorted({s for _, s in sink.received}) == [1, 2, 3, 4, 5]
