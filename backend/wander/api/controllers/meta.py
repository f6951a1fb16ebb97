"""Health and the knowledge base's domains (for the create form)."""

from __future__ import annotations

from litestar import get

from wander.api.deps import Services


@get("/api/v1/health", tags=["meta"])
async def health(svc: Services) -> dict[str, object]:
    return {"status": "ok", "concepts": len(svc.app.knowledge), "embedder": svc.app.embedder.name}


@get("/api/v1/wander/domains", tags=["meta"])
async def domains(svc: Services) -> list[str]:
    return sorted(svc.app.knowledge.domains())
