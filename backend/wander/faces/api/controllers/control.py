"""Wander control (000): step, wander n_steps, pause, resume, stop."""

from __future__ import annotations

import logging

from litestar import Controller, Response, post
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import Parameter

from shared_schemas.models import SessionOut, StepOut, WanderOutcome, WanderRequest, WanderStarted
from wander.core.domain.errors import Conflict
from wander.core.domain.models import SessionStatus
from wander.core.engine.queries import Queries
from wander.core.engine.service import RunOutcome, WanderEngine, require_active, run_outcome
from wander.faces.api.controllers.sessions import change_status
from wander.faces.api.deps import Runs
from wander.faces.wire import locus_out, residue_out, session_out

log = logging.getLogger(__name__)

WAIT_HELP = (
    "true: answer when the run is over (its steps taken, or the wander paused, stopped or "
    "tripped meanwhile) with 200 and {steps_completed, crystals_formed, stopped_reason}, 000's "
    "answer; false (the default): answer 202 at once and run in the background."
)


class ControlController(Controller):
    path = "/api/v1/wander/sessions/{session_id:str}"
    tags = ["control"]

    @post("/step", status_code=200, opt={"rate_limited": True})
    async def step(self, session_id: str, queries: Queries, engine: WanderEngine, runner: Runs) -> StepOut:
        session = await queries.session(session_id)
        require_active(session, "step")
        if runner.is_running(session_id):
            raise Conflict(f"cannot step: session {session_id} is running; pause it first")
        walk = await engine.load_walk(session_id)
        result = await engine.step(walk)
        return StepOut(
            step_number=result.step_number,
            from_locus=locus_out(result.from_locus),
            to_locus=locus_out(result.to_locus),
            residue=residue_out(result.residue),
            resonances_detected=result.resonances_detected,
        )

    @post(
        "/wander",
        status_code=202,
        opt={"rate_limited": True},
        responses={
            200: ResponseSpec(
                data_container=WanderOutcome,
                description="With wait=true: the run is over; what it did and why it stopped.",
            )
        },
    )
    async def wander(
        self,
        session_id: str,
        data: WanderRequest,
        queries: Queries,
        runner: Runs,
        wait: bool = Parameter(query="wait", default=False, description=WAIT_HELP),
    ) -> Response[WanderStarted]:
        """Run n_steps. By default the run goes on in the background and this returns at once
        (202; watch it on the WebSocket); with wait=true it returns when the run is over (200)."""
        session = await queries.session(session_id)
        require_active(session, "wander")
        if session.step_count >= session.max_steps:
            raise Conflict(f"cannot wander: session {session_id} has taken all {session.max_steps} steps")
        await runner.start(session_id, data.n_steps, data.step_delay_ms / 1000)
        if wait:
            outcome = await _wait(queries, runner, session_id, session.step_count)
            after = await queries.session(session_id)
            body = WanderOutcome(
                session_id=session_id,
                steps_completed=outcome.steps_completed,
                crystals_formed=outcome.crystals_formed,
                stopped_reason=outcome.stopped_reason,
                status=outcome.status,  # type: ignore[arg-type]
                step_count=after.step_count,
            )
            return Response(body, status_code=200)  # type: ignore[arg-type]
        started = WanderStarted(
            session_id=session_id,
            n_steps=min(data.n_steps, session.max_steps - session.step_count),
            from_step=session.step_count,
            status=SessionStatus.ACTIVE.value,
            running=True,
        )
        return Response(started, status_code=202)

    @post("/pause", status_code=200)
    async def pause(self, session_id: str, engine: WanderEngine, runner: Runs) -> SessionOut:
        session = await change_status(engine, runner, session_id, SessionStatus.PAUSED, "paused by request")
        return session_out(session, runner.is_running(session_id))

    @post("/resume", status_code=200)
    async def resume(self, session_id: str, engine: WanderEngine, runner: Runs) -> SessionOut:
        """Make a paused wander active again and continue the run it was part of, if any."""
        session = await engine.resume(session_id, paused_only=True)
        if session.run_until_step and session.run_until_step > session.step_count and not runner.is_running(session_id):
            await runner.start(session_id, session.run_until_step - session.step_count)
        return session_out(session, runner.is_running(session_id))

    @post("/stop", status_code=200)
    async def stop(self, session_id: str, engine: WanderEngine, runner: Runs) -> SessionOut:
        session = await change_status(engine, runner, session_id, SessionStatus.COMPLETED, "stopped by request")
        return session_out(session, False)


async def _wait(queries: Queries, runner: Runs, session_id: str, from_step: int) -> RunOutcome:
    """The run's outcome; a run that failed answers as the wander it left (paused, with the
    reason, and the steps it committed), the way a client polling the session would find it."""
    try:
        outcome = await runner.wait(session_id)
    except Exception:
        log.info("run of %s failed while a client waited for it", session_id)
        outcome = None
    if outcome is not None and outcome.status != "unknown":
        return outcome
    session = await queries.session(session_id)
    crystals = outcome.crystals_formed if outcome is not None else 0
    return run_outcome(session, max(0, session.step_count - from_step), crystals)
