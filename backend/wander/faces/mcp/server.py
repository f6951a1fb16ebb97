"""The MCP face: the five tools of the technical spec (000, "MCP Tools") and read-only
resources for a session's trace and crystals, on the official `mcp` SDK (2.x, MCPServer).

A face only: it takes a wired Services (wander.bootstrap.wiring.open_app), calls the engine and translates.
Every error a caller can act on comes back as a tool error whose text starts with the field
at fault (``session_id: session not found: ...``); the SDK turns anything unexpected into
"Error executing tool ...", so no stack trace reaches the client."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, TypeVar

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from pydantic import Field

from wander.bootstrap.wiring import Services
from wander.core.domain.errors import (
    Conflict,
    InvalidInput,
    NoCandidates,
    NotFound,
    WanderError,
)
from wander.core.domain.models import CrystalStatus, SessionStatus
from wander.core.domain.validation import check_steps
from wander.core.engine.service import Interventions, NewWander
from wander.faces.wire import (
    crystal_out,
    locus_out,
    resonance_out,
    session_out,
    trace_step,
)

T = TypeVar("T")
MAX_STEPS_DEFAULT = 100  # a session made over MCP may take this many steps (the API's default)

INSTRUCTIONS = (
    "Wander walks idea space from a seed concept toward a vague attractor, one step at a time, "
    "and crystallizes insights that survive scrutiny. Create a session, run steps, steer it with "
    "wander_inject, then read crystals and resonances with wander_get_insights. Resources "
    "wander://sessions/{session_id}/trace and .../crystals give the full record as JSON."
)


async def _guard(call: Awaitable[T], field: str = "session_id") -> T:
    """Domain errors -> a tool error whose text names the field at fault."""
    try:
        return await call
    except InvalidInput as exc:
        raise ToolError(f"{exc.field}: {exc.reason}") from None
    except NotFound as exc:
        raise ToolError(f"{field}: {exc.what} not found: {exc.ident}") from None
    except (Conflict, NoCandidates) as exc:
        raise ToolError(f"{field}: {exc}") from None
    except WanderError as exc:
        raise ToolError(str(exc)) from None


class WanderTools:
    """The tools' bodies over a wired Services; plain async methods, testable without MCP."""

    def __init__(self, app: Services):
        self.app = app

    async def _session(self, session_id: str):
        session = await self.app.store.get_session(session_id)
        if session is None:
            raise NotFound("session", session_id)
        return session

    async def create_session(
        self, name: str, seed_concept: str, attractor: str | None, allowed_domains: list[str] | None
    ) -> dict[str, Any]:
        req = NewWander(
            seed_concept=seed_concept,
            attractor=attractor,
            name=name or None,
            allowed_domains=allowed_domains,
            max_steps=MAX_STEPS_DEFAULT,
        )
        session = await self.app.engine.create(req)
        return _brief(session_out(session, False).model_dump(mode="json"))

    async def step(self, session_id: str) -> dict[str, Any]:
        session = await self._session(session_id)
        if session.status != SessionStatus.ACTIVE:
            raise Conflict(f"session {session_id} is {session.status}; it cannot step")
        result = await self.app.engine.step(await self.app.engine.load_walk(session_id))
        return {
            "step_number": result.step_number,
            "from": locus_out(result.from_locus).model_dump(mode="json"),
            "to": locus_out(result.to_locus).model_dump(mode="json"),
            "residue": result.residue.facets() | {"themes": result.residue.themes},
            "resonances_detected": result.resonances_detected,
            "crystal_formed": result.crystal is not None,
        }

    async def run(
        self, session_id: str, n_steps: int, on_step: Callable[[int], Awaitable[None]] | None = None
    ) -> dict[str, Any]:
        n_steps = check_steps("n_steps", n_steps)
        await self._session(session_id)
        path: list[str] = []
        crystals: list[str] = []

        async def step_done(result) -> None:
            path.append(result.to_locus.concept)
            if result.crystal is not None and result.crystal.status != CrystalStatus.INVALIDATED:
                crystals.append(result.crystal.insight)  # a filling the gate rejected formed none
            if on_step is not None:
                await on_step(len(path))

        outcome = await self.app.engine.run(session_id, n_steps, on_step=step_done)
        after = await self._session(session_id)
        return {
            "session_id": session_id,
            "steps_completed": outcome.steps_completed,
            "crystals_formed": outcome.crystals_formed,
            "step_count": after.step_count,
            "status": outcome.status,
            "stopped_reason": outcome.stopped_reason,
            "path": path,
            "new_crystals": crystals,
        }

    async def get_insights(self, session_id: str, min_confidence: float) -> dict[str, Any]:
        if not 0.0 <= min_confidence <= 1.0:
            raise InvalidInput("min_confidence", f"must be between 0 and 1 (got {min_confidence})")
        session = await self._session(session_id)
        crystals = [
            crystal_out(c).model_dump(mode="json")
            for c in await self.app.store.find_crystals(
                session_id=session_id, status=None, min_confidence=min_confidence
            )
        ]
        resonances = sorted(
            await self.app.store.find_resonances(session_id=session_id),
            key=lambda r: -r.strength,
        )
        warmth = await asyncio.to_thread(self._recall_crystals, [c["insight"] for c in crystals[:10]])
        for c in crystals:
            c["memory"] = warmth.get(c["insight"])
        return {
            "session_id": session_id,
            "status": str(session.status),
            "step_count": session.step_count,
            "min_confidence": min_confidence,
            "crystals": [
                {
                    k: c[k]
                    for k in (
                        "id",
                        "insight",
                        "confidence",
                        "actionability",
                        "status",
                        "structural_type",
                        "domains",
                        "validity",
                        "memory",
                    )
                }
                for c in crystals
            ],
            "resonances": [
                {k: r[k] for k in ("id", "themes", "occurrences", "strength", "status")}
                for r in (resonance_out(x).model_dump(mode="json") for x in resonances)
            ],
        }

    def _recall_crystals(self, insights: list[str]) -> dict[str, dict[str, Any]]:
        """Recall each crystal from the Wheeler memory (which warms it): its tier and temperature."""
        memory = self.app.crystal_memory
        out: dict[str, dict[str, Any]] = {}
        for text in insights if memory is not None else []:
            hit = next(iter(memory.recall(text, top_k=1, alpha=0.0, min_similarity=-1.0)), None)
            if hit is not None and hit.text == text:
                out[text] = {"tier": hit.tier, "temperature": hit.temperature, "hits": hit.hits}
        return out

    async def inject(self, session_id: str, concept: str) -> dict[str, Any]:
        session = await Interventions(self.app.engine).inject(session_id, concept, True)
        return {
            "session_id": session.id,
            "injected": concept.strip(),
            "status": str(session.status),
            "note": "the next step visits this concept",
        }

    async def trace(self, session_id: str) -> list[dict[str, Any]]:
        await self._session(session_id)
        return [trace_step(r).model_dump(mode="json") for r in await self.app.store.trace(session_id)]

    async def crystals(self, session_id: str) -> list[dict[str, Any]]:
        await self._session(session_id)
        return [
            crystal_out(c).model_dump(mode="json")
            for c in await self.app.store.find_crystals(session_id=session_id, status=None)
        ]


