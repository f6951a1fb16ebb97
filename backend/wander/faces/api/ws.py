"""WebSocket /ws/sessions/{id}?after_seq=N: every stored event with seq > N from the
outbox, a caught_up frame, then live events from the bus, with no gap and no duplicate
across the hand-over (the bus is subscribed before the backlog is read; anything live at
or below the last sent seq is dropped; a hole in the live stream is filled from the store).

With `&batch=1` the stored events (the backlog, a hole's or a quiet spell's tail) come as
`events` frames of up to BATCH_EVENTS events (about BATCH_BYTES at most) instead of one
`event` frame each: a 5,000-step map's ~5 MB backlog is a handful of frames for the page
to receive and parse, not thousands. Live events still come one `event` frame each.

Hostile or slow clients:
- Back-pressure: each client has a bounded buffer of live events (WANDER_WS_MAX_BUFFER). The
  bus hands events over without ever waiting on a socket, so a client that does not read
  cannot stall the engine or other clients; when its buffer is full it is unsubscribed at
  once and closed with 4408 ("too slow; reconnect with after_seq"), after which a reconnect
  with `after_seq` resumes from the outbox without a gap.
- The socket only listens: text and binary messages from the client are read and ignored;
  one larger than WANDER_WS_MAX_MESSAGE bytes closes the socket with 1009."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from litestar import WebSocket, websocket
from litestar.exceptions import WebSocketDisconnect

from wander.core.domain.errors import NotFound
from wander.core.domain.models import Event
from wander.core.engine.queries import Queries
from wander.faces.api.deps import ApiServices
from wander.faces.api.security import origin_ok, token_ok

log = logging.getLogger(__name__)

CLOSE_UNKNOWN_SESSION = 4404
CLOSE_UNAUTHORIZED = 4401
CLOSE_BAD_ORIGIN = 4403
CLOSE_BAD_REQUEST = 4400
CLOSE_TOO_SLOW = 4408  # the client's buffer of unsent events filled up: reconnect with after_seq
CLOSE_TOO_BIG = 1009  # RFC 6455 "message too big"
CLOSE_GRACE_S = 30.0  # how long a close frame may wait behind unread data before the handler gives up
CATCH_UP_PAGE = 10_000  # events_after's default page size: the backlog's pages grow to it
FIRST_PAGE = 500  # the backlog's first page: its frame leaves soon and the page starts drawing
BATCH_EVENTS = 1000  # at most this many events in one `events` frame
BATCH_BYTES = 1 << 20  # a frame is closed once its events' JSON passes this size
_CLOSED = object()  # the client went away
_TOO_BIG = object()  # the client sent a message over the limit


@dataclass
class SocketStats:
    """Counters of one app's sockets (tests and diagnostics read them)."""

    open: int = 0  # handlers running now
    subscribed: int = 0  # bus subscriptions held now (a dropped client lets go before its close is sent)
    accepted: int = 0
    dropped_slow: int = 0
    closed_too_big: int = 0


def socket_stats(app) -> SocketStats:
    stats = getattr(app.state, "ws_stats", None)
    if stats is None:
        stats = app.state.ws_stats = SocketStats()
    return stats


def event_json(e: Event) -> str:
    """An EventOut of shared_schemas.events; the payload goes out as stored (the engine
    checked it against its model when it made the event)."""
    ts = e.ts.isoformat().replace("+00:00", "Z")
    event = {"session_id": e.session_id, "seq": e.seq, "ts": ts, "subject": e.subject, "payload": e.payload}
    return json.dumps(event)


def event_frame(e: Event) -> str:
    """An EventFrame of shared_schemas.events."""
    return '{"type": "event", "event": ' + event_json(e) + "}"


def events_frames(events: list[Event]) -> list[str]:
    """EventsFrames of shared_schemas.events holding `events` in order: BATCH_EVENTS
    events at most each, and a frame ends once it passes BATCH_BYTES."""
    return frames_of([event_json(e) for e in events])


def frames_of(texts: list[str]) -> list[str]:
    """events_frames over events that are EventOut JSON already."""
    frames: list[str] = []
    part: list[str] = []
    size = 0
    for text in texts:
        part.append(text)
        size += len(text)
        if len(part) >= BATCH_EVENTS or size >= BATCH_BYTES:
            frames.append('{"type": "events", "events": [' + ", ".join(part) + "]}")
            part, size = [], 0
    if part:
        frames.append('{"type": "events", "events": [' + ", ".join(part) + "]}")
    return frames


async def _refuse(socket: WebSocket, code: int, reason: str) -> None:
    await socket.accept()
    await socket.close(code=code, reason=reason)


class _Refusal(Exception):
    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code, self.reason = code, reason


@websocket("/ws/sessions/{session_id:str}")
async def session_socket(socket: WebSocket, session_id: str) -> None:
    svc: ApiServices = socket.app.state.services
    try:
        after_seq, batch = await _admit(socket, svc, session_id)
    except _Refusal as refusal:
        return await _refuse(socket, refusal.code, refusal.reason)
    await _serve(socket, svc, session_id, after_seq, batch)


