"""Cross-session queries (000): crystals and resonances across sessions, semantic search;
and each crystal's Wheeler attractor as a PNG (its visual fingerprint for the mind map)."""

from __future__ import annotations

import asyncio
from functools import lru_cache
from typing import Annotated

from litestar import Controller, Response, get, post
from litestar.params import Parameter

from shared_schemas.models import CrystalOut, ResonanceOut, SearchHit, SearchRequest
from wander.adapters.ca.signals import attractor_png_for_text
from wander.core.domain.models import CrystalStatus
from wander.core.engine.queries import Queries
from wander.faces.wire import crystal_out, resonance_out


@lru_cache(maxsize=256)
def _png(text: str) -> bytes:
    return attractor_png_for_text(text)


class CrystalController(Controller):
    path = "/api/v1/wander"
    tags = ["cross-session"]

    @get("/crystals")
    async def list_crystals(
        self,
        queries: Queries,
        project_id: str | None = None,
        status: str | None = CrystalStatus.ACTIVE.value,
        min_confidence: Annotated[float | None, Parameter(ge=0, le=1)] = None,
    ) -> list[CrystalOut]:
        queries.check_project(project_id)
        return [crystal_out(c) for c in await queries.crystals(status=status, min_confidence=min_confidence)]

    @get("/resonances")
    async def list_resonances(
        self, queries: Queries, project_id: str | None = None, status: str | None = None
    ) -> list[ResonanceOut]:
        queries.check_project(project_id)
        return [resonance_out(r) for r in await queries.resonances(status=status)]

    @post("/search", status_code=200)
    async def search(self, data: SearchRequest, queries: Queries) -> list[SearchHit]:
        hits = await queries.search(data.query, list(data.types), data.limit)
        return [
            SearchHit(type=h.type, id=h.id, session_id=h.session_id, text=h.text, similarity=h.similarity) for h in hits
        ]

    @get("/crystals/{crystal_id:str}/attractor.png", media_type="image/png")
    async def attractor(self, crystal_id: str, queries: Queries) -> Response[bytes]:
        crystal = await queries.crystal(crystal_id)
        png = await asyncio.to_thread(_png, crystal.insight)
        return Response(png, media_type="image/png", headers={"Cache-Control": "public, max-age=86400"})
