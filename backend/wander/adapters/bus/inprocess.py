"""The in-process EventBus (embedded default): handlers per session or for all sessions."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence

from wander.core.domain.models import Event

log = logging.getLogger(__name__)
Handler = Callable[[Event], Awaitable[None]]


class InProcessBus:
    def __init__(self) -> None:
        self._handlers: list[tuple[str | None, Handler]] = []

    async def publish(self, events: Sequence[Event]) -> None:
        for event in events:
            for session_id, handler in list(self._handlers):
                if session_id is None or session_id == event.session_id:
                    try:
                        await handler(event)
                    except Exception:  # one bad subscriber must not stop the wander
                        log.exception("event handler failed for %s", event.subject)
        if events:
            # Let subscribers (WebSocket senders) run now, before the caller's next CPU-bound
            # step: otherwise the events wait in their queues behind it.
            await asyncio.sleep(0)

    def subscribe(self, handler: Handler, session_id: str | None = None) -> Callable[[], None]:
        entry = (session_id, handler)
        self._handlers.append(entry)

        def unsubscribe() -> None:
            if entry in self._handlers:
                self._handlers.remove(entry)

        return unsubscribe
