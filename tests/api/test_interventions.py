"""Manual intervention, cross-session queries and sub-wanders through the HTTP API."""

import asyncio

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
    c = body["crystal"]  # this wander (seed 3, 21 steps) crystallizes on demand
    assert body["rumination_steps"] == len(c["rumination"]) >= 1
    # the outcome is the gate's verdict on V (accept at 0.7, review from 0.5), and the status follows it
    v, verdict = c["validity"]["V"], c["validity"]["verdict"]
    assert body["outcome"] == verdict and c["confidence"] == v
    if verdict == "accepted":
        assert v >= 0.7 and c["status"] == "active"
    elif verdict == "review":
        assert 0.5 <= v < 0.7 and c["status"] == "active"
    else:
        assert verdict == "rejected" and c["status"] == "invalidated", verdict
    assert c["session_id"] == sid and c["structural_type"] and "V" in c["validity"] and c["rumination"]
    png = await client.get(f"/api/v1/wander/crystals/{c['id']}/attractor.png")
    assert png.status_code == 200 and png.content[:4] == b"\x89PNG"

    every = (await client.get("/api/v1/wander/crystals", params={"status": c["status"]})).json()
    assert c["id"] in {x["id"] for x in every} and {x["status"] for x in every} == {c["status"]}
    above = (
        await client.get("/api/v1/wander/crystals", params={"min_confidence": c["confidence"], "status": c["status"]})
    ).json()
    below = (
        await client.get(
            "/api/v1/wander/crystals", params={"min_confidence": min(1, c["confidence"] + 0.01), "status": c["status"]}
        )
    ).json()
    assert c["id"] in {x["id"] for x in above} and c["id"] not in {x["id"] for x in below}
    assert all(x["confidence"] >= c["confidence"] for x in above)
    res = (await client.get("/api/v1/wander/resonances")).json()
    assert res
    for r in res:  # the lifecycle: one occurrence per supporting residue; confirmed at 4 and more
        assert r["occurrences"] == len(r["supporting_residue_ids"]) >= 1, r
        assert r["status"] != "confirmed" or r["occurrences"] >= 4, r
    for status in ("candidate", "confirmed"):
        only = (await client.get("/api/v1/wander/resonances", params={"status": status})).json()
        assert {r["id"] for r in only} == {r["id"] for r in res if r["status"] == status}, status
    assert any(r["status"] == "candidate" for r in res), "21 steps leave candidates"
    assert (await client.get("/api/v1/wander/resonances", params={"status": "bogus"})).status_code == 422

    hits = (
        await client.post("/api/v1/wander/search", json={"query": "lighthouse", "types": ["locus"], "limit": 3})
    ).json()
    assert hits[0]["text"] == "lighthouse" and hits[0]["similarity"] >= max(h["similarity"] for h in hits)
    mixed = (await client.post("/api/v1/wander/search", json={"query": "secrets and markets"})).json()
    assert {h["type"] for h in mixed} <= {"locus", "crystal", "resonance"} and len(mixed) <= 10
    for body, field in (
        ({"query": ""}, "query"),
        ({"query": "x", "types": ["planet"]}, "types"),
        ({"query": "x", "limit": 0}, "limit"),
    ):
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


async def test_subwander_spawn_is_one_event_on_the_parent_stream(client, app):
    s = await create(client, max_steps=30, random_seed=5, cloud_budget_cents=300)
    sid = s["id"]
    await client.post(f"{API}/{sid}/wander", json={"n_steps": 3})
    await wait_idle(client, sid)
    locus = (await client.get(f"{API}/{sid}/loci")).json()[1]
    before = (await client.get(f"{API}/{sid}")).json()["last_event_seq"]
    heard: list = []

    async def hear(event):
        heard.append(event)

    unsubscribe = app.bus.subscribe(hear, session_id=sid)
    try:
        r = await client.post(f"{API}/{sid}/loci/{locus['id']}/subwander", json={"max_steps": 4, "budget_share": 0.5})
    finally:
        unsubscribe()
    assert r.status_code == 201, r.text
    child = r.json()
    spawned = [e for e in await app.store.events_after(sid, 0) if e.subject == "wander.subwander.spawned"]
    assert len(spawned) == 1
    e = spawned[0]
    assert e.session_id == sid and e.seq == before + 1  # the parent's next seq
    assert e.payload == {
        "session_id": sid,
        "child_session_id": child["id"],
        "parent_locus_id": locus["id"],
        "seed_concept": locus["concept"],
        "name": child["name"],
        "max_steps": 4,
        "budget_share": 0.5,
        "cloud_budget_cents": 150,
    }
    assert child["cloud_budget_cents"] == 150 and (await client.get(f"{API}/{sid}")).json()["cloud_budget_cents"] == 150
    # published on the parent's stream; the child's stream begins with its own creation
    assert [(h.subject, h.seq) for h in heard] == [("wander.subwander.spawned", e.seq)]
    child_subjects = [x.subject for x in await app.store.events_after(child["id"], 0)]
    assert child_subjects[0] == "wander.session.created" and "wander.subwander.spawned" not in child_subjects
    # a refused spawn announces nothing
    r = await client.post(f"{API}/{sid}/loci/{locus['id']}/subwander", json={"budget_share": 2})
    assert r.status_code == 422
    assert [x.subject for x in await app.store.events_after(sid, e.seq)] == []


async def test_a_hint_of_a_concept_the_wander_has_reuses_its_locus(client, app):
    s = await create(client, max_steps=30, random_seed=6)
    sid = s["id"]
    await client.post(f"{API}/{sid}/wander", json={"n_steps": 3})
    await wait_idle(client, sid)
    loci = (await client.get(f"{API}/{sid}/loci")).json()
    seed = next(lo for lo in loci if lo["source_type"] == "SEED")
    last = (await client.get(f"{API}/{sid}")).json()["last_event_seq"]
    r = await client.post(f"{API}/{sid}/inject", json={"concept": seed["concept"].upper(), "force_visit": False})
    assert r.status_code == 200
    after = (await client.get(f"{API}/{sid}/loci")).json()
    assert len(after) == len(loci)
    assert [lo["id"] for lo in after if lo["concept"].lower() == seed["concept"].lower()] == [seed["id"]]
    planted = await app.store.events_after(sid, last)
    assert [x.subject for x in planted] == ["wander.locus.planted"]
    assert planted[0].payload["source"] == "inject"
    assert planted[0].payload["locus"]["id"] == seed["id"]
    assert planted[0].payload["locus"]["concept"] == seed["concept"]
    assert planted[0].payload["locus"]["source_type"] == "SEED" and planted[0].payload["locus"]["visit_count"] >= 1

    # a new concept is planted once, even when two hints of it arrive at once
    hints = [
        client.post(f"{API}/{sid}/inject", json={"concept": "harbour pilot", "force_visit": False}) for _ in range(2)
    ]
    assert [h.status_code for h in await asyncio.gather(*hints)] == [200, 200]
    pilots = [lo for lo in (await client.get(f"{API}/{sid}/loci")).json() if lo["concept"] == "harbour pilot"]
    assert [lo["source_type"] for lo in pilots] == ["SERENDIPITOUS"]
    named = [x.payload["locus"]["id"] for x in await app.store.events_after(sid, planted[0].seq)]
    assert named == [pilots[0]["id"]] * 2
