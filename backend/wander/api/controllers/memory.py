"""Memory inspection (000): loci, a locus with its connections, the trace, resonances, crystals."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, get
from litestar.params import Parameter

from shared_schemas.models import Connection, CrystalOut, LocusDetail, LocusOut, ResonanceOut, TraceStep
from wander.api.controllers.sessions import load_session
from wander.api.convert import crystal_out, locus_out, resonance_out, step_residue_out, trace_step
from wander.api.deps import Services
from wander.domain.errors import NotFound


class MemoryController(Controller):
    path = "/api/v1/wander/sessions/{session_id:str}"
    tags = ["memory"]

    @get("/loci")
    async def loci(
        self,
        session_id: str,
        svc: Services,
        visited: bool | None = None,
        min_interestingness: Annotated[float | None, Parameter(ge=0, le=1)] = None,
    ) -> list[LocusOut]:
        await load_session(svc, session_id)
        rows = await svc.app.store.loci(session_id, visited=visited, min_interestingness=min_interestingness)
        return [locus_out(lo) for lo in rows]

    @get("/loci/{locus_id:str}")
    async def locus(self, session_id: str, locus_id: str, svc: Services) -> LocusDetail:
        await load_session(svc, session_id)
        lo = await svc.app.store.locus(session_id, locus_id)
        if lo is None:
            raise NotFound("locus", locus_id)
        steps = await svc.app.store.locus_steps(locus_id)
        connections = []
        for s in steps:
            if s.to_locus_id == lo.id and s.from_locus_id:
                connections.append(Connection(locus_id=s.from_locus_id, concept=s.from_concept,
                                              direction="from", step_number=s.step_number))  # fmt: skip
            elif s.from_locus_id == lo.id:
                connections.append(Connection(locus_id=s.to_locus_id, concept=s.to_concept,
                                              direction="to", step_number=s.step_number))  # fmt: skip
        arrival = next((s for s in steps if s.to_locus_id == lo.id), None)
        return LocusDetail(
            **locus_out(lo).model_dump(), session_id=lo.session_id, first_encountered=lo.first_encountered,
            last_visited=lo.last_visited, adjacent_to=lo.adjacent_to, connections=connections,
            arrived_by=step_residue_out(arrival) if arrival else None,
        )  # fmt: skip

    @get("/trace")
    async def trace(self, session_id: str, svc: Services) -> list[TraceStep]:
        await load_session(svc, session_id)
        return [trace_step(r) for r in await svc.app.store.trace(session_id)]

    @get("/resonances")
    async def resonances(self, session_id: str, svc: Services) -> list[ResonanceOut]:
        await load_session(svc, session_id)
        return [resonance_out(r) for r in await svc.app.store.find_resonances(session_id=session_id)]

    @get("/crystals")
    async def crystals(self, session_id: str, svc: Services) -> list[CrystalOut]:
        await load_session(svc, session_id)
        return [crystal_out(c) for c in await svc.app.store.find_crystals(session_id=session_id)]
