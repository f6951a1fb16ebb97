"""What the archivist needs from outside, as ports: the archive store (Postgres in
wander.adapters.postgres.archive_repository) and the projectors (wander.adapters.projection).
The composition root (wander.bootstrap) hands the adapters in."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol

import numpy as np

from wander.core.archive.fit import Projector
from wander.core.domain.models import Event


class ArchiveStore(Protocol):
    """A wander's stored rows, its archive and its projection."""

    async def dump(self, session_id: str) -> dict[str, Any] | None: ...

    async def session_exists(self, session_id: str) -> bool: ...

    async def archive(self, session_id: str) -> Any: ...

    async def save_archive(self, session_id: str, values: dict[str, Any]) -> None: ...

    async def archive_blob(self, session_id: str, column: str) -> Any: ...

    async def list_archives(
        self,
        *,
        vector: np.ndarray | None = None,
        status: str | None = None,
        has_crystals: bool | None = None,
        since: datetime | None = None,
        limit: int = 50,
    ) -> list[Any]: ...

    async def unarchived_finished(self, limit: int = 20) -> list[str]: ...

    async def loci_vectors(self, session_ids: list[str]) -> tuple[list[str], list[str], np.ndarray]: ...

    async def projection(self, session_id: str) -> Any: ...

    async def save_projection(
        self,
        session_id: str,
        fit_id: str,
        method: str,
        points: dict[str, list[float]],
        subject: str,
        payload: dict[str, Any],
    ) -> list[Event]: ...


class Projectors(Protocol):
    """The projector chosen at start-up (WANDER_PROJECTION), for a number of points."""

    name: str

    def for_points(self, n: int | None) -> Projector: ...

    def warm_up(self) -> None:
        """Compile what the first fit would (UMAP's code); called in a background thread."""
        ...
