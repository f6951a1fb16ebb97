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

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import nats
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.errors import TimeoutError as NatsTimeoutError
from nats.js import JetStreamContext
from nats.js.api import (
    AckPolicy,
    ConsumerConfig,
    DiscardPolicy,
    RetentionPolicy,
    StorageType,
    StreamConfig,
)
from nats.js.errors import BadRequestError
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_not_exception_type,
    retry_if_result,
    wait_exponential,
    wait_fixed,
)

from wander.adapters.bus import subjects
from wander.core.domain.models import Event

log = logging.getLogger(__name__)


class _Closed(Exception):
    """The bus was closed while it was still trying to connect."""


Handler = Callable[[Event], Awaitable[None]]


@dataclass(frozen=True)
class NatsSettings:
    url: str
    ack_wait_s: float = 30.0  # a run not kept alive for this long goes to another worker
    events_max_age_s: float = 86_400.0  # how long WANDER_EVENTS keeps events
    dedupe_window_s: float = 120.0  # JetStream duplicate window of both streams
    publish_timeout_s: float = 2.0
    relay_sweep_s: float = 10.0  # how often the relay looks for events left by others
    relay_horizon_s: float = 86_400.0  # older unpublished events are never relayed


def encode_event(e: Event) -> bytes:
    return json.dumps(
        {"session_id": e.session_id, "seq": e.seq, "subject": e.subject, "ts": e.ts.isoformat(), "payload": e.payload},
        separators=(",", ":"),
        default=str,
    ).encode()


def decode_event(data: bytes) -> Event:
    d = json.loads(data)
    return Event(
        session_id=d["session_id"],
        seq=int(d["seq"]),
        subject=d["subject"],
        ts=datetime.fromisoformat(d["ts"]),
        payload=d.get("payload") or {},
    )


# ---- the connection ------------------------------------------------------------------


class NatsClient:
    """One NATS connection, made in the background (retried until it succeeds) and kept
    with unlimited reconnects. ``on_connect`` callbacks run after every (re)connect."""

    def __init__(self, settings: NatsSettings, name: str = "wander") -> None:
        self.settings = settings
        self.name = name
        self.nc: NATS | None = None
        self.js: JetStreamContext | None = None
        self._connected = asyncio.Event()
        self._callbacks: list[Callable[[], Awaitable[None]]] = []
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self._streams_ok = False

    @property
    def is_connected(self) -> bool:
        return self.nc is not None and self.nc.is_connected and self._connected.is_set()

    def on_connect(self, callback: Callable[[], Awaitable[None]]) -> None:
        self._callbacks.append(callback)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._connect_loop(), name="wander-nats-connect")

    async def wait_connected(self, timeout: float | None = None) -> bool:
        try:
            await asyncio.wait_for(self._connected.wait(), timeout)
            return True
        except TimeoutError:
            return False

    async def _connect(self) -> Any:
        if self._closing:
            raise _Closed
        return await nats.connect(
            servers=[self.settings.url],
            name=self.name,
            allow_reconnect=True,
            max_reconnect_attempts=-1,
            reconnect_time_wait=0.5,
            connect_timeout=2,
            ping_interval=5,
            max_outstanding_pings=3,
            disconnected_cb=self._on_disconnected,
            reconnected_cb=self._on_reconnected,
            error_cb=self._on_error,
        )

    async def _connect_loop(self) -> None:
        """Connect, trying again (0.2 s doubling to 2 s) until it works or the bus closes;
        meanwhile events wait in the outbox."""

        def unreachable(state: RetryCallState) -> None:
            exc = state.outcome.exception() if state.outcome else None
            log.info("NATS at %s not reachable (%s); retrying", self.settings.url, exc)

        retrying = AsyncRetrying(
            retry=retry_if_not_exception_type(_Closed),
            before_sleep=unreachable,
            wait=wait_exponential(multiplier=0.2, max=2.0),
            reraise=True,
        )
        try:
            nc: Any = await retrying(self._connect)
        except _Closed:
            return  # closed while NATS was away
        self.nc = nc
        self.js = nc.jetstream(timeout=self.settings.publish_timeout_s)
        await self._after_connect()

    async def _after_connect(self) -> None:
        self._streams_ok = False  # a restarted server may have lost them: declare again
        try:
            await self.ensure_streams()
        except Exception as exc:  # JetStream not ready yet: tried again before each publish
            log.warning("could not declare the JetStream streams: %s", exc)
        self._connected.set()
        for cb in list(self._callbacks):
            try:
                await cb()
            except Exception:
                log.exception("NATS on_connect callback failed")

    async def _on_disconnected(self) -> None:
        if not self._closing:
            log.warning("NATS disconnected; events wait in the outbox until it is back")
        self._connected.clear()

    async def _on_reconnected(self) -> None:
        log.warning("NATS reconnected")
        await self._after_connect()

    async def _on_error(self, exc: Exception) -> None:
        log.debug("NATS: %s", exc)

    async def ensure_streams(self) -> None:
        assert self.js is not None
        s = self.settings
        events = StreamConfig(
            name=subjects.EVENTS_STREAM,
            subjects=[subjects.EVENTS_ALL],
            retention=RetentionPolicy.LIMITS,
            storage=StorageType.FILE,
            max_age=s.events_max_age_s,
            duplicate_window=s.dedupe_window_s,
            discard=DiscardPolicy.OLD,
        )
        runs = StreamConfig(
            name=subjects.RUNS_STREAM,
            subjects=[subjects.RUNS_ALL],
            retention=RetentionPolicy.WORK_QUEUE,
            storage=StorageType.FILE,
            duplicate_window=s.dedupe_window_s,
        )
        for cfg in (events, runs):
            try:
                await self.js.add_stream(cfg)
            except BadRequestError:  # exists with another configuration
                await self.js.update_stream(cfg)
        self._streams_ok = True

    async def ready_js(self) -> JetStreamContext:
        """The JetStream context, with the streams declared; raises while NATS is away."""
        if self.js is None or not self.is_connected:
            raise ConnectionError("NATS is not connected")
        if not self._streams_ok:
            await self.ensure_streams()
        return self.js

    async def publish_event(self, e: Event) -> None:
        """Publish one event to JetStream and wait for its acknowledgement (raises if not)."""
        js = await self.ready_js()
        await js.publish(
            subjects.event_subject(e.subject, e.session_id),
            encode_event(e),
            headers={"Nats-Msg-Id": subjects.message_id(e.session_id, e.seq, e.subject)},
        )

    async def close(self) -> None:
        self._closing = True
        if self._task is not None and not self._task.done():
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        if self.nc is not None and not self.nc.is_closed:
            try:
                await asyncio.wait_for(self.nc.drain(), timeout=5)
            except Exception:
                pass
            if not self.nc.is_closed:
                await self.nc.close()


