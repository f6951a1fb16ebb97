"""Settings read from WANDER_* environment variables (every one is listed in the README)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


def _default_home() -> Path:
    # As root, pgserver opens read permission on every parent of its data folder, so the
    # default must never sit under a home directory.
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return Path("/var/lib/wander")
    from platformdirs import user_data_dir

    return Path(user_data_dir("wander"))


@dataclass(frozen=True)
class Settings:
    home: Path
    database_url: str | None
    embed_dim: int
    ca_backend: str  # auto | numpy | cupy
    log_level: str

    @property
    def pg_dir(self) -> Path:
        return self.home / "pg"

    @property
    def memory_dir(self) -> Path:
        return self.home / "memory"

    @property
    def cache_dir(self) -> Path:
        return self.home / "cache"


def load_settings(env: dict[str, str] | None = None) -> Settings:
    env = dict(os.environ if env is None else env)
    home = Path(env["WANDER_HOME"]).expanduser() if env.get("WANDER_HOME") else _default_home()
    return Settings(
        home=home,
        database_url=env.get("WANDER_DATABASE_URL") or None,
        embed_dim=int(env.get("WANDER_EMBED_DIM", "384")),
        ca_backend=env.get("WANDER_CA_BACKEND", "auto").lower(),
        log_level=env.get("WANDER_LOG_LEVEL", "WARNING").upper(),
    )
