"""Crystals across sessions, and each crystal's Wheeler attractor as a PNG (its visual
fingerprint for the mind map's CrystalNode)."""

from __future__ import annotations

import asyncio
from functools import lru_cache
from typing import Any

from litestar import Controller, Response, get

from wander.api.deps import Services
from wander.ca.signals import attractor_png_for_text
from wander.domain.errors import NotFound


@lru_cache(maxsize=256)
def _png(text: str) -> bytes:
    return attractor_png_for_text(text)


class CrystalController(Controller):
    path = "/api/v1/wander/crystals"
    tags = ["crystals"]

    @get("/")
    async def list_crystals(self, svc: Services) -> list[dict[str, Any]]:
        return await svc.app.store.rows("crystals")

    @get("/{crystal_id:str}/attractor.png", media_type="image/png")
    async def attractor(self, crystal_id: str, svc: Services) -> Response[bytes]:
        rows = await svc.app.store.rows("crystals", row_id=crystal_id)
        if not rows:
            raise NotFound("crystal", crystal_id)
        png = await asyncio.to_thread(_png, rows[0]["insight"])
        return Response(png, media_type="image/png", headers={"Cache-Control": "public, max-age=86400"})
