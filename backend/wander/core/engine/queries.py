"""The read side the faces (API, CLI, MCP) use: sessions, loci, the trace, findings and
search, with the not-found and status rules in one place (the settings a person may change
are session_settings.py). Nothing here steps a wander (that is service.WanderEngine)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from wander.core.domain.errors import InvalidInput, NotFound
from wander.core.domain.models import (
    Crystal,
    CrystalStatus,
    Event,
    Locus,
    Resonance,
    ResonanceStatus,
    Session,
    SessionStatus,
)
from wander.core.domain.views import SimilarItem, StepView
from wander.core.engine import connections
from wander.core.engine.ports import Embedder, Knowledge, ReadStore

SEARCH_TYPES = ("locus", "crystal", "resonance")


def check_status(field: str, value: str | None, enum: Any) -> str | None:
    """None, or one of the enum's values; InvalidInput naming the field otherwise."""
    if value is not None and value not in {s.value for s in enum}:
        raise InvalidInput(field, f"must be one of {', '.join(s.value for s in enum)} (got '{value}')")
    return value


@dataclass(frozen=True)
class LocusDetail:
    locus: Locus
    steps: list[StepView]  # the steps that arrived at or left it, in order
    # its bridges and contradictions both ways: its own, then those other loci learned toward it
    bridges: list[dict[str, Any]] = field(default_factory=list)
    contradictions: list[dict[str, Any]] = field(default_factory=list)


class Queries:
    def __init__(
        self,
        store: ReadStore,
        embedder: Embedder | None = None,
        knowledge: Knowledge | None = None,
        project_id: str | None = None,
    ):
        self.store = store
        self.embedder = embedder
        self.knowledge = knowledge
        self.project_id = project_id

    def check_project(self, project_id: str | None) -> None:
        if project_id is not None and project_id != self.project_id:
            raise InvalidInput("project_id", "unknown project")

    async def session(self, session_id: str) -> Session:
        session = await self.store.get_session(session_id)
        if session is None:
            raise NotFound("session", session_id)
        return session

    async def sessions(
        self, status: str | None = None, limit: int = 50, offset: int = 0, project_id: str | None = None
    ) -> tuple[list[Session], int]:
        """A page of sessions, newest first, and how many there are in all."""
        check_status("status", status, SessionStatus)
        self.check_project(project_id)
        rows = await self.store.list_sessions(status=status, limit=limit, offset=offset)
        return rows, await self.store.count_sessions(status=status)

    async def children(self, session_id: str) -> list[Session]:
        await self.session(session_id)
        return await self.store.children(session_id)

    async def loci(
        self, session_id: str, visited: bool | None = None, min_interestingness: float | None = None
    ) -> list[Locus]:
        await self.session(session_id)
        return await self.store.loci(session_id, visited=visited, min_interestingness=min_interestingness)

    async def locus(self, session_id: str, locus_id: str) -> LocusDetail:
        await self.session(session_id)
        locus = await self.store.locus(session_id, locus_id)
        if locus is None:
            raise NotFound("locus", locus_id)
        bridges, contradictions = connections.both_ways(locus, await self.store.linked_to(session_id, locus_id))
        return LocusDetail(locus, await self.store.locus_steps(locus_id), bridges, contradictions)

    async def trace(self, session_id: str) -> list[StepView]:
        await self.session(session_id)
        return await self.store.trace(session_id)

    async def resonances(self, session_id: str | None = None, status: str | None = None) -> list[Resonance]:
        if session_id is not None:
            await self.session(session_id)
        check_status("status", status, ResonanceStatus)
        return await self.store.find_resonances(session_id=session_id, status=status)

    async def crystals(
        self, session_id: str | None = None, status: str | None = None, min_confidence: float | None = None
    ) -> list[Crystal]:
        if session_id is not None:
            await self.session(session_id)
        check_status("status", status, CrystalStatus)
        return await self.store.find_crystals(session_id=session_id, status=status, min_confidence=min_confidence)

    async def crystal(self, crystal_id: str) -> Crystal:
        found = await self.store.find_crystals(crystal_id=crystal_id)
        if not found:
            raise NotFound("crystal", crystal_id)
        return found[0]

    async def search(self, query: str, types: list[str], limit: int) -> list[SimilarItem]:
        """Semantic search; the query is embedded in a thread (MiniLM is synchronous)."""
        assert self.embedder is not None and self.project_id is not None
        vector = (await asyncio.to_thread(self.embedder.embed, [query]))[0]
        return await self.store.search(self.project_id, vector, list(types), limit)

    async def events_after(self, session_id: str, after_seq: int = 0, limit: int = 10_000) -> list[Event]:
        return await self.store.events_after(session_id, after_seq, limit)

    async def event_texts_after(
        self, session_id: str, after_seq: int = 0, limit: int = 10_000
    ) -> list[tuple[int, str]]:
        """The same events as (seq, EventOut JSON): what a WebSocket's catch-up sends."""
        return await self.store.event_texts_after(session_id, after_seq, limit)

    async def delete(self, session_id: str) -> None:
        await self.session(session_id)
        await self.store.delete_session(session_id)