# ---- the EventBus port ---------------------------------------------------------------


class NatsBus:
    """EventBus over NATS: publish wakes the outbox relay; subscribers are fed from one core
    subscription on ``wander.>`` (made on the first subscribe, kept across reconnects)."""

    def __init__(self, client: NatsClient, notify: Callable[[set[str]], None]) -> None:
        self.client = client
        self._notify = notify
        self._handlers: list[tuple[str | None, Handler]] = []
        self._sub: Any = None
        self._want = False
        self._sub_lock = asyncio.Lock()
        self._subscribing: asyncio.Task[None] | None = None
        client.on_connect(self._ensure_listening)
        self.received = 0

    async def publish(self, events: Sequence[Event]) -> None:
        """Wander events: wake the relay (they are in wander_events). Forage events: publish
        them now, in order (raises while NATS is away; they stay in forage_events)."""
        sessions = {e.session_id for e in events if not subjects.is_forage(e.subject)}
        if sessions:
            self._notify(sessions)
        for e in events:
            if subjects.is_forage(e.subject):
                await self.client.publish_event(e)

    def subscribe(self, handler: Handler, session_id: str | None = None) -> Callable[[], None]:
        entry = (session_id, handler)
        self._handlers.append(entry)
        if self._sub is None and self.client.is_connected and (self._subscribing is None or self._subscribing.done()):
            self._subscribing = asyncio.ensure_future(self._ensure_listening())

        def unsubscribe() -> None:
            if entry in self._handlers:
                self._handlers.remove(entry)

        return unsubscribe

    async def listen(self) -> None:
        """Subscribe to ``wander.>`` as soon as connected (an API process does this at start,
        so its first WebSocket does not wait for the subscription)."""
        self._want = True
        await self._ensure_listening()

    async def _ensure_listening(self) -> None:
        async with self._sub_lock:
            if self._sub is not None or not (self._want or self._handlers):
                return
            nc = self.client.nc
            if nc is None or not nc.is_connected:
                return  # the next connect calls us again
            self._want = True
            self._sub = await nc.subscribe(
                subjects.EVENTS_ALL,
                cb=self._on_msg,
                pending_msgs_limit=1_000_000,
                pending_bytes_limit=512 * 1024 * 1024,
            )
            try:
                await nc.flush(timeout=self.client.settings.publish_timeout_s)  # type: ignore[arg-type]  # float works
            except Exception:
                pass

    async def _on_msg(self, msg: Msg) -> None:
        try:
            event = decode_event(msg.data)
        except Exception:
            log.warning("undecodable event on %s", msg.subject)
            return
        self.received += 1
        for session_id, handler in list(self._handlers):
            if session_id is None or session_id == event.session_id:
                try:
                    await handler(event)
                except Exception:  # one bad subscriber must not stop the others
                    log.exception("event handler failed for %s", event.subject)


# ---- the run queue -------------------------------------------------------------------


@dataclass
class RunDelivery:
    """A run request given to this worker: run session_id up to target_step."""

    session_id: str
    target_step: int
    attempt: int
    msg: Msg
    step_delay_s: float = 0.0

    async def ack(self) -> None:
        await _quietly(self.msg.ack())

    async def nak(self, delay: float | None = None) -> None:
        await _quietly(self.msg.nak(delay=delay))

    async def in_progress(self) -> None:
        await _quietly(self.msg.in_progress())

    async def term(self) -> None:
        await _quietly(self.msg.term())


