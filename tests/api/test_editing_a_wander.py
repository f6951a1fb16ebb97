"""Editing a wander over the API: PATCH of its budget, drift and checkpoint settings (each
bad value named), the n_steps cap that matches max_steps, and extending a completed or
stopped wander."""

from tests.api.conftest import API, create, wait_idle


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
