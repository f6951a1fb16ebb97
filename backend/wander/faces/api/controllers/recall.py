"""POST /api/v1/wander/recall: the Wheeler memory (crystals as they form, and episodic
memories) recalled for a text, with 002's formatted context block. What the Open WebUI
pipeline calls before every chat turn; each memory returned gets warmer."""

from __future__ import annotations

import asyncio
from dataclasses import asdict

from litestar import post

from shared_schemas.models import RecallHitOut, RecallOut, RecallRequest
from wander.adapters.ca.crystal_memory import CrystalMemory, context_block
from wander.core.domain.errors import Conflict


@post("/api/v1/wander/recall", status_code=200, tags=["memory"])
async def recall(data: RecallRequest, crystal_memory: CrystalMemory | None) -> RecallOut:
    memory = crystal_memory
    if memory is None:
        raise Conflict("the Wheeler memory is not open in this process")
    hits = await asyncio.to_thread(memory.recall, data.query, data.top_k, data.alpha, data.min_similarity)
    return RecallOut(
        hits=[RecallHitOut(**asdict(h)) for h in hits], context=context_block(hits, data.max_context_length)
    )
