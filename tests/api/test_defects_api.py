"""Issue 17, API side: sign-in behind a token, fences on the wire, PATCH of the budget and
breaker settings, the n_steps cap, planting, and a live wander.step.started."""

import json

import httpx
import websockets

from tests.api.conftest import API, create, start_server, wait_idle
from wander.faces.api.app import ApiSettings


async def test_browser_signs_in_once_with_a_cookie(app):
    srv, task, addr = await start_server(app, ApiSettings(token="s3cret", heartbeat_s=0.3, resume_interrupted=False))
    try:
        async with httpx.AsyncClient(base_url=f"http://{addr}") as c:
            assert (await c.get("/")).status_code == 200  # the page shell loads, then asks for the token
            assert (await c.get(API)).status_code == 401
            bad = await c.post("/api/v1/auth/session", json={"token": "wrong"})
            assert bad.status_code == 401 and "wander_token" not in bad.cookies
            r = await c.post("/api/v1/auth/session", json={"token": "s3cret"})
            assert r.status_code == 204
            cookie = r.headers["set-cookie"].lower()
            assert "httponly" in cookie and "samesite=strict" in cookie and "path=/" in cookie
            assert (await c.get(API)).status_code == 200  # the cookie alone now opens the API
            sid = (await c.post(API, json={"seed_concept": "tide"})).json()["id"]
            headers = {"Cookie": f"wander_token={c.cookies['wander_token']}"}
            async with websockets.connect(f"ws://{addr}/ws/sessions/{sid}", additional_headers=headers) as ws:
                assert json.loads(await ws.recv())["type"] == "event"
        async with httpx.AsyncClient(base_url=f"http://{addr}") as link:
            r = await link.get(f"/sessions/{sid}?token=s3cret&x=1")
            assert r.status_code == 303 and r.headers["location"] == f"/sessions/{sid}?x=1"
            assert "httponly" in r.headers["set-cookie"].lower()
            assert (await link.get(f"{API}/{sid}")).status_code == 200
    finally:
        srv.should_exit = True
        await task


async def test_fences_are_events_listed_and_removable(client):
    s = await create(client, max_steps=5, random_seed=2)
    sid, seq = s["id"], s["last_event_seq"]
    assert s["fence"] == []
    r = await client.post(f"{API}/{sid}/fence", json={"concept": "weapon", "action": "exclude"})
    assert r.status_code == 200 and r.json()["fence"] == [{"concept": "weapon", "action": "exclude"}]
    await client.post(f"{API}/{sid}/fence", json={"concept": "harbour", "action": "include"})
    r = await client.delete(f"{API}/{sid}/fence", params={"concept": "weapon"})
    assert r.status_code == 200 and r.json()["fence"] == [{"concept": "harbour", "action": "include"}]
    missing = await client.delete(f"{API}/{sid}/fence", params={"concept": "weapon"})
    assert missing.status_code == 422 and missing.json()["field"] == "concept"
    events = (await client.get(f"{API}/{sid}")).json()["last_event_seq"]
    assert events == seq + 3
    async with websockets.connect(
        f"ws://{client.base_url.host}:{client.base_url.port}/ws/sessions/{sid}?after_seq={seq}"
    ) as ws:
        frames = [json.loads(await ws.recv()) for _ in range(3)]
    assert [f["event"]["subject"] for f in frames] == [
        "wander.fence.added",
        "wander.fence.added",
        "wander.fence.removed",
    ]
    assert frames[2]["event"]["payload"]["fence"] == [{"concept": "harbour", "action": "include"}]

    await client.post(f"{API}/{sid}/stop")
    late = await client.post(f"{API}/{sid}/fence", json={"concept": "sea", "action": "exclude"})
    assert late.status_code == 409
    assert (await client.delete(f"{API}/{sid}/fence", params={"concept": "harbour"})).status_code == 409


