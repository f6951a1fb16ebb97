"""Manual intervention (000): inject, fence, crystallize now; and sub-wanders ("go deeper")."""

from __future__ import annotations

from litestar import Controller, delete, get, post

from shared_schemas.models import CrystallizeOut, FenceRequest, InjectRequest, SessionOut, SubwanderRequest
from wander.core.engine.service import Interventions
from wander.faces.api.controllers.sessions import load_session
from wander.faces.api.deps import Services
from wander.faces.wire import crystal_out, session_out


class InterventionController(Controller):
    path = "/api/v1/wander/sessions/{session_id:str}"
    tags = ["intervention"]

    @post("/inject", status_code=200)
    async def inject(self, session_id: str, data: InjectRequest, svc: Services) -> SessionOut:
        """force_visit: the next step goes to the concept; otherwise it is planted as a locus."""
        s = await Interventions(svc.app.engine).inject(session_id, data.concept, data.force_visit)
        return session_out(s, svc.runner.is_running(session_id))

    @post("/fence", status_code=200)
    async def fence(self, session_id: str, data: FenceRequest, svc: Services) -> SessionOut:
        s = await Interventions(svc.app.engine).fence(session_id, data.concept, data.action)
        return session_out(s, svc.runner.is_running(session_id))

    @delete("/fence", status_code=200)
    async def unfence(self, session_id: str, concept: str, svc: Services) -> SessionOut:
        """Remove the fence anchor named `concept` (query parameter)."""
        s = await Interventions(svc.app.engine).unfence(session_id, concept)
        return session_out(s, svc.runner.is_running(session_id))

    @post("/crystallize", status_code=200)
    async def crystallize(self, session_id: str, svc: Services) -> CrystallizeOut:
        await load_session(svc, session_id)
        outcome = await Interventions(svc.app.engine).crystallize(session_id)
        return CrystallizeOut(
            crystal=crystal_out(outcome.crystal) if outcome.crystal else None,
            outcome=outcome.reason,
            rumination_steps=len(outcome.rumination.steps),
        )

    @post("/loci/{locus_id:str}/subwander", status_code=201)
    async def subwander(self, session_id: str, locus_id: str, data: SubwanderRequest, svc: Services) -> SessionOut:
        child = await Interventions(svc.app.engine).spawn(
            session_id, locus_id, data.max_steps, data.budget_share, data.random_seed
        )
        return session_out(child, False)

    @get("/children")
    async def children(self, session_id: str, svc: Services) -> list[SessionOut]:
        return [session_out(s, svc.runner.is_running(s.id)) for s in await svc.app.queries.children(session_id)]
