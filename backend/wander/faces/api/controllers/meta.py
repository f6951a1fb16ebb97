"""Health and the knowledge base's domains (for the create form)."""

from __future__ import annotations

from litestar import get

from wander.adapters.kb.index import KnowledgeIndex
from wander.bootstrap.warmup import Warmup
from wander.faces.api.deps import EmbedderDep


@get("/api/v1/health", tags=["meta"])
async def health(warmup: Warmup | None, knowledge: KnowledgeIndex, embedder: EmbedderDep) -> dict[str, object]:
    # preparing: what the server still does once at start (wander.bootstrap.warmup), or null
    preparing = warmup.current if warmup is not None else None
    return {
        "status": "ok",
        "concepts": len(knowledge),
        "embedder": embedder.name,
        "preparing": preparing,
    }


@get("/api/v1/wander/domains", tags=["meta"])
async def domains(knowledge: KnowledgeIndex) -> list[str]:
    return sorted(knowledge.domains())