async def _admit(socket: WebSocket, svc: ApiServices, session_id: str) -> tuple[int, bool]:
    """(after_seq, batch) of a socket that may listen; else _Refusal with the close code."""
    if not token_ok(socket, svc.api.token):
        raise _Refusal(CLOSE_UNAUTHORIZED, "a valid token is required")
    if not origin_ok(socket.headers.get("origin"), socket.headers.get("host"), svc.api.allowed_origins):
        raise _Refusal(CLOSE_BAD_ORIGIN, "origin not allowed")
    raw_after = socket.query_params.get("after_seq", "0")
    try:
        after_seq = int(raw_after)
        if after_seq < 0:
            raise ValueError
    except ValueError:
        raise _Refusal(CLOSE_BAD_REQUEST, "after_seq: must be a non-negative integer") from None
    raw_batch = socket.query_params.get("batch", "0")
    if raw_batch not in ("0", "1"):
        raise _Refusal(CLOSE_BAD_REQUEST, "batch: must be 0 or 1")
    try:
        await svc.queries.session(session_id)
    except NotFound:
        raise _Refusal(CLOSE_UNKNOWN_SESSION, f"session not found: {session_id}") from None
    return after_seq, raw_batch == "1"


async def _serve(socket: WebSocket, svc: ApiServices, session_id: str, after_seq: int, batch: bool) -> None:
    """Accept, subscribe, and send until the client goes, falls too far behind or sends too much."""
    limits = svc.limits
    stats = socket_stats(socket.app)
    await socket.accept()
    stats.accepted += 1
    stats.open += 1
    # Live events, None (a heartbeat tick), _CLOSED or _TOO_BIG. The bound is kept by
    # on_event (ticks and the end markers never count against it).
    queue: asyncio.Queue = asyncio.Queue()
    overflowed = asyncio.Event()

    async def on_event(event: Event) -> None:
        if overflowed.is_set():
            return
        if queue.qsize() >= limits.ws_max_buffer:
            overflowed.set()  # wakes the handler, which stops the sender and closes
            unsubscribe()  # from now on the bus does not even call us
            return
        queue.put_nowait(event)

    bus_unsubscribe: Callable[[], None] | None = svc.bus.subscribe(on_event, session_id=session_id)
    stats.subscribed += 1

    def unsubscribe() -> None:
        nonlocal bus_unsubscribe
        if bus_unsubscribe is not None:
            bus_unsubscribe()
            bus_unsubscribe = None
            stats.subscribed -= 1

    stream = _Stream(socket, svc.queries, session_id, after_seq, batch)
    sender = asyncio.create_task(_send_events(stream, queue, svc.api.heartbeat_s, limits.ws_max_message))
    slow = asyncio.create_task(overflowed.wait())
    try:
        await asyncio.wait({sender, slow}, return_when=asyncio.FIRST_COMPLETED)
        if overflowed.is_set():
            sender.cancel()
            stats.dropped_slow += 1
            log.info("socket for %s dropped: more than %d events unread", session_id, limits.ws_max_buffer)
            await _close(socket, CLOSE_TOO_SLOW, "too slow: event buffer full; reconnect with after_seq")
        elif not sender.cancelled() and sender.result() is _TOO_BIG:
            stats.closed_too_big += 1
            await _close(socket, CLOSE_TOO_BIG, f"messages are limited to {limits.ws_max_message} bytes")
    finally:
        unsubscribe()
        for task in (sender, slow):
            task.cancel()
        await asyncio.gather(sender, slow, return_exceptions=True)
        stats.open -= 1


async def _close(socket: WebSocket, code: int, reason: str) -> None:
    """Send the close frame; it waits for the client to read what is ahead of it, at most
    CLOSE_GRACE_S (then the handler ends and the server closes the transport)."""
    try:
        await asyncio.wait_for(socket.close(code=code, reason=reason), CLOSE_GRACE_S)
    except (TimeoutError, WebSocketDisconnect, OSError, RuntimeError) as exc:
        log.debug("close %d not sent: %r", code, exc)


