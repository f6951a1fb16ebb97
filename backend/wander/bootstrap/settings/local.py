"""The sections of what stays on this machine: Wander's folders and log level, the CA memory,
the archive's projection."""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import field_validator

from wander.bootstrap.settings.fields import Section
from wander.bootstrap.settings.fields import var as _var


class CaSettings(Section):
    backend: str = _var(
        "WANDER_CA_BACKEND",
        "auto",
        "CA kernel array module: `auto` (CuPy on a CUDA device, else NumPy), `numpy`, `cupy` (checked by wander.adapters.ca.xp)",
    )
    memory_capacity: str = _var(
        "WANDER_MEMORY_CAPACITY",
        "",
        "Wheeler CA memories kept before the coldest 10% are evicted (checked by wander.adapters.ca.wheeler_memory)",
        shown="`1000`",
    )

    @field_validator("backend")
    @classmethod
    def _lower(cls, v: str) -> str:
        return v.lower()


class ArchiveSettings(Section):
    projection: str = _var(
        "WANDER_PROJECTION", "umap", "how loci are projected to 2-D: `umap` (umap-learn; PCA below 12 loci) or `pca`"
    )
    refit_every: int = _var(
        "WANDER_PROJECTION_REFIT_EVERY",
        25,
        "steps between background refits of a running wander's projection (0: only on pause and completion)",
        ge=0,
    )
    umap_warmup: bool = _var(
        "WANDER_UMAP_WARMUP",
        True,
        "`wander serve` compiles UMAP in the background at start (`0`: on first use)",
        shown="`1`",
    )

    @field_validator("projection")
    @classmethod
    def _method(cls, v: str) -> str:
        if v.lower() not in ("umap", "pca"):
            raise ValueError("must be umap or pca")
        return v.lower()


class CoreSettings(Section):
    home: Path | None = _var(
        "WANDER_HOME",
        None,
        "Wander's data folder: the embedded Postgres (`pg/`), the CA memory (`memory/`), caches",
        shown="`/var/lib/wander` as root, else the user data dir (`~/.local/share/wander`)",
    )
    log_level: str = _var("WANDER_LOG_LEVEL", "WARNING", "Python log level")
    cache: Path | None = _var(
        "WANDER_CACHE_DIR",
        None,
        "what Wander derives and keeps between runs (the corpus's domain neighbourhoods, compiled UMAP code); "
        "safe to delete",
        shown="`WANDER_HOME/cache`",
    )
    vector_cache: str | None = _var(
        "WANDER_VECTOR_CACHE",
        None,
        "where corpus vectors the shipped file lacks (another embedder, changed texts) are kept once per "
        "machine, shared by every `WANDER_HOME` (a new one reads them instead of embedding again); `off`: "
        "embed for each database",
        shown="the user cache dir (`~/.cache/wander/vectors`)",
    )

    @field_validator("log_level")
    @classmethod
    def _upper(cls, v: str) -> str:
        return v.upper()


def default_home() -> Path:
    # As root, pgserver opens read permission on every parent of its data folder, so the
    # default must never sit under a home directory.
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return Path("/var/lib/wander")
    from platformdirs import user_data_dir

    return Path(user_data_dir("wander"))
