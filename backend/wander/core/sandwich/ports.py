"""What the SANDWICH services need from the outside, as Protocols (adapters: store/, kb/)."""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from wander.core.domain.models import Event
from wander.core.sandwich.model import Attempt, Content


class SourceReader(Protocol):
    """Reads a path (file or folder) or URL into contents; raises SourceError when it cannot."""

    def read(self, target: str) -> list[Content]: ...


class SourceError(Exception):
    """A source that cannot be read (missing file, unreachable URL): the message says why."""


class SandwichStore(Protocol):
    async def start_run(self, mode: str, target: str | None, patience: int) -> tuple[str, list[Event]]: ...

    async def finish_run(self, run_id: str, status: str, summary: dict[str, Any]) -> list[Event]: ...

    async def recent_content_vectors(self, limit: int) -> np.ndarray: ...

    async def seen_content(self, content_hash: str) -> bool: ...

    async def filling_vectors(self) -> np.ndarray: ...

    async def record_attempt(
        self, run_id: str, attempt: Attempt, content_vector: np.ndarray | None, events: list[dict[str, Any]]
    ) -> tuple[str | None, list[Event]]: ...
