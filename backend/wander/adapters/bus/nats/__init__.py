"""The NATS adapters (nats-py): the EventBus port over NATS + JetStream, the outbox
publisher, and the JetStream work queue of wander runs.

Subjects (see wander.adapters.bus.subjects): every event subject of 000 is published as
``wander.<session_id>.<event>``, e.g. ``wander.<sid>.step.completed``; subscribe to
``wander.<sid>.>`` for one session or ``wander.>`` for all. The body is the event as JSON
(session_id, seq, subject in the 000 form, ts, payload); the header ``Nats-Msg-Id`` is
``<sid>:<seq>``. Stream WANDER_EVENTS (file storage, limits retention, 24 h by default)
holds ``wander.>`` and de-duplicates by that id. Run requests go to
``wander_runs.<sid>`` in the work-queue stream WANDER_RUNS, pulled by the durable
consumer ``wander-workers`` with explicit acks. SANDWICH forage events (``sandwich.*``,
numbered per foraging run) go to ``wander.forage.<run_id>.<event>`` in the same stream,
published directly (they have their own outbox, forage_events, which the API replays).

- ``NatsClient``: one connection per process, made in the background and retried forever
  (a process starts even while NATS is away); the streams are declared on every connect.
- ``NatsBus`` (EventBus): ``publish(events)`` does not touch NATS: the events are already in
  the outbox, and it only wakes the relay (wander.adapters.bus.relay), which publishes them.
  ``subscribe(handler, session_id)`` registers a local handler, fed by one core
  subscription on ``wander.>`` per process, so a WebSocket on any API process sees a
  wander run by a worker anywhere.
- ``NatsRunQueue``: ``enqueue(session_id, target_step)`` for the API; ``next()`` for workers,
  giving a ``RunDelivery`` to ack, nak, keep in progress or terminate.
"""

from wander.adapters.bus.nats.client import NatsClient, NatsSettings, decode_event, encode_event
from wander.adapters.bus.nats.events import NatsBus
from wander.adapters.bus.nats.runs import NatsRunQueue, RunDelivery

__all__ = ["NatsBus", "NatsClient", "NatsRunQueue", "NatsSettings", "RunDelivery", "decode_event", "encode_event"]
