"""Cross-session queries (000): crystals and resonances across sessions, semantic search;
and each crystal's Wheeler attractor as a PNG (its visual fingerprint for the mind map)."""

from __future__ import annotations

import asyncio
from functools import lru_cache
from typing import Annotated

from litestar import Controller, Response, get, post
from litestar.params import Parameter

from shared_schemas.models import CrystalOut, ResonanceOut, SearchHit, SearchRequest
from wander.api.convert import crystal_out, resonance_out
from wander.api.deps import Services
from wander.ca.signals import attractor_png_for_text
from wander.domain.errors import InvalidInput, NotFound

CRYSTAL_STATUSES = ("active", "acted_upon", "invalidated", "archived")
RESONANCE_STATUSES = ("candidate", "confirmed", "invalidated")


@lru_cache(maxsize=256)
def _png(text: str) -> bytes:
    return attractor_png_for_text(text)


def _check_project(svc: Services, project_id: str | None) -> None:
    if project_id is not None and project_id != svc.app.engine.project_id:
        raise InvalidInput("project_id", "unknown project")


class CrystalController(Controller):
    path = "/api/v1/wander"
    tags = ["cross-session"]

    @get("/crystals")
    async def list_crystals(
        self, svc: Services, project_id: str | None = None, status: str | None = "active",
        min_confidence: Annotated[float | None, Parameter(ge=0, le=1)] = None,
    ) -> list[CrystalOut]:  # fmt: skip
        _check_project(svc, project_id)
        if status is not None and status not in CRYSTAL_STATUSES:
            raise InvalidInput("status", f"must be one of {', '.join(CRYSTAL_STATUSES)} (got '{status}')")
        return [crystal_out(c) for c in await svc.app.store.find_crystals(status=status, min_confidence=min_confidence)]

    @get("/resonances")
    async def list_resonances(self, svc: Services, project_id: str | None = None,
                              status: str | None = None) -> list[ResonanceOut]:  # fmt: skip
        _check_project(svc, project_id)
        if status is not None and status not in RESONANCE_STATUSES:
            raise InvalidInput("status", f"must be one of {', '.join(RESONANCE_STATUSES)} (got '{status}')")
        return [resonance_out(r) for r in await svc.app.store.find_resonances(status=status)]

    @post("/search", status_code=200)
    async def search(self, data: SearchRequest, svc: Services) -> list[SearchHit]:
        vector = svc.app.embedder.embed([data.query])[0]
        hits = await svc.app.store.search(svc.app.engine.project_id, vector, list(data.types), data.limit)
        return [SearchHit(type=h.type, id=h.id, session_id=h.session_id, text=h.text, similarity=h.similarity)
                for h in hits]  # fmt: skip

    @get("/crystals/{crystal_id:str}/attractor.png", media_type="image/png")
    async def attractor(self, crystal_id: str, svc: Services) -> Response[bytes]:
        found = await svc.app.store.find_crystals(status=None, crystal_id=crystal_id)
        if not found:
            raise NotFound("crystal", crystal_id)
        png = await asyncio.to_thread(_png, found[0].insight)
        return Response(png, media_type="image/png", headers={"Cache-Control": "public, max-age=86400"})
