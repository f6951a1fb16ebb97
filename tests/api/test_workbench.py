"""The mind map's own endpoints: crystal review, the fence as a list, comparing two loci."""

import numpy as np

from tests.api.conftest import API, create, wait_idle
from wander.core.domain.models import Crystal, new_id


async def _crystal(app, sid: str, loci: list[dict], verdict: str, v: float) -> str:
    c = Crystal(
        id=new_id(),
        project_id=app.engine.project_id,
        session_id=sid,
        insight=f"a {verdict} insight {new_id()}",
        embedding=np.ones(384, dtype=np.float32) / np.sqrt(384),
        confidence=v,
        actionability=0.5,
        domains=["noun.act"],
        bread_a_locus_id=loci[1]["id"],
        bread_b_locus_id=loci[2]["id"],
        validity={"V": v, "verdict": verdict},
        structural_type="bridge",
    )
    await app.store.save_crystal(c, [])
    return c.id


async def test_review_a_crystal_kept_for_review(client, app):
    s = await create(client, max_steps=20, random_seed=5, human_checkpoint_frequency=0)
    sid = s["id"]
    await client.post(f"{API}/{sid}/wander", json={"n_steps": 4})
    await wait_idle(client, sid)
    loci = (await client.get(f"{API}/{sid}/loci")).json()
    marginal = await _crystal(app, sid, loci, "review", 0.62)
    strong = await _crystal(app, sid, loci, "accepted", 0.81)
    before = (await client.get(f"{API}/{sid}")).json()["last_event_seq"]

    bad = await client.post(f"/api/v1/wander/crystals/{marginal}/review", json={"verdict": "maybe"})
    assert bad.status_code == 422 and bad.json()["field"] == "verdict"
    r = await client.post(
        f"/api/v1/wander/crystals/{marginal}/review",
        json={"verdict": "accept", "note": "holds up"},
    )
    assert r.status_code == 200, r.text
    assert r.json()["human_approved"] is True and r.json()["status"] == "active"
    assert "holds up" in r.json()["validation_notes"]
    again = await client.post(f"/api/v1/wander/crystals/{marginal}/review", json={"verdict": "reject"})
    assert again.status_code == 409
    not_marginal = await client.post(f"/api/v1/wander/crystals/{strong}/review", json={"verdict": "reject"})
    assert not_marginal.status_code == 409
    missing = await client.post(f"/api/v1/wander/crystals/{new_id()}/review", json={"verdict": "accept"})
    assert missing.status_code == 404

    events = [e for e in await app.store.events_after(sid, before) if e.subject == "wander.crystal.reviewed"]
    assert [(e.payload["crystal_id"], e.payload["verdict"]) for e in events] == [(marginal, "accept")]

    other = await _crystal(app, sid, loci, "review", 0.55)
    r = await client.post(f"/api/v1/wander/crystals/{other}/review", json={"verdict": "reject"})
    assert r.status_code == 200 and r.json()["status"] == "invalidated" and r.json()["human_approved"] is False


async def test_fence_list_and_remove(client):
    sid = (await create(client, max_steps=10, random_seed=6))["id"]
    assert (await client.get(f"{API}/{sid}/fences")).json() == []
    await client.post(f"{API}/{sid}/fence", json={"concept": "weapon", "action": "exclude"})
    await client.post(f"{API}/{sid}/fence", json={"concept": "market", "action": "include"})
    assert (await client.get(f"{API}/{sid}/fences")).json() == [
        {"concept": "weapon", "action": "exclude"},
        {"concept": "market", "action": "include"},
    ]
    r = await client.delete(f"{API}/{sid}/fences", params={"concept": "weapon"})
    assert r.status_code == 200 and r.json() == [{"concept": "market", "action": "include"}]
    assert (await client.delete(f"{API}/{sid}/fences", params={"concept": "weapon"})).status_code == 404
    assert (await client.get(f"{API}/{sid}/fences")).json() == [{"concept": "market", "action": "include"}]


async def test_compare_two_loci(client):
    sid = (await create(client, max_steps=20, random_seed=7, human_checkpoint_frequency=0))["id"]
    await client.post(f"{API}/{sid}/wander", json={"n_steps": 5})
    await wait_idle(client, sid)
    trace = (await client.get(f"{API}/{sid}/trace")).json()
    a, b = trace[0]["from_locus_id"], trace[2]["to_locus_id"]
    r = await client.get(f"{API}/{sid}/compare", params={"a": a, "b": b})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["a"]["id"] == a and body["b"]["id"] == b
    assert 0 < body["cosine_distance"] <= 2
    assert body["path"][0] == a and body["path"][-1] == b and len(body["path"]) <= 4
    assert body["midpoint_concept"] not in (
        None,
        body["a"]["concept"],
        body["b"]["concept"],
    )
    assert set(body["shared_domains"]).isdisjoint(body["only_a_domains"])
    same = await client.get(f"{API}/{sid}/compare", params={"a": a, "b": a})
    assert same.status_code == 422 and same.json()["field"] == "b"
