"""Memory inspection (000): loci, a locus with its connections, the trace, resonances, crystals."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, get
from litestar.params import Parameter

from shared_schemas.models import Connection, CrystalOut, LocusDetail, LocusOut, ResonanceOut, TraceStep
from wander.core.engine.queries import Queries
from wander.faces.wire import crystal_out, locus_out, resonance_out, step_residue_out, trace_step


class MemoryController(Controller):
    path = "/api/v1/wander/sessions/{session_id:str}"
    tags = ["memory"]

    @get("/loci")
    async def loci(
        self,
        session_id: str,
        queries: Queries,
        visited: bool | None = None,
        min_interestingness: Annotated[float | None, Parameter(ge=0, le=1)] = None,
    ) -> list[LocusOut]:
        rows = await queries.loci(session_id, visited=visited, min_interestingness=min_interestingness)
        return [locus_out(lo) for lo in rows]

    @get("/loci/{locus_id:str}")
    async def locus(self, session_id: str, locus_id: str, queries: Queries) -> LocusDetail:
        detail = await queries.locus(session_id, locus_id)
        lo, steps = detail.locus, detail.steps
        connections = []
        for s in steps:
            if s.to_locus_id == lo.id and s.from_locus_id:
                connections.append(
                    Connection(
                        locus_id=s.from_locus_id, concept=s.from_concept, direction="from", step_number=s.step_number
                    )
                )
            elif s.from_locus_id == lo.id:
                connections.append(
                    Connection(locus_id=s.to_locus_id, concept=s.to_concept, direction="to", step_number=s.step_number)
                )
        arrival = next((s for s in steps if s.to_locus_id == lo.id), None)
        return LocusDetail(
            **locus_out(lo).model_dump(),
            session_id=lo.session_id,
            first_encountered=lo.first_encountered,
            last_visited=lo.last_visited,
            adjacent_to=lo.adjacent_to,
            bridges_to=detail.bridges,
            contradicts=detail.contradictions,
            connections=connections,
            arrived_by=step_residue_out(arrival) if arrival else None,
            arrived_why=_why(arrival.selection_scores) if arrival else None,
        )

    @get("/trace")
    async def trace(self, session_id: str, queries: Queries) -> list[TraceStep]:
        return [trace_step(r) for r in await queries.trace(session_id)]

    @get("/resonances")
    async def resonances(self, session_id: str, queries: Queries) -> list[ResonanceOut]:
        return [resonance_out(r) for r in await queries.resonances(session_id=session_id)]

    @get("/crystals")
    async def crystals(self, session_id: str, queries: Queries) -> list[CrystalOut]:
        return [crystal_out(c) for c in await queries.crystals(session_id=session_id)]


def _why(scores: dict | None) -> str | None:
    """'bridge (bridging)': why the step was chosen and the strategy that put it forward."""
    scores = scores or {}
    why, strategy = scores.get("why"), scores.get("strategy")
    if not why:
        return str(strategy) if strategy else None
    return f"{why} ({strategy})" if strategy and strategy != why else str(why)