async def _quietly(coro: Awaitable[Any]) -> None:
    try:
        await coro
    except Exception as exc:  # NATS away: the message is redelivered after its ack wait
        log.info("JetStream acknowledgement not sent: %s", exc)


RESEND_EVERY_S = 1.0  # how often run requests NATS did not accept are sent again


class NatsRunQueue:
    """The JetStream work queue of runs. Producers (API) enqueue; workers call next()."""

    def __init__(self, client: NatsClient) -> None:
        self.client = client
        self._retry: dict[str, tuple[str, int, float]] = {}  # msg id -> request not yet accepted by JetStream
        self._retry_task: asyncio.Task[None] | None = None
        self._psub = None
        client.on_connect(self._on_connect)

    async def _on_connect(self) -> None:
        if self._retry:
            await self._resend()

    async def enqueue(self, session_id: str, target_step: int, step_delay_s: float = 0.0) -> None:
        """Ask for session_id to be run up to target_step. With NATS away the request is
        kept here and sent on reconnect (and the session's run target, already in the
        database, makes an API restart re-enqueue it in any case)."""
        msg_id = f"{subjects.run_message_id(session_id, target_step)}:{uuid.uuid4().hex[:12]}"
        self._retry[msg_id] = (session_id, target_step, max(0.0, float(step_delay_s)))
        await self._resend()
        if self._retry and (self._retry_task is None or self._retry_task.done()):
            self._retry_task = asyncio.create_task(self._retry_loop())

    async def _resend(self) -> None:
        try:
            js = await self.client.ready_js()
        except Exception as exc:
            log.info("run requests wait for NATS (%s)", exc)
            return
        for msg_id, (sid, target, delay) in list(self._retry.items()):
            body = json.dumps({"session_id": sid, "target_step": target, "step_delay_s": delay}).encode()
            try:
                await js.publish(subjects.run_subject(sid), body, headers={"Nats-Msg-Id": msg_id})
            except Exception as exc:
                log.info("run request for %s not accepted yet (%s); will retry", sid, exc)
                return
            self._retry.pop(msg_id, None)

    async def _retry_loop(self) -> None:
        """Re-send what JetStream has not accepted yet every RESEND_EVERY_S (tenacity), until
        nothing is left (enqueue has just tried once: the first re-send waits)."""
        retrying = AsyncRetrying(retry=retry_if_result(bool), wait=wait_fixed(RESEND_EVERY_S))
        async for attempt in retrying:
            with attempt:
                if attempt.retry_state.attempt_number > 1:
                    await self._resend()
            outcome = attempt.retry_state.outcome
            if outcome is not None and not outcome.failed:  # an error ends the loop, as it is
                attempt.retry_state.set_result(bool(self._retry))

    async def _consumer(self):
        if self._psub is None:
            js = await self.client.ready_js()
            cfg = ConsumerConfig(
                durable_name=subjects.RUNS_CONSUMER,
                ack_policy=AckPolicy.EXPLICIT,
                ack_wait=self.client.settings.ack_wait_s,
                max_deliver=-1,
                filter_subject=subjects.RUNS_ALL,
                max_ack_pending=10_000,
            )
            try:
                await js.add_consumer(subjects.RUNS_STREAM, cfg)
            except BadRequestError as exc:  # exists with other settings: keep it
                log.info("run consumer exists with other settings (%s); using it as it is", exc)
            self._psub = await js.pull_subscribe_bind(subjects.RUNS_CONSUMER, stream=subjects.RUNS_STREAM)
        return self._psub

    async def next(self, timeout: float = 2.0) -> RunDelivery | None:
        """The next run request, or None after timeout (or while NATS is away)."""
        if not self.client.is_connected:
            await self.client.wait_connected(timeout)
            return None
        try:
            psub = await self._consumer()
            msgs = await psub.fetch(1, timeout=timeout)
        except (NatsTimeoutError, TimeoutError):
            return None
        except Exception as exc:  # e.g. the consumer is gone (a NATS that lost its store): make it again
            log.info("fetching a run failed (%s); retrying", exc)
            await self._drop_consumer()
            await asyncio.sleep(min(timeout, 1.0))
            return None
        msg = msgs[0]
        try:
            body = json.loads(msg.data)
            return RunDelivery(
                str(body["session_id"]),
                int(body["target_step"]),
                msg.metadata.num_delivered,
                msg,
                min(60.0, max(0.0, float(body.get("step_delay_s") or 0.0))),
            )
        except Exception:
            log.warning("malformed run request %r: terminated", msg.data[:200])
            await _quietly(msg.term())
            return None

    async def _drop_consumer(self) -> None:
        psub, self._psub = self._psub, None
        if psub is not None:
            try:  # before the connection drains, or the drain waits for the pull to time out
                await asyncio.wait_for(psub.unsubscribe(), timeout=2)
            except Exception:
                pass

    async def close(self) -> None:
        if self._retry_task is not None:
            self._retry_task.cancel()
            await asyncio.gather(self._retry_task, return_exceptions=True)
        await self._drop_consumer()
