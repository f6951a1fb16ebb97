"""Wiring for scale-out (part of the composition root): with WANDER_NATS_URL set, the
EventBus is NATS (events published by the outbox relay), runs go through the JetStream
work queue, and `wander worker` processes run them. Without it nothing here is used."""

from __future__ import annotations

import logging
import os
import socket
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncEngine

from wander.adapters.bus.nats import NatsBus, NatsClient, NatsRunQueue, NatsSettings
from wander.adapters.bus.relay import OutboxRelay
from wander.adapters.postgres.outbox import PostgresOutbox
from wander.bootstrap.settings import NatsSettingsSection

log = logging.getLogger(__name__)


@dataclass
class Scale:
    settings: NatsSettings
    client: NatsClient
    relay: OutboxRelay
    bus: NatsBus
    queue: NatsRunQueue

    async def close(self) -> None:
        await self.queue.close()
        await self.relay.stop()
        await self.client.close()


def nats_settings(section: NatsSettingsSection) -> NatsSettings | None:
    """The NATS adapter's settings from its section; None without WANDER_NATS_URL: everything
    stays in-process (the embedded default)."""
    if section.url is None:
        return None
    return NatsSettings(
        url=section.url,
        ack_wait_s=section.run_ack_wait_s,
        events_max_age_s=section.events_max_age_s,
        relay_sweep_s=section.relay_sweep_s,
        relay_horizon_s=section.relay_horizon_s,
    )


def process_name(role: str) -> str:
    return f"wander-{role}@{socket.gethostname()}:{os.getpid()}"


async def open_scale(
    db: AsyncEngine, settings: NatsSettings, *, role: str = "app", connect_wait_s: float = 5.0
) -> Scale:
    """Connect to NATS (in the background if it is not there yet) and start the relay."""
    client = NatsClient(settings, name=process_name(role))
    horizon = timedelta(seconds=settings.relay_horizon_s)
    relay = OutboxRelay(
        PostgresOutbox(db, horizon=horizon),
        client.publish_event,
        connected=lambda: client.is_connected,
        sweep_s=settings.relay_sweep_s,
    )

    async def kick() -> None:
        relay.kick()

    client.on_connect(kick)
    bus = NatsBus(client, relay.notify)
    queue = NatsRunQueue(client)
    client.start()
    relay.start()
    if not await client.wait_connected(connect_wait_s):
        log.warning("NATS at %s not reachable yet; going on (events wait in the outbox)", settings.url)
    return Scale(settings, client, relay, bus, queue)
