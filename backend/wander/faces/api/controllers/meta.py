"""Health and the knowledge base's domains (for the create form)."""

from __future__ import annotations

from litestar import get

from wander.faces.api.deps import Services


@get("/api/v1/health", tags=["meta"])
async def health(svc: Services) -> dict[str, object]:
    # preparing: what the server still does once at start (wander.bootstrap.warmup), or null
    preparing = svc.warmup.current if svc.warmup is not None else None
    return {
        "status": "ok",
        "concepts": len(svc.app.knowledge),
        "embedder": svc.app.embedder.name,
        "preparing": preparing,
    }


@get("/api/v1/wander/domains", tags=["meta"])
async def domains(svc: Services) -> list[str]:
    return sorted(svc.app.knowledge.domains())
