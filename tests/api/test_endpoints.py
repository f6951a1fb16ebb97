"""Every endpoint of 000's Session Management, Wander Control and Memory Inspection."""

import asyncio

from tests.api.conftest import API, create, wait_idle


async def test_create_get_list_patch_delete(client):
    a = await create(client, name="first", seed_concept="tide pool", max_steps=3, random_seed=1)
    b = await create(client, seed_concept="market", attractor="price signals", allowed_domains=["act", "possession"])
    assert a["status"] == "active" and a["step_count"] == 0 and a["current_locus_id"]
    assert b["allowed_domains"] == ["act", "possession"] and b["attractor"] == "price signals"
    got = (await client.get(f"{API}/{a['id']}")).json()
    assert got["name"] == "first" and got["last_event_seq"] == 2

    page = (await client.get(API, params={"limit": 1, "offset": 0})).json()
    assert page["total"] == 2 and len(page["items"]) == 1 and page["items"][0]["id"] == b["id"]
    page2 = (await client.get(API, params={"limit": 1, "offset": 1})).json()
    assert page2["items"][0]["id"] == a["id"]

    r = await client.patch(f"{API}/{a['id']}", json={"name": "renamed", "temperature": 1.3, "max_steps": 5})
    assert r.status_code == 200 and r.json()["name"] == "renamed" and r.json()["temperature"] == 1.3
    r = await client.patch(f"{API}/{a['id']}", json={"status": "paused"})
    assert r.json()["status"] == "paused"
    only_paused = (await client.get(API, params={"status": "paused"})).json()
    assert [s["id"] for s in only_paused["items"]] == [a["id"]]

    assert (await client.delete(f"{API}/{b['id']}")).status_code == 204
    assert (await client.get(f"{API}/{b['id']}")).status_code == 404
    assert (await client.get(API)).json()["total"] == 1


async def test_step_wander_pause_resume_stop(client):
    s = await create(client, max_steps=40, random_seed=4)
    sid = s["id"]
    r = await client.post(f"{API}/{sid}/step")
    assert r.status_code == 200
    step = r.json()
    assert step["step_number"] == 1 and step["from_locus"]["concept"] == "information asymmetry"
    assert all(step["residue"][f] for f in ("connection", "tension", "bridge", "surprise", "possibility"))

    r = await client.post(f"{API}/{sid}/wander", json={"n_steps": 4})
    assert r.status_code == 202 and r.json()["running"] is True and r.json()["from_step"] == 1
    done = await wait_idle(client, sid)
    assert done["step_count"] == 5

    await client.post(f"{API}/{sid}/wander", json={"n_steps": 100})
    await asyncio.sleep(0.1)
    r = await client.post(f"{API}/{sid}/pause")
    assert r.status_code == 200 and r.json()["status"] == "paused"
    paused = await wait_idle(client, sid)
    at_pause = paused["step_count"]
    await asyncio.sleep(0.3)
    assert (await client.get(f"{API}/{sid}")).json()["step_count"] == at_pause, "stepped while paused"
    assert (await client.post(f"{API}/{sid}/step")).status_code == 409

    r = await client.post(f"{API}/{sid}/resume")
    assert r.status_code == 200 and r.json()["status"] == "active"
    finished = await wait_idle(client, sid)
    assert at_pause < 40 and finished["step_count"] == 40 and finished["status"] == "completed"
    assert (await client.post(f"{API}/{sid}/step")).status_code == 409
    assert (await client.post(f"{API}/{sid}/resume")).status_code == 409

    other = await create(client, max_steps=50)
    r = await client.post(f"{API}/{other['id']}/stop")
    assert r.json()["status"] == "completed" and r.json()["stopped_reason"] == "stopped by request"


