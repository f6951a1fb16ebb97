"""The sections of the server and its processes: the database, the API, NATS and the workers."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import field_validator

from wander.bootstrap.settings.fields import Section
from wander.bootstrap.settings.fields import var as _var


class DatabaseSettings(Section):
    url: str | None = _var(
        "WANDER_DATABASE_URL",
        None,
        "any Postgres with pgvector, `postgresql://user:pass@host:5432/db`",
        shown="unset: embedded Postgres in `WANDER_HOME/pg`",
    )
    embed_dim: int = _var(
        "WANDER_EMBED_DIM",
        384,
        "the embedding dimension of the vector columns (follows the embedder; checked against it when the app opens)",
        ge=1,
    )


RATE_PERIODS = {"second": 1.0, "minute": 60.0, "hour": 3600.0}


def parse_rate(text: str) -> tuple[int, float] | None:
    """`N/second|minute|hour` as (N, period in seconds); `0` (or `0/...`) as None: no limit."""
    count, _, unit = text.strip().lower().partition("/")
    unit = unit.strip() or ("minute" if count.strip() == "0" else "")
    if not count.strip().isdigit() or unit not in RATE_PERIODS:
        raise ValueError("must be N/second, N/minute or N/hour, or 0 for no limit")
    n = int(count)
    return (n, RATE_PERIODS[unit]) if n > 0 else None


class ApiSettingsSection(Section):
    token: str | None = _var(
        "WANDER_API_TOKEN", None, "bearer token the API requires; mandatory to bind beyond loopback", shown="unset"
    )
    allowed_origins: tuple[str, ...] = _var(
        "WANDER_ALLOWED_ORIGINS",
        (),
        "extra browser origins (comma-separated) allowed on the WebSocket and by CORS",
        shown="unset",
    )
    ws_heartbeat_s: float = _var(
        "WANDER_WS_HEARTBEAT_S", 15.0, "seconds between WebSocket heartbeats when no event flows", gt=0
    )
    ws_max_buffer: int = _var(
        "WANDER_WS_MAX_BUFFER",
        1024,
        "events held for one WebSocket client that does not read; when full the client is dropped "
        "with close code 4408 (it reconnects with `after_seq` and loses nothing)",
        ge=1,
    )
    ws_max_message: int = _var(
        "WANDER_WS_MAX_MESSAGE",
        65_536,
        "largest message in bytes a client may send on the WebSocket (it only listens; "
        "a larger one closes the socket with 1009)",
        ge=1,
    )

    max_body_bytes: int = _var(
        "WANDER_API_MAX_BODY_BYTES",
        1_048_576,
        "largest request body in bytes; a larger one is answered 413 before it is read whole",
        ge=1,
    )
    rate_limit: str = _var(
        "WANDER_API_RATE_LIMIT",
        "60/minute",
        "session creates, steps, runs and forage runs per client address when the server binds beyond "
        "loopback: `N/second`, `N/minute` or `N/hour` (`0`: off); over it a client gets 429 with "
        "Retry-After. Never applied on loopback",
    )
    forage_roots: tuple[Path, ...] = _var(
        "WANDER_FORAGE_ROOTS",
        (),
        "folders (separated by `:`) the API's `POST /api/v1/sandwich/forage` may read a `source` path from; "
        "paths elsewhere, with `..`, or through a symbolic link leading out are refused (the CLI is not confined)",
        shown="`WANDER_HOME/forage`",
    )

    @field_validator("allowed_origins", mode="before")
    @classmethod
    def _split(cls, v: Any) -> Any:
        return tuple(o.strip() for o in v.split(",") if o.strip()) if isinstance(v, str) else v

    @field_validator("forage_roots", mode="before")
    @classmethod
    def _paths(cls, v: Any) -> Any:
        return tuple(Path(p.strip()) for p in v.split(os.pathsep) if p.strip()) if isinstance(v, str) else v

    @field_validator("rate_limit")
    @classmethod
    def _rate(cls, v: str) -> str:
        parse_rate(v)  # raises ValueError naming the form
        return v.strip().lower()


class NatsSettingsSection(Section):
    url: str | None = _var(
        "WANDER_NATS_URL", None, "turns on scale-out; unset keeps everything in-process", shown="unset"
    )
    run_ack_wait_s: float = _var(
        "WANDER_RUN_ACK_WAIT_S", 30.0, "a run that stops reporting progress this long goes to another worker", gt=0
    )
    events_max_age_s: float = _var(
        "WANDER_NATS_EVENTS_MAX_AGE_S", 86_400.0, "how long the event stream keeps events", gt=0
    )
    relay_sweep_s: float = _var(
        "WANDER_RELAY_SWEEP_S", 10.0, "how often each process looks for events a crashed process left unpublished", gt=0
    )
    relay_horizon_s: float = _var(
        "WANDER_RELAY_HORIZON_S", 86_400.0, "older unpublished events are never relayed", gt=0
    )

    @field_validator("url")
    @classmethod
    def _strip(cls, v: str | None) -> str | None:
        return (v or "").strip() or None


class WorkerSettingsSection(Section):
    id: str | None = _var("WANDER_WORKER_ID", None, "recorded on every step a worker runs", shown="host-pid-random")
    concurrency: int = _var("WANDER_WORKER_CONCURRENCY", 1, "runs per worker at a time")
    run_max_attempts: int = _var(
        "WANDER_RUN_MAX_ATTEMPTS",
        5,
        "deliveries of a failing run request before it is dropped (the target stays in the session row)",
    )
    threads: int = _var("WANDER_WORKER_THREADS", 1, "math threads per worker")
    health_file: Path | None = _var(
        "WANDER_WORKER_HEALTH_FILE",
        None,
        "a file the worker touches while alive (container health checks)",
        shown="unset",
    )
