"""A forage run's summary (what it reports), its state while it runs, and its arguments'
checks."""

from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from wander.core.domain.errors import InvalidInput
from wander.core.sandwich.model import REST, Attempt, Content


@dataclass
class RunSummary:
    run_id: str
    mode: str
    attempts: int = 0
    made: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    sandwich_ids: list[str] = field(default_factory=list)
    status: str = "completed"
    farewell: str = REST


@dataclass
class RunState:
    """One run's state: its summary, what is left of its patience and wandering budget, the
    contents waiting to be attempted and the links followed."""

    summary: RunSummary
    patience: int
    max_attempts: int
    max_depth: int
    budget: int
    on_attempt: Callable[[Attempt], Awaitable[None] | None] | None
    frontier: deque[tuple[Content, int, str | None]]
    followed: set[str] = field(default_factory=set)
    left: int = 0

    def __post_init__(self) -> None:
        self.left = self.patience

    async def report(self, attempt: Attempt) -> None:
        if self.on_attempt is not None:
            maybe = self.on_attempt(attempt)
            if maybe is not None:
                await maybe


def check_run(
    patience: int, max_attempts: int, source: str | None, topic: str | None, max_depth: int, budget: int
) -> tuple[int, int]:
    """A run's arguments checked, each by name; returns the depth and the pages to wander."""
    if isinstance(patience, bool) or not isinstance(patience, int) or not 1 <= patience <= 100:
        raise InvalidInput("patience", f"must be an integer between 1 and 100 (got {patience})")
    if not 1 <= max_attempts <= 10_000:
        raise InvalidInput("max_attempts", f"must be between 1 and 10000 (got {max_attempts})")
    if source is not None and topic is not None:
        raise InvalidInput("from", "give a path/URL or a topic, not both")
    if not 0 <= max_depth <= 5:
        raise InvalidInput("depth", f"must be between 0 and 5 (got {max_depth})")
    if not 0 <= budget <= 200:
        raise InvalidInput("pages", f"must be between 0 and 200 (got {budget})")
    return max_depth, budget
