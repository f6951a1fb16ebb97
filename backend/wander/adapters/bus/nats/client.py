"""The NATS connection (one per process, made in the background and retried forever; the
streams declared on every connect), its settings, and the events' wire form."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import nats
from nats.aio.client import Client as NATS
from nats.js import JetStreamContext
from nats.js.api import (
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
    wait_exponential,
)

from wander.adapters.bus import subjects
from wander.core.domain.models import Event

log = logging.getLogger(__name__)


class _Closed(Exception):
    """The bus was closed while it was still trying to connect."""


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
