"""What a step's model helpers (the proposer's analogies and tensions, the rumination before
a crystal) spend, counted into the step's usage beside the dwelling's: a cloud helper is
asked only while the session's cloud budget left covers its estimate (001), and what it
cost is charged to the session like a cloud dwelling.

A helper's answer says what it cost in `spent`: (route, calls, cents) per model asked
(Proposals for the proposer; a rumination reply's `spent`). An answer without it (an
offline helper's) cost nothing."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from wander.core.domain.models import Session

Spent = tuple[str, int, int]  # route (local | cloud), calls, cents


class Proposals(list[str]):
    """Concept names a model proposed, with what asking for them cost."""

    def __init__(self, names: Iterable[str] = (), spent: Iterable[Spent] = ()):
        super().__init__(names)
        self.spent: list[Spent] = list(spent)


@dataclass
class Spend:
    local_calls: int = 0
    cloud_calls: int = 0
    cloud_cents: int = 0

    def add(self, answer: Any) -> None:
        """Count what an answer (Proposals, a rumination reply) says it cost."""
        for route, calls, cents in getattr(answer, "spent", None) or ():
            if route == "cloud":
                self.cloud_calls += int(calls)
                self.cloud_cents += int(cents)
            elif route == "local":
                self.local_calls += int(calls)

    def add_all(self, other: Spend) -> None:
        self.local_calls += other.local_calls
        self.cloud_calls += other.cloud_calls
        self.cloud_cents += other.cloud_cents

    def into(self, usage: dict[str, int]) -> dict[str, int]:
        """A step's usage (local_calls, cloud_calls, cloud_spent_cents) with this spend added."""
        return {
            **usage,
            "local_calls": usage.get("local_calls", 0) + self.local_calls,
            "cloud_calls": usage.get("cloud_calls", 0) + self.cloud_calls,
            "cloud_spent_cents": usage.get("cloud_spent_cents", 0) + self.cloud_cents,
        }


def charged(session: Session, spend: Spend) -> Session:
    """The session as the dwelling must see it: with what the step's helpers spent so far
    counted as spent (a copy when they spent anything), so its budget check covers them."""
    if not spend.cloud_cents:
        return session
    return replace(session, cloud_spent_cents=session.cloud_spent_cents + spend.cloud_cents)


def budget_left(session: Session, spent: int = 0) -> int:
    """Cents of the session's cloud budget left, less `spent` (this step's so far)."""
    return max(0, int(session.cloud_budget_cents) - int(session.cloud_spent_cents) - int(spent))