class _Stream:
    """What one client was sent: stored events (the backlog, a hole's or a quiet spell's tail)
    and live ones, in seq order, `last` the seq of the last one sent."""

    def __init__(self, socket: WebSocket, queries: Queries, session_id: str, after_seq: int, batch: bool) -> None:
        self.socket, self.queries, self.session_id = socket, queries, session_id
        self.last, self.batch = after_seq, batch

    async def send_stored(self, events: list[Event]) -> None:
        """Stored events in seq order: in `events` frames when batching, else one each."""
        if not events:
            return
        if self.batch:
            for frame in events_frames(events):
                await self.socket.send_text(frame)
        else:
            for e in events:
                await self.socket.send_text(event_frame(e))
                self.last = e.seq  # a client that goes away mid-way: `last` is what it was sent
        self.last = events[-1].seq

    async def send_texts(self, rows: list[tuple[int, str]]) -> None:
        """The backlog's events, stored JSON as is (see event_texts_after), like send_stored."""
        if not rows:
            return
        if self.batch:
            for frame in frames_of([text for _, text in rows]):
                await self.socket.send_text(frame)
        else:
            for seq, text in rows:
                await self.socket.send_text('{"type": "event", "event": ' + text + "}")
                self.last = seq
        self.last = rows[-1][0]

    async def backlog(self) -> None:
        """The whole backlog, page by page (a 5,000-step walk has ~20,000 events), then
        caught_up. Pages double from FIRST_PAGE: the client works on the first frames while
        the rest is read and sent. The next page is read while one is sent (the database
        works on it meanwhile: a 20,000-step backlog took the sum of both)."""
        size = FIRST_PAGE
        page = await self.queries.event_texts_after(self.session_id, self.last, limit=size)
        while True:
            ahead = None
            if len(page) == size:
                size = min(CATCH_UP_PAGE, size * 2)
                ahead = asyncio.ensure_future(self.queries.event_texts_after(self.session_id, page[-1][0], limit=size))
            try:
                await self.send_texts(page)
            except BaseException:
                if ahead is not None:
                    ahead.cancel()
                    await asyncio.gather(ahead, return_exceptions=True)
                raise
            if ahead is None:
                break
            page = await ahead
        await self.socket.send_text(json.dumps({"type": "caught_up", "last_seq": self.last}))

    async def heartbeat(self) -> None:
        """A quiet spell: any tail the bus did not deliver (e.g. events the relay published
        while this process was reconnecting to NATS) from the outbox, then a heartbeat."""
        await self.send_stored(await self.queries.events_after(self.session_id, self.last))
        beat = {"type": "heartbeat", "ts": datetime.now(UTC).isoformat(), "last_seq": self.last}
        await self.socket.send_text(json.dumps(beat))

    async def live(self, event: Event) -> bool:
        """A live event, after any hole before it (filled from the outbox); False when it
        was already sent from the backlog."""
        if event.seq <= self.last:
            return False
        if event.seq > self.last + 1:
            hole = await self.queries.events_after(self.session_id, self.last, limit=event.seq - self.last - 1)
            await self.send_stored(hole)
        await self.socket.send_text(event_frame(event))
        self.last = event.seq
        return True


async def _send_events(stream: _Stream, queue: asyncio.Queue, heartbeat_s: float, max_message: int) -> object:
    """The backlog, caught_up, then live events until the client goes away. Returns
    _TOO_BIG when the client sent a message over the limit, else None."""
    receiver = ticker = None
    try:
        await stream.backlog()
        receiver = asyncio.create_task(_drain_client(stream.socket, queue, max_message))
        ticker = asyncio.create_task(_tick(queue, heartbeat_s))
        return await _send_live(stream, queue, receiver, heartbeat_s)
    except (WebSocketDisconnect, OSError, RuntimeError) as exc:  # OSError: uvicorn's ClientDisconnected
        log.debug("socket for %s closed: %s", stream.session_id, exc)
    finally:
        for task in (receiver, ticker):
            if task is not None:
                task.cancel()
    return None


async def _send_live(stream: _Stream, queue: asyncio.Queue, receiver: asyncio.Task, heartbeat_s: float) -> object:
    loop = asyncio.get_running_loop()
    sent_at = loop.time()
    while not receiver.done():
        # The queue is awaited directly (no wait_for task in between): a published event
        # wakes this loop in the next turn of the event loop.
        event = await queue.get()
        if event is None:
            if receiver.done():
                break
            if queue.empty() and loop.time() - sent_at >= heartbeat_s * 0.9:
                await stream.heartbeat()  # a quiet spell (events flowing need no heartbeat)
            continue
        if event is _CLOSED:
            break
        if event is _TOO_BIG:
            return _TOO_BIG
        if await stream.live(event):
            sent_at = loop.time()
    return None


async def _tick(queue: asyncio.Queue, every_s: float) -> None:
    """A None in the queue every heartbeat interval when it is empty: the loop sends a
    heartbeat when quiet (a full queue needs no tick, and must not grow by ticks)."""
    while True:
        await asyncio.sleep(every_s)
        if queue.empty():
            queue.put_nowait(None)


async def _drain_client(socket: WebSocket, queue: asyncio.Queue, max_message: int) -> None:
    """Read and ignore what the client sends (text, binary, garbage), so a close from its
    side ends the loop; a message over max_message bytes ends it with _TOO_BIG."""
    try:
        while True:
            message = await socket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text, raw = message.get("text"), message.get("bytes")
            size = len(text.encode()) if isinstance(text, str) else len(raw) if isinstance(raw, bytes) else 0
            if size > max_message:
                queue.put_nowait(_TOO_BIG)
                return
    except (WebSocketDisconnect, OSError, RuntimeError):
        pass
    queue.put_nowait(_CLOSED)
