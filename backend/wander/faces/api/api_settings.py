"""The settings one API server is made with (`wander serve`, the tests' servers)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from wander.bootstrap.settings import load_settings


@dataclass(frozen=True)
class ApiSettings:
    token: str | None = None
    heartbeat_s: float = 15.0
    allowed_origins: tuple[str, ...] = field(default_factory=tuple)
    resume_interrupted: bool = True
    umap_warm_up: bool = False  # compile UMAP in the background at start (`wander serve`: on; WANDER_UMAP_WARMUP=0)
    host: str = "127.0.0.1"  # the address the server binds (`wander serve --host`): beyond loopback, rate limits
    max_body_bytes: int = 1_048_576  # WANDER_API_MAX_BODY_BYTES
    rate_limit: str = "60/minute"  # WANDER_API_RATE_LIMIT; applied only beyond loopback
    forage_roots: tuple[Path, ...] = ()  # where POST /sandwich/forage may read a `source` path (none: nowhere)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, *, host: str = "127.0.0.1") -> ApiSettings:
        s = load_settings(env)
        a = s.api
        return cls(
            token=a.token or None,
            heartbeat_s=a.ws_heartbeat_s,
            allowed_origins=a.allowed_origins,
            umap_warm_up=s.archive.umap_warmup,
            host=host,
            max_body_bytes=a.max_body_bytes,
            rate_limit=a.rate_limit,
            forage_roots=s.forage_roots,
        )
