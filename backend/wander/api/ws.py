"""WebSocket /ws/sessions/{id}?after_seq=N: every stored event with seq > N from the
outbox, a caught_up frame, then live events from the bus, with no gap and no duplicate
across the hand-over (the bus is subscribed before the backlog is read; anything live at
or below the last sent seq is dropped; a hole in the live stream is filled from the store)."""

from __future__ import annotations

import asyncio
import json
import logging
from datetime import UTC, datetime

from litestar import WebSocket, websocket
from litestar.exceptions import WebSocketDisconnect

from wander.api.deps import Services
from wander.api.security import origin_ok, token_ok
from wander.domain.errors import NotFound
from wander.domain.models import Event

log = logging.getLogger(__name__)

CLOSE_UNKNOWN_SESSION = 4404
CLOSE_UNAUTHORIZED = 4401
CLOSE_BAD_ORIGIN = 4403
CLOSE_BAD_REQUEST = 4400
CATCH_UP_PAGE = 10_000  # events_after's default page size
_CLOSED = object()  # the client went away


def event_frame(e: Event) -> str:
    """An EventFrame of shared_schemas.events; the payload goes out as stored (the engine
    checked it against its model when it made the event)."""
    ts = e.ts.isoformat().replace("+00:00", "Z")
    event = {"session_id": e.session_id, "seq": e.seq, "ts": ts, "subject": e.subject, "payload": e.payload}
    return json.dumps({"type": "event", "event": event})


async def _refuse(socket: WebSocket, code: int, reason: str) -> None:
    await socket.accept()
    await socket.close(code=code, reason=reason)


@websocket("/ws/sessions/{session_id:str}")
async def session_socket(socket: WebSocket, session_id: str) -> None:
    svc: Services = socket.app.state.services
    settings = socket.app.state.api_settings
    if not token_ok(socket, settings.token):
        return await _refuse(socket, CLOSE_UNAUTHORIZED, "a valid token is required")
    if not origin_ok(socket.headers.get("origin"), socket.headers.get("host"), settings.allowed_origins):
        return await _refuse(socket, CLOSE_BAD_ORIGIN, "origin not allowed")
    raw_after = socket.query_params.get("after_seq", "0")
    try:
        after_seq = int(raw_after)
        if after_seq < 0:
            raise ValueError
    except ValueError:
        return await _refuse(socket, CLOSE_BAD_REQUEST, "after_seq: must be a non-negative integer")
    queries = svc.app.queries
    try:
        await queries.session(session_id)
    except NotFound:
        return await _refuse(socket, CLOSE_UNKNOWN_SESSION, f"session not found: {session_id}")

    await socket.accept()
    queue: asyncio.Queue = asyncio.Queue()  # events, None (heartbeat tick), _CLOSED

    async def on_event(event: Event) -> None:
        queue.put_nowait(event)

    unsubscribe = svc.app.bus.subscribe(on_event, session_id=session_id)
    last = after_seq
    receiver = ticker = None
    loop = asyncio.get_running_loop()
    sent_at = loop.time()
    try:
        while True:  # the whole backlog, page by page (a 5,000-step walk has ~20,000 events)
            page = await queries.events_after(session_id, last, limit=CATCH_UP_PAGE)
            for e in page:
                await socket.send_text(event_frame(e))
                last = e.seq
            if len(page) < CATCH_UP_PAGE:
                break
        await socket.send_text(json.dumps({"type": "caught_up", "last_seq": last}))
        receiver = asyncio.create_task(_drain_client(socket, queue))
        ticker = asyncio.create_task(_tick(queue, settings.heartbeat_s))
        while not receiver.done():
            # The queue is awaited directly (no wait_for task in between): a published event
            # wakes this loop in the next turn of the event loop.
            event = await queue.get()
            if event is None:
                if receiver.done():
                    break
                if not queue.empty() or loop.time() - sent_at < settings.heartbeat_s * 0.9:
                    continue  # events are flowing: no heartbeat needed
                # A quiet spell: send any tail the bus did not deliver (e.g. events the relay
                # published while this process was reconnecting to NATS) from the outbox.
                for missed in await queries.events_after(session_id, last):
                    await socket.send_text(event_frame(missed))
                    last = missed.seq
                await socket.send_text(json.dumps({"type": "heartbeat", "ts": datetime.now(UTC).isoformat(),
                                                   "last_seq": last}))  # fmt: skip
                continue
            if event is _CLOSED:
                break
            if event.seq <= last:
                continue  # already sent from the backlog
            if event.seq > last + 1:  # a hole: fetch what we missed from the outbox
                for missed in await queries.events_after(session_id, last, limit=event.seq - last - 1):
                    await socket.send_text(event_frame(missed))
                    last = missed.seq
            await socket.send_text(event_frame(event))
            last, sent_at = event.seq, loop.time()
    except (WebSocketDisconnect, ConnectionError, RuntimeError) as exc:
        log.debug("socket for %s closed: %s", session_id, exc)
    finally:
        unsubscribe()
        for task in (receiver, ticker):
            if task is not None:
                task.cancel()


async def _tick(queue: asyncio.Queue, every_s: float) -> None:
    """A None in the queue every heartbeat interval: the loop sends a heartbeat when quiet."""
    while True:
        await asyncio.sleep(every_s)
        queue.put_nowait(None)


async def _drain_client(socket: WebSocket, queue: asyncio.Queue) -> None:
    """Read (and ignore) what the client sends, so a close from its side ends the loop."""
    try:
        while True:
            await socket.receive_data(mode="text")
    except (WebSocketDisconnect, RuntimeError):
        queue.put_nowait(_CLOSED)
