"""Session management (000): create, get, list, patch, delete."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, Response, delete, get, patch, post
from litestar.params import Parameter

from shared_schemas.models import SessionCreate, SessionList, SessionOut, SessionPatch
from wander.core.domain.models import FINISHED, Session, SessionStatus
from wander.core.engine.service import NewWander
from wander.core.engine.session_settings import update_settings
from wander.faces.api.deps import Services
from wander.faces.wire import session_out


async def load_session(svc: Services, session_id: str) -> Session:
    return await svc.app.queries.session(session_id)


class SessionController(Controller):
    path = "/api/v1/wander/sessions"
    tags = ["sessions"]

    @post("/", status_code=201)
    async def create_session(self, data: SessionCreate, svc: Services) -> SessionOut:
        session = await svc.app.engine.create(NewWander(**data.model_dump()))
        return session_out(await load_session(svc, session.id), running=False)  # with its event seq

    @get("/")
    async def list_sessions(
        self,
        svc: Services,
        status: Annotated[str | None, Parameter(description="active, paused, completed or abandoned")] = None,
        limit: Annotated[int, Parameter(ge=1, le=200)] = 50,
        offset: Annotated[int, Parameter(ge=0, le=2**31 - 1)] = 0,  # Postgres OFFSET is a bigint: no 500
        project_id: str | None = None,
    ) -> SessionList:
        rows, total = await svc.app.queries.sessions(status=status, limit=limit, offset=offset, project_id=project_id)
        return SessionList(
            items=[session_out(s, svc.runner.is_running(s.id)) for s in rows], total=total, limit=limit, offset=offset
        )

    @get("/{session_id:str}")
    async def get_session(self, session_id: str, svc: Services) -> SessionOut:
        session = await load_session(svc, session_id)
        return session_out(session, svc.runner.is_running(session_id))

    @patch("/{session_id:str}")
    async def update_session(self, session_id: str, data: SessionPatch, svc: Services) -> SessionOut:
        changes = data.model_dump(exclude_unset=True)
        before = await update_settings(svc.app.queries, session_id, changes, svc.runner.is_running(session_id))
        if changes.get("status") and changes["status"] != str(before.status):
            await change_status(svc, session_id, SessionStatus(changes["status"]), "changed by request")
        return session_out(await load_session(svc, session_id), svc.runner.is_running(session_id))

    @delete("/{session_id:str}", status_code=204)
    async def delete_session(self, session_id: str, svc: Services) -> None:
        await load_session(svc, session_id)
        await svc.runner.cancel(session_id)
        await svc.app.queries.delete(session_id)


async def change_status(svc: Services, session_id: str, status: SessionStatus, reason: str | None) -> Session:
    session = await svc.app.engine.set_status(session_id, status, reason)
    if status in FINISHED:
        await svc.runner.cancel(session_id)
    return session


__all__ = ["SessionController", "load_session", "change_status", "Response"]
