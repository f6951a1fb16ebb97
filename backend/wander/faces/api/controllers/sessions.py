"""Session management (000): create, get, list, patch, delete."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, delete, get, patch, post
from litestar.params import Parameter

from shared_schemas.models import SessionCreate, SessionList, SessionOut, SessionPatch
from wander.core.domain.models import FINISHED, Session, SessionStatus
from wander.core.engine.queries import Queries
from wander.core.engine.service import NewWander, WanderEngine
from wander.core.engine.session_settings import update_settings
from wander.faces.api.deps import Runs
from wander.faces.wire import session_out


class SessionController(Controller):
    path = "/api/v1/wander/sessions"
    tags = ["sessions"]

    @post("/", status_code=201, opt={"rate_limited": True})
    async def create_session(self, data: SessionCreate, engine: WanderEngine, queries: Queries) -> SessionOut:
        session = await engine.create(NewWander(**data.model_dump()))
        return session_out(await queries.session(session.id), running=False)  # with its event seq

    @get("/")
    async def list_sessions(
        self,
        queries: Queries,
        runner: Runs,
        status: Annotated[str | None, Parameter(description="active, paused, completed or abandoned")] = None,
        limit: Annotated[int, Parameter(ge=1, le=200)] = 50,
        offset: Annotated[int, Parameter(ge=0, le=2**31 - 1)] = 0,  # Postgres OFFSET is a bigint: no 500
        project_id: str | None = None,
    ) -> SessionList:
        rows, total = await queries.sessions(status=status, limit=limit, offset=offset, project_id=project_id)
        return SessionList(
            items=[session_out(s, runner.is_running(s.id)) for s in rows], total=total, limit=limit, offset=offset
        )

    @get("/{session_id:str}")
    async def get_session(self, session_id: str, queries: Queries, runner: Runs) -> SessionOut:
        session = await queries.session(session_id)
        return session_out(session, runner.is_running(session_id))

    @patch("/{session_id:str}")
    async def update_session(
        self, session_id: str, data: SessionPatch, queries: Queries, engine: WanderEngine, runner: Runs
    ) -> SessionOut:
        changes = data.model_dump(exclude_unset=True)
        before = await update_settings(queries, session_id, changes, runner.is_running(session_id))
        if changes.get("status") and changes["status"] != str(before.status):
            await change_status(engine, runner, session_id, SessionStatus(changes["status"]), "changed by request")
        return session_out(await queries.session(session_id), runner.is_running(session_id))

    @delete("/{session_id:str}", status_code=204)
    async def delete_session(self, session_id: str, queries: Queries, runner: Runs) -> None:
        await queries.session(session_id)
        await runner.cancel(session_id)
        await queries.delete(session_id)


async def change_status(
    engine: WanderEngine, runner: Runs, session_id: str, status: SessionStatus, reason: str | None
) -> Session:
    session = await engine.set_status(session_id, status, reason)
    if status in FINISHED:
        await runner.cancel(session_id)
    return session
