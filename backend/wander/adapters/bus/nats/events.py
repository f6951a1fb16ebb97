"""The EventBus port over NATS: publish wakes the outbox relay; subscribers are fed from
one core subscription on ``wander.>`` per process."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from nats.aio.msg import Msg

from wander.adapters.bus import subjects
from wander.adapters.bus.nats.client import NatsClient, decode_event
from wander.core.domain.models import Event

log = logging.getLogger(__name__)

Handler = Callable[[Event], Awaitable[None]]


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
