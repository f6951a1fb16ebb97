"""The outbox relay: the only thing that publishes events to NATS.

The engine writes every event to wander_events in the transaction of the change it
reports, then calls ``bus.publish(events)``; with NATS that call only wakes this relay
(``notify``). The relay claims a session's unpublished events in seq order (one relay per
session at a time, under a transaction-level advisory lock), publishes them in seq order
to JetStream with the message id ``<session>:<seq>`` (pipelined: sent together,
acknowledgements awaited in order), and marks what was acknowledged as published in the
same transaction. So:

- an event committed is an event published, sooner or later: nothing is lost between the
  commit and the publish, and with NATS down the events wait in the outbox;
- a crash between the publish and the mark re-publishes, which JetStream drops as a
  duplicate (and any core subscriber, like the WebSocket bridge, drops by seq);
- per session the order on the bus is seq order.

Each process that writes events (API, workers, a CLI run) runs one relay for the sessions
it touches; a periodic sweep also picks up what a crashed process left unpublished.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from contextlib import AbstractAsyncContextManager
from typing import Protocol

from tenacity import AsyncRetrying, retry_if_exception_type, wait_fixed

from wander.core.domain.models import Event

log = logging.getLogger(__name__)


class _Stalled(Exception):
    """NATS or the database is away: the relay waits fail_backoff_s (or a kick) and goes on."""


class Batch(Protocol):
    events: list[Event]
    full: bool

    def published(self, seq: int) -> None: ...


class Outbox(Protocol):
    async def pending_sessions(self, limit: int = 1000) -> list[str]: ...

    def claim(
        self, session_id: str, after_seq: int = 0, limit: int = 500
    ) -> AbstractAsyncContextManager[Batch | None]: ...


Publish = Callable[[Event], Awaitable[None]]


class OutboxRelay:
    def __init__(
        self,
        outbox: Outbox,
        publish: Publish,
        *,
        connected: Callable[[], bool],
        sweep_s: float = 10.0,
        busy_retry_s: float = 0.05,
        fail_backoff_s: float = 1.0,
    ) -> None:
        self.outbox = outbox
        self._publish = publish
        self._connected = connected
        self.sweep_s = sweep_s
        self.busy_retry_s = busy_retry_s
        self.fail_backoff_s = fail_backoff_s
        # Sessions to publish, each with a counter bumped by every notify: a session is done
        # only if nothing was notified for it while its batch was being published.
        self._pending: dict[str, int] = {}
        self._wake = asyncio.Event()
        self._sweep_now = True
        self._next_sweep = 0.0
        self._last: OrderedDict[str, int] = OrderedDict()  # last seq this relay saw marked, per session
        self._task: asyncio.Task[None] | None = None
        self._idle = asyncio.Event()
        self.published = 0  # events published (counting re-publishes)
        self.failures = 0

    # ---- control ---------------------------------------------------------------------

    def notify(self, session_ids: Iterable[str]) -> None:
        """Sessions with new committed events: publish them soon."""
        self._mark(session_ids)
        self._idle.clear()
        self._wake.set()

    def _mark(self, session_ids: Iterable[str]) -> None:
        for sid in session_ids:
            self._pending[sid] = self._pending.get(sid, 0) + 1

    def kick(self, sweep: bool = True) -> None:
        """Look again now (NATS is back): retry what is pending and sweep the outbox."""
        self._sweep_now = self._sweep_now or sweep
        self._wake.set()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._loop(), name="wander-outbox-relay")

    async def flush(self, timeout: float = 5.0) -> bool:
        """Wait until nothing this relay knows of is left unpublished (or the timeout)."""
        try:
            async with asyncio.timeout(timeout):
                while self._pending:
                    self._wake.set()
                    self._idle.clear()
                    await self._idle.wait()
            return True
        except TimeoutError:
            return False

    async def stop(self, flush_timeout: float = 3.0) -> None:
        if self._task is None:
            return
        if self._connected() and self._pending:
            await self.flush(flush_timeout)
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)
        self._task = None

    # ---- the loop --------------------------------------------------------------------

    async def _loop(self) -> None:
        """Rounds until one stalls (NATS away, the database away); then tenacity waits
        fail_backoff_s, or less when notify/kick wakes it, and the rounds go on."""
        retrying = AsyncRetrying(
            retry=retry_if_exception_type(_Stalled), wait=wait_fixed(self.fail_backoff_s), sleep=self._nap
        )
        await retrying(self._rounds)

    async def _rounds(self) -> None:
        while True:
            delay = await self._round()
            await self._nap(delay)

    async def _nap(self, delay: float | None) -> None:
        """Wait for a notify or kick, the next sweep, or `delay` (None: no limit but the sweep)."""
        wait = max(0.0, self._next_sweep - time.monotonic())
        if delay is not None:
            wait = min(wait, delay)
        if not self._wake.is_set():
            self._idle.set()
            try:
                await asyncio.wait_for(self._wake.wait(), timeout=wait)
            except TimeoutError:
                pass
        self._wake.clear()

    async def _round(self) -> float | None:
        """Sweep when due, publish what is pending; the delay before the next round (None:
        until woken or the next sweep). Raises _Stalled when NATS or the database is away."""
        if not self._connected():
            raise _Stalled("NATS is not connected")  # the reconnect callback kicks us sooner
        swept = True
        if self._sweep_now or time.monotonic() >= self._next_sweep:
            self._sweep_now = False
            self._next_sweep = time.monotonic() + self.sweep_s
            try:
                found = await self.outbox.pending_sessions()
                for sid in found:  # look at these from their first unpublished event
                    self._last.pop(sid, None)
                self._mark(found)
            except Exception as exc:  # the database is away: sweep again after the back-off
                log.warning("outbox sweep failed: %s", _short(exc))
                swept = False
                self._next_sweep = time.monotonic() + self.fail_backoff_s
        delay = await self._drain()
        if not swept:
            raise _Stalled("outbox sweep failed")
        return delay

    async def _drain(self) -> float | None:
        """Publish what is pending; the delay before the next try, or None when all done.
        Raises _Stalled when the database or NATS failed: everything waits."""
        retry: float | None = None
        for sid, generation in list(self._pending.items()):
            try:
                state = await self._publish_session(sid)
            except Exception as exc:  # database trouble while claiming: keep it pending
                log.warning("outbox relay: session %s: %s", sid, _short(exc))
                self.failures += 1
                raise _Stalled("claim failed") from exc
            if state == "done":
                if self._pending.get(sid) == generation:  # else: new events came meanwhile
                    del self._pending[sid]
                else:
                    retry = 0.0
            elif state == "more":
                retry = 0.0
            elif state == "busy":  # another relay is on it; look again shortly
                retry = self.busy_retry_s if retry is None else min(retry, self.busy_retry_s)
            else:  # "failed": NATS refused or timed out; everything waits
                self.failures += 1
                raise _Stalled("publish failed")
        return retry

    async def _publish_session(self, sid: str) -> str:
        after = self._last.get(sid, 0)
        failed = False
        async with self.outbox.claim(sid, after_seq=after) as batch:
            if batch is None:
                return "busy"
            last = None
            # Pipelined: every publish of the batch is sent at once, in seq order (each task
            # queues its message before its first wait), and the acknowledgements are awaited
            # in that order; one round trip per batch instead of one per event. What is marked
            # published is the acknowledged prefix; anything after a failure waits in the
            # outbox (re-sent later and, if it did land, dropped by JetStream as a duplicate).
            sends = [asyncio.ensure_future(self._publish(event)) for event in batch.events]
            try:
                for event, sent in zip(batch.events, sends):
                    try:
                        await sent
                    except Exception as exc:
                        log.info("publish of %s:%s failed (%s); it waits in the outbox", sid, event.seq, _short(exc))
                        failed = True
                        break
                    batch.published(event.seq)
                    last = event.seq
                    self.published += 1
            finally:
                for sent in sends:
                    sent.cancel()
                await asyncio.gather(*sends, return_exceptions=True)
            full = batch.full
        if last is not None:  # committed: remember where this session's unpublished events start
            self._last[sid] = last
            self._last.move_to_end(sid)
            while len(self._last) > 10_000:
                self._last.popitem(last=False)
        if failed:
            return "failed"
        return "more" if full else "done"


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"
