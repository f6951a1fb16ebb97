"""Bricks for the brick viewer (002's scrub viewer): a memory's whole evolution, seed to
attractor, with its state, the rotation retry's outcome and, for an oscillating one, where
its cycle began. A stored memory's brick, the brick behind a crystal's attractor picture,
or any text's."""

from __future__ import annotations

import asyncio
import base64
from functools import lru_cache

from litestar import Controller, get

from shared_schemas.brick import BrickOut
from wander.adapters.ca.brick_view import BrickView, text_brick, view_of
from wander.adapters.ca.crystal_memory import CrystalMemory
from wander.adapters.ca.seed import text_key
from wander.core.domain.errors import Conflict, InvalidInput, NotFound
from wander.core.engine.queries import Queries


@lru_cache(maxsize=32)
def _text_view(text: str) -> BrickView:
    return view_of(text_brick(text))


def _out(view: BrickView, source: str, ident: str, text: str) -> BrickOut:
    return BrickOut(
        source=source,  # type: ignore[arg-type]
        id=ident,
        text=text,
        state=view.state,  # type: ignore[arg-type]
        outcome=view.outcome,  # type: ignore[arg-type]
        ticks=view.ticks,
        angle=view.angle,
        attempts=view.attempts,
        cycle_period=view.cycle_period,
        divergence_tick=view.divergence_tick,
        height=view.height,
        width=view.width,
        frames=base64.b64encode(view.frames).decode("ascii"),
    )


class BrickController(Controller):
    path = "/api/v1/wander"
    tags = ["memory"]

    @get("/memory/{memory_id:str}/brick")
    async def memory_brick(self, memory_id: str, crystal_memory: CrystalMemory | None) -> BrickOut:
        """A stored memory's brick (crystals are stored as they form)."""
        memory = crystal_memory
        if memory is None:
            raise Conflict("the Wheeler memory is not open in this process")
        try:
            brick = await asyncio.to_thread(memory.brick, memory_id)
        except (KeyError, FileNotFoundError):
            raise NotFound("memory", memory_id) from None
        view = await asyncio.to_thread(view_of, brick)
        return _out(view, "memory", memory_id, str(brick.metadata.get("text", "")))

    @get("/crystals/{crystal_id:str}/brick")
    async def crystal_brick(self, crystal_id: str, queries: Queries) -> BrickOut:
        """The evolution that ends in the crystal's attractor picture (its insight's seed)."""
        crystal = await queries.crystal(crystal_id)
        view = await asyncio.to_thread(_text_view, crystal.insight)
        return _out(view, "crystal", crystal_id, crystal.insight)

    @get("/bricks")
    async def text_brick(self, text: str) -> BrickOut:
        """Any text's brick, evolved on request and not stored (`wander memory scrub`)."""
        if not text.strip():
            raise InvalidInput("text", "must not be empty")
        view = await asyncio.to_thread(_text_view, text)
        return _out(view, "text", text_key(text), text)
