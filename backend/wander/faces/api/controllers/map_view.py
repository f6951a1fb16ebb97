"""What the mind map asks for besides the event stream, read-only (no state, event or random
draw of the wander changes):
- GET .../next-candidates: what the next step would consider from the current locus (the map
  draws them as "click: go here next");
- GET .../attractor: the loci nearest the wander's attractor (the map marks it toward them)."""

from __future__ import annotations

from litestar import Controller, get

from shared_schemas.events import AdjacenciesFoundPayload
from shared_schemas.map_view import AttractorLocusOut, AttractorOut
from wander.core.engine.attractor_near import nearest_to_attractor, seed_similarity
from wander.core.engine.preview import next_candidates
from wander.core.engine.queries import Queries
from wander.core.engine.service import WanderEngine


class MapViewController(Controller):
    path = "/api/v1/wander/sessions/{session_id:str}"
    tags = ["map"]

    @get("/next-candidates")
    async def next_step_candidates(
        self, session_id: str, queries: Queries, engine: WanderEngine
    ) -> AdjacenciesFoundPayload:
        """The next step's candidates from the current locus, best first, each with the
        probability the step's softmax would give it (the payload of wander.adjacencies.found
        that step would publish, unless a person changes something meanwhile)."""
        await queries.session(session_id)  # 404 for an unknown wander
        walk = await engine.load_walk(session_id)
        return await next_candidates(walk, engine.ctx)

    @get("/attractor")
    async def attractor(self, session_id: str, queries: Queries) -> AttractorOut:
        """The loci nearest the wander's attractor in meaning, nearest first (12 at most)."""
        session = await queries.session(session_id)
        loci = await queries.loci(session_id) if session.attractor_embedding is not None else []
        return AttractorOut(
            attractor=session.attractor,
            nearest=[AttractorLocusOut(locus_id=i, similarity=s) for i, s in nearest_to_attractor(session, loci)],
            seed_similarity=seed_similarity(session),
        )
