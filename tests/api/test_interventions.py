"""Manual intervention, cross-session queries and sub-wanders through the HTTP API."""

from tests.api.conftest import API, create, wait_idle


async def test_inject_fence_crystallize_and_cross_session(client):
    s = await create(client, max_steps=60, random_seed=3, human_checkpoint_frequency=0)
    sid = s["id"]
    await client.post(f"{API}/{sid}/wander", json={"n_steps": 20})
    await wait_idle(client, sid)

    r = await client.post(f"{API}/{sid}/inject", json={"concept": "lighthouse"})
    assert r.status_code == 200
    step = (await client.post(f"{API}/{sid}/step")).json()
    assert step["to_locus"]["concept"] == "lighthouse"
    r = await client.post(f"{API}/{sid}/inject", json={"concept": "harbour", "force_visit": False})
    assert r.status_code == 200
    assert "harbour" in {lo["concept"] for lo in (await client.get(f"{API}/{sid}/loci")).json()}

    r = await client.post(f"{API}/{sid}/fence", json={"concept": "weapon", "action": "exclude"})
    assert r.status_code == 200
    bad = await client.post(f"{API}/{sid}/fence", json={"concept": "weapon", "action": "maybe"})
    assert bad.status_code == 422 and bad.json()["field"] == "action"

    r = await client.post(f"{API}/{sid}/crystallize")
    assert r.status_code == 200
    body = r.json()
    assert body["rumination_steps"] >= 1 and body["outcome"] in ("accepted", "review", "rejected")
    c = body["crystal"]  # this wander (seed 3, 21 steps) crystallizes on demand
    assert c["session_id"] == sid and c["structural_type"] and "V" in c["validity"] and c["rumination"]
    png = await client.get(f"/api/v1/wander/crystals/{c['id']}/attractor.png")
    assert png.status_code == 200 and png.content[:4] == b"\x89PNG"

    every = (await client.get("/api/v1/wander/crystals", params={"status": c["status"]})).json()
    assert c["id"] in {x["id"] for x in every} and {x["status"] for x in every} == {c["status"]}
    above = (await client.get("/api/v1/wander/crystals", params={"min_confidence": c["confidence"], "status": c["status"]})).json()
    below = (await client.get("/api/v1/wander/crystals", params={"min_confidence": min(1, c["confidence"] + 0.01),
                                                                       "status": c["status"]})).json()
    assert c["id"] in {x["id"] for x in above} and c["id"] not in {x["id"] for x in below}
    assert all(x["confidence"] >= c["confidence"] for x in above)
    res = (await client.get("/api/v1/wander/resonances")).json()
    assert res and {r["status"] for r in res} <= {"candidate", "confirmed", "invalidated"}
    assert (await client.get("/api/v1/wander/resonances", params={"status": "bogus"})).status_code == 422

    hits = (await client.post("/api/v1/wander/search", json={"query": "lighthouse", "types": ["locus"], "limit": 3})).json()
    assert hits[0]["text"] == "lighthouse" and hits[0]["similarity"] >= max(h["similarity"] for h in hits)
    mixed = (await client.post("/api/v1/wander/search", json={"query": "secrets and markets"})).json()
    assert {h["type"] for h in mixed} <= {"locus", "crystal", "resonance"} and len(mixed) <= 10
    for body, field in (({"query": ""}, "query"), ({"query": "x", "types": ["planet"]}, "types"),
                        ({"query": "x", "limit": 0}, "limit")):  # fmt: skip
        r = await client.post("/api/v1/wander/search", json=body)
        assert r.status_code == 422 and r.json()["field"].startswith(field)


async def test_subwander_endpoint_and_children(client):
    s = await create(client, max_steps=30, random_seed=4, cloud_budget_cents=400)
    sid = s["id"]
    await client.post(f"{API}/{sid}/wander", json={"n_steps": 6})
    await wait_idle(client, sid)
    loci = (await client.get(f"{API}/{sid}/loci")).json()
    r = await client.post(f"{API}/{sid}/loci/{loci[2]['id']}/subwander", json={"max_steps": 4, "budget_share": 0.5})
    assert r.status_code == 201, r.text
    child = r.json()
    assert child["parent_session_id"] == sid and child["seed_concept"] == loci[2]["concept"]
    assert child["cloud_budget_cents"] == 200
    assert (await client.get(f"{API}/{sid}")).json()["cloud_budget_cents"] == 200
    kids = (await client.get(f"{API}/{sid}/children")).json()
    assert [k["id"] for k in kids] == [child["id"]]
    r = await client.post(f"{API}/{sid}/loci/{loci[2]['id']}/subwander", json={"budget_share": 2})
    assert r.status_code == 422 and r.json()["field"] == "budget_share"
    r = await client.post(f"{API}/{sid}/loci/00000000-0000-0000-0000-000000000001/subwander", json={})
    assert r.status_code == 404 and r.json()["field"] == "locus_id"
