"""The JetStream work queue of wander runs: the API enqueues, workers pull deliveries to
ack, nak, keep in progress or terminate."""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any

from nats.aio.msg import Msg
from nats.errors import TimeoutError as NatsTimeoutError
from nats.js.api import (
    AckPolicy,
    ConsumerConfig,
)
from nats.js.errors import BadRequestError
from tenacity import (
    AsyncRetrying,
    retry_if_result,
    wait_fixed,
)

from wander.adapters.bus import subjects
from wander.adapters.bus.nats.client import NatsClient

log = logging.getLogger(__name__)


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
