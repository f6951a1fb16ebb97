"""A stopped wander can be walked on: Stop ends the run, and "Extend" (max_steps raised,
status active) takes it up again, as it does for a wander that took all its steps."""

from __future__ import annotations

from tests.api.conftest import API, create


async def test_a_stopped_wander_is_extended_and_steps_on(client):
    s = await create(client, max_steps=3, random_seed=5, human_checkpoint_frequency=0)
    sid = s["id"]
    for _ in range(2):
        assert (await client.post(f"{API}/{sid}/step")).status_code == 200
    stopped = (await client.post(f"{API}/{sid}/stop")).json()
    assert stopped["status"] == "completed" and stopped["stopped_reason"] == "stopped by request"
    assert (await client.post(f"{API}/{sid}/step")).status_code == 409  # stopped: no step

    r = await client.patch(f"{API}/{sid}", json={"max_steps": 2 + 4, "status": "active"})
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "active" and r.json()["max_steps"] == 6
    step = await client.post(f"{API}/{sid}/step")
    assert step.status_code == 200 and step.json()["step_number"] == 3


async def test_an_abandoned_wander_stays_over(client):
    s = await create(client, max_steps=5, random_seed=6, human_checkpoint_frequency=0)
    sid = s["id"]
    assert (await client.patch(f"{API}/{sid}", json={"status": "abandoned"})).status_code == 200
    r = await client.patch(f"{API}/{sid}", json={"max_steps": 9, "status": "active"})
    assert r.status_code == 409
