"""Manual intervention (000): inject, fence, crystallize now; and sub-wanders ("go deeper")."""

from __future__ import annotations

from litestar import Controller, delete, get, post

from shared_schemas.models import CrystallizeOut, FenceRequest, InjectRequest, SessionOut, SubwanderRequest
from wander.core.engine.queries import Queries
from wander.core.engine.service import Interventions, WanderEngine
from wander.faces.api.deps import Runs
from wander.faces.wire import crystal_out, session_out


class InterventionController(Controller):
    path = "/api/v1/wander/sessions/{session_id:str}"
    tags = ["intervention"]

    @post("/inject", status_code=200)
    async def inject(self, session_id: str, data: InjectRequest, engine: WanderEngine, runner: Runs) -> SessionOut:
        """force_visit: the next step goes to the concept; otherwise it is planted as a locus."""
        s = await Interventions(engine).inject(session_id, data.concept, data.force_visit)
        return session_out(s, runner.is_running(session_id))

    @post("/fence", status_code=200)
    async def fence(self, session_id: str, data: FenceRequest, engine: WanderEngine, runner: Runs) -> SessionOut:
        s = await Interventions(engine).fence(session_id, data.concept, data.action)
        return session_out(s, runner.is_running(session_id))

    @delete("/fence", status_code=200)
    async def unfence(self, session_id: str, concept: str, engine: WanderEngine, runner: Runs) -> SessionOut:
        """Remove the fence anchor named `concept` (query parameter)."""
        s = await Interventions(engine).unfence(session_id, concept)
        return session_out(s, runner.is_running(session_id))

    @post("/crystallize", status_code=200)
    async def crystallize(self, session_id: str, queries: Queries, engine: WanderEngine) -> CrystallizeOut:
        await queries.session(session_id)
        outcome = await Interventions(engine).crystallize(session_id)
        return CrystallizeOut(
            crystal=crystal_out(outcome.crystal) if outcome.crystal else None,
            outcome=outcome.reason,
            rumination_steps=len(outcome.rumination.steps),
        )

    @post("/loci/{locus_id:str}/subwander", status_code=201, opt={"rate_limited": True})
    async def subwander(
        self, session_id: str, locus_id: str, data: SubwanderRequest, engine: WanderEngine
    ) -> SessionOut:
        child = await Interventions(engine).spawn(
            session_id, locus_id, data.max_steps, data.budget_share, data.random_seed
        )
        return session_out(child, False)

    @get("/children")
    async def children(self, session_id: str, queries: Queries, runner: Runs) -> list[SessionOut]:
        return [session_out(s, runner.is_running(s.id)) for s in await queries.children(session_id)]
