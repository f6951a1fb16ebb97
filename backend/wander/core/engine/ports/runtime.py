"""The clock, the event bus and the cellular automaton's signal."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import Protocol

import numpy as np

from wander.core.domain.models import Event


class Clock(Protocol):
    def now(self) -> datetime: ...


class EventBus(Protocol):
    async def publish(self, events: Sequence[Event]) -> None: ...

    def subscribe(
        self, handler: Callable[[Event], Awaitable[None]], session_id: str | None = None
    ) -> Callable[[], None]:
        """Register a handler; returns a function that unsubscribes it."""
        ...


class CASignal(Protocol):
    @property
    def state(self) -> str: ...  # CONVERGED | OSCILLATING | CHAOTIC

    @property
    def adjustment(self) -> float: ...  # added to a locus's uncertainty

    @property
    def needs_rephrasing(self) -> bool: ...

    @property
    def outcome(self) -> str: ...  # the rotation retry's: CONVERGED | FAILED_ALL_ROTATIONS


class CAKernel(Protocol):
    """The Wheeler cellular automaton as an epistemic signal on a locus's text."""

    def signal(self, text: str, embedding: np.ndarray | None = None) -> CASignal: ...
