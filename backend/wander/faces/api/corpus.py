"""The SANDWICH corpus as the sandwich controllers use it: the repository, the wanders'
crystals brought in as sandwiches before a read, the reports and the forager, over the
services the composition root opened (wander.bootstrap.foraging)."""

from __future__ import annotations

from typing import Any

from wander.bootstrap.foraging import ask_corpus, corpus_report, explanation, make_forager, sync_crystals
from wander.bootstrap.wiring import Services
from wander.core.sandwich.forager import Forager


class SandwichCorpus:
    def __init__(self, wired: Services) -> None:
        self._wired = wired
        self.repo = wired.sandwiches

    async def sync(self) -> int:
        """Store the crystals not yet sandwiches (a read of the corpus sees them all)."""
        return await sync_crystals(self._wired.sandwiches, self._wired.embedder)

    async def report(self) -> dict[str, Any]:
        return await corpus_report(self._wired)

    async def ask(self, question: str) -> dict[str, Any]:
        return await ask_corpus(self._wired, question)

    async def explain(self) -> dict[str, Any]:
        return await explanation(self._wired)

    def forager(self, seed: int | None, *, beyond_loopback: bool) -> Forager:
        return make_forager(self._wired, seed, beyond_loopback=beyond_loopback)
