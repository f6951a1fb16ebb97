"""What the mind map needs beyond 000: a person's verdict on a crystal kept for review, the
fence as a list (and removing an anchor), and the comparison of two loci. The rules are
engine.workbench's; this translates."""

from __future__ import annotations

from litestar import Controller, delete, get, post

from shared_schemas.models import CompareOut, CrystalOut, CrystalReview, FenceOut
from wander.core.domain.models import FenceAnchor
from wander.core.engine.queries import Queries
from wander.core.engine.service import WanderEngine
from wander.core.engine.workbench import Workbench
from wander.faces.wire import crystal_out, locus_out


def _fence_out(anchors: list[FenceAnchor]) -> list[FenceOut]:
    return [FenceOut(concept=a.concept, action=a.action) for a in anchors]  # type: ignore[arg-type]


class WorkbenchController(Controller):
    path = "/api/v1/wander"
    tags = ["mind map"]

    @post("/crystals/{crystal_id:str}/review", status_code=200)
    async def review(self, crystal_id: str, data: CrystalReview, engine: WanderEngine, queries: Queries) -> CrystalOut:
        """accept or reject a crystal the sandwich gate kept for human review (0.5 <= V < 0.7)."""
        return crystal_out(await Workbench(engine, queries).review_crystal(crystal_id, data.verdict, data.note))

    @get("/sessions/{session_id:str}/fences")
    async def fences(self, session_id: str, queries: Queries) -> list[FenceOut]:
        return _fence_out((await queries.session(session_id)).fence)

    @delete("/sessions/{session_id:str}/fences", status_code=200)
    async def remove_fence(
        self, session_id: str, concept: str, engine: WanderEngine, queries: Queries
    ) -> list[FenceOut]:
        """Remove the anchor named `concept` from the fence (wander.fence.removed)."""
        return _fence_out(await Workbench(engine, queries).remove_fence(session_id, concept))

    @get("/sessions/{session_id:str}/compare")
    async def compare(self, session_id: str, a: str, b: str, engine: WanderEngine, queries: Queries) -> CompareOut:
        """Two loci side by side: distance, domains, the corpus concept between them and the
        shortest way the walk went from one to the other."""
        c = await Workbench(engine, queries).compare(session_id, a, b)
        return CompareOut(
            a=locus_out(c.a),
            b=locus_out(c.b),
            cosine_distance=c.cosine_distance,
            shared_domains=c.shared_domains,
            only_a_domains=c.only_a_domains,
            only_b_domains=c.only_b_domains,
            midpoint_concept=c.midpoint_concept,
            midpoint_gloss=c.midpoint_gloss,
            path=c.path,
        )
