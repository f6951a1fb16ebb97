"""Wander control (000): step, wander n_steps, pause, resume, stop."""

from __future__ import annotations

from litestar import Controller, post

from shared_schemas.models import SessionOut, StepOut, WanderRequest, WanderStarted
from wander.api.controllers.sessions import change_status, load_session
from wander.api.convert import locus_out, residue_out, session_out
from wander.api.deps import Services
from wander.domain.errors import Conflict
from wander.domain.models import SessionStatus
from wander.engine.service import require_active


class ControlController(Controller):
    path = "/api/v1/wander/sessions/{session_id:str}"
    tags = ["control"]

    @post("/step", status_code=200)
    async def step(self, session_id: str, svc: Services) -> StepOut:
        session = await load_session(svc, session_id)
        require_active(session, "step")
        if svc.runner.is_running(session_id):
            raise Conflict(f"cannot step: session {session_id} is running; pause it first")
        walk = await svc.app.engine.load_walk(session_id)
        result = await svc.app.engine.step(walk)
        return StepOut(
            step_number=result.step_number,
            from_locus=locus_out(result.from_locus),
            to_locus=locus_out(result.to_locus),
            residue=residue_out(result.residue),
            resonances_detected=result.resonances_detected,
        )

    @post("/wander", status_code=202)
    async def wander(self, session_id: str, data: WanderRequest, svc: Services) -> WanderStarted:
        """Start a background run of n_steps; returns at once. Watch it on the WebSocket."""
        session = await load_session(svc, session_id)
        require_active(session, "wander")
        if session.step_count >= session.max_steps:
            raise Conflict(f"cannot wander: session {session_id} has taken all {session.max_steps} steps")
        await svc.runner.start(session_id, data.n_steps, data.step_delay_ms / 1000)
        return WanderStarted(
            session_id=session_id,
            n_steps=min(data.n_steps, session.max_steps - session.step_count),
            from_step=session.step_count,
            status=SessionStatus.ACTIVE.value,
            running=True,
        )

    @post("/pause", status_code=200)
    async def pause(self, session_id: str, svc: Services) -> SessionOut:
        session = await change_status(svc, session_id, SessionStatus.PAUSED, "paused by request")
        return session_out(session, svc.runner.is_running(session_id))

    @post("/resume", status_code=200)
    async def resume(self, session_id: str, svc: Services) -> SessionOut:
        """Make a paused wander active again and continue the run it was part of, if any."""
        session = await svc.app.engine.resume(session_id, paused_only=True)
        if (
            session.run_until_step
            and session.run_until_step > session.step_count
            and not svc.runner.is_running(session_id)
        ):
            await svc.runner.start(session_id, session.run_until_step - session.step_count)
        return session_out(session, svc.runner.is_running(session_id))

    @post("/stop", status_code=200)
    async def stop(self, session_id: str, svc: Services) -> SessionOut:
        session = await change_status(svc, session_id, SessionStatus.COMPLETED, "stopped by request")
        return session_out(session, False)