def _brief(session: dict[str, Any]) -> dict[str, Any]:
    keep = (
        "id",
        "name",
        "status",
        "seed_concept",
        "attractor",
        "allowed_domains",
        "max_steps",
        "step_count",
        "temperature",
        "random_seed",
        "created_at",
    )
    return {k: session[k] for k in keep}


SessionId = Annotated[str, Field(description="The id wander_create_session returned.")]


def build_server(app: Services) -> MCPServer:
    tools = WanderTools(app)
    server = MCPServer("wander", instructions=INSTRUCTIONS, version="0.1")

    @server.tool(description="Start a new wander exploration session")
    async def wander_create_session(
        name: Annotated[
            str,
            Field(description="A name for the wander (may be empty: the seed is used)."),
        ],
        seed_concept: Annotated[str, Field(description="Where the wander starts.")],
        attractor: Annotated[str | None, Field(description="A vague sense of what we look for.")] = None,
        allowed_domains: Annotated[list[str] | None, Field(description="Keep the walk in these domains.")] = None,
    ) -> dict[str, Any]:
        return await _guard(tools.create_session(name, seed_concept, attractor, allowed_domains))

    @server.tool(description="Take one exploration step in a wander session")
    async def wander_step(session_id: SessionId) -> dict[str, Any]:
        return await _guard(tools.step(session_id))

    @server.tool(description="Run multiple wander steps")
    async def wander_run(
        session_id: SessionId,
        ctx: Context,
        n_steps: Annotated[int, Field(description="How many steps (1..10000).")] = 10,
    ) -> dict[str, Any]:
        async def progress(done: int) -> None:
            await ctx.report_progress(done, n_steps)

        return await _guard(tools.run(session_id, n_steps, progress))

    @server.tool(description="Get crystals and resonances from a session")
    async def wander_get_insights(
        session_id: SessionId,
        min_confidence: Annotated[float, Field(description="Only crystals at least this confident (0..1).")] = 0.7,
    ) -> dict[str, Any]:
        return await _guard(tools.get_insights(session_id, min_confidence))

    @server.tool(description="Inject a concept to guide exploration")
    async def wander_inject(
        session_id: SessionId,
        concept: Annotated[str, Field(description="The concept the next step visits.")],
    ) -> dict[str, Any]:
        return await _guard(tools.inject(session_id, concept))

    async def _read(call: Awaitable[Any]) -> str:
        try:
            return json.dumps(await call, indent=1)
        except WanderError as exc:
            raise ResourceError(f"session_id: {exc}") from None

    @server.resource(
        "wander://sessions/{session_id}/trace",
        name="trace",
        mime_type="application/json",
        description="Every step of the wander: from, to, scores, and the residue of the encounter.",
    )
    async def trace(session_id: str) -> str:
        return await _read(tools.trace(session_id))

    @server.resource(
        "wander://sessions/{session_id}/crystals",
        name="crystals",
        mime_type="application/json",
        description="The wander's crystals: insight, sandwich type, validity, evidence.",
    )
    async def crystals(session_id: str) -> str:
        return await _read(tools.crystals(session_id))

    return server
