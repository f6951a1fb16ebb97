"""The API with NATS configured: starting, pausing and resuming a wander go through the
run queue to a `wander worker` process, and a run a crash left unfinished is re-sent when
the API starts."""

from __future__ import annotations

import httpx

from tests.api.conftest import API, start_server
from tests.integration.scale.conftest import eventually, traces
from wander.core.engine.service import NewWander
from wander.faces.api.app import ApiSettings


async def test_runs_go_to_the_worker_and_survive_pause_resume_and_api_restart(
    scale_app, nats_server, worker_env, spawn_worker, db_url
):
    worker_env.update(WANDER_DATABASE_URL=db_url, WANDER_NATS_URL=nats_server.url)
    worker = spawn_worker(worker_env, "w-api")
    # A run that a crash cut short: its target is in the row, no process runs it.
    crashed = await scale_app.engine.create(NewWander(seed_concept="volcano", max_steps=40, random_seed=6))
    await scale_app.store.set_run_target(crashed.id, 5)
    await worker.wait_ready()
    server, task, addr = await start_server(scale_app, ApiSettings(heartbeat_s=0.5, resume_interrupted=True))
    try:
        async with httpx.AsyncClient(base_url=f"http://{addr}", timeout=30) as client:

            async def state(sid):
                return (await client.get(f"{API}/{sid}")).json()

            async def steps_at_least(sid, n):
                s = await state(sid)
                return s if s["step_count"] >= n else None

            # Crash resume at start: re-sent to the queue, run by the worker.
            await eventually(lambda: steps_at_least(crashed.id, 5), 180, "the interrupted run to finish")
            await eventually(lambda: _not_running(state, crashed.id), 60, "running to clear")

            sid = crashed.id
            r = await client.post(f"{API}/{sid}/wander", json={"n_steps": 30})
            assert r.status_code == 202, r.text
            assert r.json()["from_step"] == 5
            assert (await state(sid))["running"] is True
            await eventually(lambda: steps_at_least(sid, 8), 180, "steps of the queued run")
            r = await client.post(f"{API}/{sid}/pause")
            assert r.status_code == 200, r.text
            paused_at = (await state(sid))["step_count"]
            await eventually(lambda: _not_running(state, sid), 60, "the pause to reach the runner")

            r = await client.post(f"{API}/{sid}/resume")
            assert r.status_code == 200, r.text
            assert r.json()["running"] is True  # the run it was part of continues (a new request)

            async def finished():
                s = await state(sid)
                return s if s["step_count"] >= 35 and not s["running"] else None

            final = await eventually(finished, 240, "the resumed run to reach its target")
    finally:
        server.should_exit = True
        await task
    assert final["step_count"] == 35 and final["status"] == "active"
    assert paused_at < 35
    rows = await traces(scale_app.db, sid)
    assert [r[0] for r in rows] == list(range(1, 36))
    assert {r[1] for r in rows} == {"w-api"}  # run by the worker, not by the API process


async def _not_running(state, sid):
    return not (await state(sid))["running"]