async def test_patch_budget_drift_and_checkpoints(client):
    s = await create(client, max_steps=20, random_seed=2, cloud_budget_cents=0)
    sid = s["id"]
    r = await client.patch(
        f"{API}/{sid}", json={"cloud_budget_cents": 900, "max_drift_distance": 1.2, "human_checkpoint_frequency": 4}
    )
    assert r.status_code == 200, r.text
    got = r.json()
    assert (
        got["cloud_budget_cents"],
        got["max_drift_distance"],
        got["human_checkpoint_frequency"],
    ) == (900, 1.2, 4)
    for body, field in (
        ({"cloud_budget_cents": -1}, "cloud_budget_cents"),
        ({"max_drift_distance": 0}, "max_drift_distance"),
        ({"max_drift_distance": 2.5}, "max_drift_distance"),
        ({"human_checkpoint_frequency": -2}, "human_checkpoint_frequency"),
    ):
        bad = await client.patch(f"{API}/{sid}", json=body)
        assert bad.status_code == 422 and bad.json()["field"] == field, bad.text
    await client.post(f"{API}/{sid}/wander", json={"n_steps": 10})
    paused = await wait_idle(client, sid)
    assert paused["status"] == "paused" and paused["stopped_reason"] == "checkpoint" and paused["step_count"] == 4


async def test_n_steps_cap_matches_max_steps(client):
    s = await create(client, max_steps=10000, random_seed=2)
    r = await client.post(f"{API}/{s['id']}/wander", json={"n_steps": 2500})
    assert r.status_code == 202, r.text
    await client.post(f"{API}/{s['id']}/pause")
    over = await client.post(f"{API}/{s['id']}/wander", json={"n_steps": 10001})
    assert over.status_code == 422 and over.json()["field"] == "n_steps"


async def test_planting_never_moves_current_and_start_is_live(client, app):
    s = await create(client, max_steps=10, random_seed=2)
    sid = s["id"]
    await client.post(f"{API}/{sid}/inject", json={"concept": "harbour", "force_visit": False})
    events = await app.store.events_after(sid, 0)
    planted = [e for e in events if e.payload.get("locus", {}).get("concept") == "harbour"]
    assert [e.subject for e in planted] == ["wander.locus.planted"]
    assert planted[0].payload["source"] == "inject"

    seen: list[str] = []
    at_start: list[str] = []

    async def watch(event):
        seen.append(event.subject)
        if event.subject == "wander.step.started":  # what the outbox holds when the start goes out
            at_start.extend(e.subject for e in await app.store.events_after(sid, 0))

    unsubscribe = app.bus.subscribe(watch, session_id=sid)
    try:
        assert (await client.post(f"{API}/{sid}/step")).status_code == 200
    finally:
        unsubscribe()
    assert seen[0] == "wander.step.started" and seen[-1] == "wander.step.completed"
    assert at_start[-1] == "wander.step.started" and "wander.step.completed" not in at_start
    subjects = [e.subject for e in await app.store.events_after(sid, 0)]
    assert subjects.count("wander.step.started") == 1
    assert subjects.index("wander.step.started") < subjects.index("wander.step.completed")


async def test_a_completed_wander_can_be_extended_and_so_can_a_stopped_one(client):
    s = await create(client, max_steps=3, random_seed=2, human_checkpoint_frequency=0)
    sid = s["id"]
    await client.post(f"{API}/{sid}/wander", json={"n_steps": 3})
    done = await wait_idle(client, sid)
    assert (done["status"], done["stopped_reason"]) == ("completed", "max_steps")
    r = await client.patch(f"{API}/{sid}", json={"max_steps": 5, "status": "active"})
    assert r.status_code == 200 and r.json()["status"] == "active" and r.json()["completed_at"] is None
    await client.post(f"{API}/{sid}/wander", json={"n_steps": 2})
    again = await wait_idle(client, sid)
    assert (again["status"], again["step_count"]) == ("completed", 5)

    # Stop ends the run, not the wander: "Extend" takes a stopped one up again (only an
    # abandoned wander stays over, tests/api/test_walk_on_after_stop.py)
    stopped = await create(client, max_steps=3)
    await client.post(f"{API}/{stopped['id']}/stop")
    r = await client.patch(f"{API}/{stopped['id']}", json={"max_steps": 9, "status": "active"})
    assert r.status_code == 200 and (r.json()["status"], r.json()["max_steps"]) == ("active", 9)