async def test_memory_inspection(client, app):
    s = await create(client, max_steps=6, random_seed=2)
    sid = s["id"]
    await client.post(f"{API}/{sid}/wander", json={"n_steps": 6})
    await wait_idle(client, sid)
    trace = (await client.get(f"{API}/{sid}/trace")).json()
    assert [t["step_number"] for t in trace] == [1, 2, 3, 4, 5, 6]
    assert trace[0]["from_concept"] == "information asymmetry" and trace[0]["residue"]["themes"]

    loci = (await client.get(f"{API}/{sid}/loci")).json()
    assert len(loci) >= 2 and loci[0]["source_type"] == "SEED"
    assert (await client.get(f"{API}/{sid}/loci", params={"visited": "false"})).json() == []
    high = (await client.get(f"{API}/{sid}/loci", params={"min_interestingness": 0.6})).json()
    assert all(lo["interestingness"] >= 0.6 for lo in high)

    target = trace[2]["to_locus_id"]
    detail = (await client.get(f"{API}/{sid}/loci/{target}")).json()
    assert detail["concept"] == trace[2]["to_concept"]
    assert detail["arrived_by"]["connection"] == trace[2]["residue"]["connection"]
    assert {
        "locus_id": trace[2]["from_locus_id"],
        "concept": trace[2]["from_concept"],
        "direction": "from",
        "step_number": 3,
    } in detail["connections"]

    resonances = (await client.get(f"{API}/{sid}/resonances")).json()
    assert resonances and all(r["themes"] and r["session_id"] == sid for r in resonances)
    # each step's themes made a resonance or reinforced one: one occurrence per supporting residue
    assert all(r["occurrences"] == len(r["supporting_residue_ids"]) >= 1 for r in resonances)
    assert sum(r["occurrences"] for r in resonances) == len(trace) == 6
    # a six-step wander invalidates nothing (no day has passed), and confirms only at 4 occurrences
    assert all(
        r["status"] == "candidate" or (r["status"], r["occurrences"] >= 4) == ("confirmed", True) for r in resonances
    )
    # The wander's crystals, and only its own: one stored for it, one for another wander (the walk
    # may have formed crystals of its own in six steps: they stay listed).
    formed = {c["id"] for c in (await client.get(f"{API}/{sid}/crystals")).json()}
    other = await create(client, seed_concept="tide pool")
    mine, theirs = _crystal(s, trace[1]["to_locus_id"], app), _crystal(other, None, app)
    for c in (mine, theirs):
        await app.store.save_crystal(c, [])
    crystals = (await client.get(f"{API}/{sid}/crystals")).json()
    assert {c["id"] for c in crystals} == formed | {mine.id} and len(crystals) == len(formed) + 1
    assert all(c["session_id"] == sid for c in crystals)
    stored = next(c for c in crystals if c["id"] == mine.id)
    assert stored["source_locus_id"] == trace[1]["to_locus_id"]


def _crystal(session: dict, locus_id: str | None, app):
    from datetime import UTC, datetime

    import numpy as np

    from wander.core.domain.models import Crystal, new_id

    v = np.zeros(app.knowledge.dim, dtype=np.float32)
    v[1] = 1.0
    return Crystal(
        id=new_id(),
        project_id=session["project_id"],
        session_id=session["id"],
        insight="an insight",
        embedding=v,
        confidence=0.75,
        actionability=0.4,
        domains=["artifact"],
        source_locus_id=locus_id,
        created_at=datetime.now(UTC),
    )


async def test_openapi_health_domains_and_deep_links(client):
    spec = (await client.get("/schema/openapi.json")).json()
    paths = set(spec["paths"])
    for p in (
        "/api/v1/wander/sessions",
        "/api/v1/wander/sessions/{session_id}/step",
        "/api/v1/wander/sessions/{session_id}/wander",
        "/api/v1/wander/sessions/{session_id}/loci/{locus_id}",
        "/api/v1/wander/sessions/{session_id}/trace",
        "/api/v1/wander/crystals/{crystal_id}/attractor.png",
    ):
        assert p in paths, p
    # the problem answers are added to the document when it is first read (openapi_problems.py)
    answers = spec["paths"]["/api/v1/wander/sessions"]["post"]["responses"]
    assert {"201", "400", "401", "404", "409", "422"} <= set(answers), sorted(answers)
    assert "application/problem+json" in answers["422"]["content"]
    assert (await client.get("/api/v1/health")).json()["concepts"] >= 10000
    domains = (await client.get("/api/v1/wander/domains")).json()
    assert "artifact" in domains and domains == sorted(domains)
    deep = await client.get("/sessions/0b7e/anything")
    assert deep.status_code == 200 and "text/html" in deep.headers["content-type"]
    missing = await client.get("/api/v1/nothing-here")
    assert missing.status_code == 404 and missing.headers["content-type"].startswith("application/problem+json")
