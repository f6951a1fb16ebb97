"""POST .../wander?wait=true answers when the run is over with 000's shape
{steps_completed, crystals_formed, stopped_reason}; without it the run goes on in the
background (202 and a run descriptor)."""

from __future__ import annotations

import asyncio

from tests.api.conftest import API, create, wait_idle

WAIT_S = 600  # a waited-for run answers when it is over: a busy machine may take minutes


async def _crystals(client, sid: str) -> int:
    """The wander's crystals that formed (a filling the gate rejected is kept, invalidated)."""
    r = await client.get(f"{API}/{sid}/crystals")
    assert r.status_code == 200, r.text
    return sum(c["status"] != "invalidated" for c in r.json())


async def test_wait_answers_with_what_the_run_did(client):
    sid = (await create(client, max_steps=150, random_seed=3, human_checkpoint_frequency=0))["id"]

    r = await client.post(f"{API}/{sid}/wander", params={"wait": "true"}, timeout=WAIT_S, json={"n_steps": 45})
    assert r.status_code == 200, r.text
    first = r.json()
    assert first == {
        "session_id": sid,
        "steps_completed": 45,
        "crystals_formed": first["crystals_formed"],
        "stopped_reason": None,  # the steps were taken; the wander goes on
        "status": "active",
        "step_count": 45,
    }
    session = (await client.get(f"{API}/{sid}")).json()
    assert session["step_count"] == 45 and session["running"] is False, "answered before the run was over"
    assert first["crystals_formed"] == await _crystals(client, sid)

    r = await client.post(f"{API}/{sid}/wander", params={"wait": "true"}, timeout=WAIT_S, json={"n_steps": 200})
    assert r.status_code == 200, r.text
    last = r.json()
    assert last["steps_completed"] == 105 and last["step_count"] == 150, last
    assert last["status"] == "completed" and last["stopped_reason"] == "max_steps"
    assert first["crystals_formed"] + last["crystals_formed"] == await _crystals(client, sid)
    assert last["crystals_formed"] >= 1, "105 steps form a crystal: the count is checked against one"


async def test_without_wait_the_run_goes_on_in_the_background(client):
    sid = (await create(client, max_steps=30, random_seed=1))["id"]
    r = await client.post(f"{API}/{sid}/wander", json={"n_steps": 20, "step_delay_ms": 20})
    assert r.status_code == 202, r.text
    assert r.json() == {"session_id": sid, "n_steps": 20, "from_step": 0, "status": "active", "running": True}
    r = await client.post(f"{API}/{sid}/wander", params={"wait": "false"}, json={"n_steps": 5})
    assert r.status_code == 409, "a second run while the first goes on"
    assert (await wait_idle(client, sid))["step_count"] == 20


async def test_a_pause_mid_wait_ends_the_wait_with_its_reason(client):
    sid = (await create(client, max_steps=300, random_seed=5))["id"]
    waiting = asyncio.create_task(
        client.post(
            f"{API}/{sid}/wander", params={"wait": "true"}, timeout=WAIT_S, json={"n_steps": 300, "step_delay_ms": 50}
        )
    )
    for _ in range(600):
        if (await client.get(f"{API}/{sid}")).json()["step_count"] >= 3:
            break
        assert not waiting.done(), (await waiting).text
        await asyncio.sleep(0.05)
    r = await client.post(f"{API}/{sid}/pause")
    assert r.status_code == 200, r.text

    r = await asyncio.wait_for(waiting, 60)
    assert r.status_code == 200, r.text
    out = r.json()
    session = (await client.get(f"{API}/{sid}")).json()
    assert out["status"] == "paused" and out["stopped_reason"] == "paused by request"
    assert 3 <= out["steps_completed"] < 300
    assert out["steps_completed"] == out["step_count"] == session["step_count"]
    assert session["running"] is False


async def test_a_checkpoint_ends_the_wait_where_it_pauses(client):
    sid = (await create(client, max_steps=40, random_seed=2, human_checkpoint_frequency=8))["id"]
    r = await client.post(f"{API}/{sid}/wander", params={"wait": "true"}, timeout=WAIT_S, json={"n_steps": 30})
    assert r.status_code == 200, r.text
    out = r.json()
    assert (out["steps_completed"], out["step_count"]) == (8, 8), out
    assert (out["status"], out["stopped_reason"]) == ("paused", "checkpoint")


async def test_a_wait_on_a_paused_wander_is_refused(client):
    sid = (await create(client, max_steps=10))["id"]
    assert (await client.post(f"{API}/{sid}/pause")).status_code == 200
    r = await client.post(f"{API}/{sid}/wander", params={"wait": "true"}, timeout=WAIT_S, json={"n_steps": 3})
    assert r.status_code == 409 and "resume it first" in r.json()["detail"]


async def test_the_openapi_document_names_both_answers(client):
    spec = (await client.get("/schema/openapi.json")).json()
    op = spec["paths"]["/api/v1/wander/sessions/{session_id}/wander"]["post"]
    assert {"200", "202"} <= set(op["responses"])
    ok = op["responses"]["200"]["content"]["application/json"]["schema"]
    started = op["responses"]["202"]["content"]["application/json"]["schema"]
    assert ok["$ref"].endswith("/WanderOutcome") and started["$ref"].endswith("/WanderStarted")
    outcome = spec["components"]["schemas"]["WanderOutcome"]
    assert {"steps_completed", "crystals_formed", "stopped_reason"} <= set(outcome["properties"])
    wait = [p for p in op["parameters"] if p["name"] == "wait"]
    assert wait and wait[0]["in"] == "query" and wait[0]["schema"]["type"] == "boolean"
