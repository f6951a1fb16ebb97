"""require_crystal_approval (001 scope layer 4, human approval, made required): a wander
that asks for it holds every crystal for a person's verdict, even one the sandwich gate
accepted; the person's accept validates it."""

from __future__ import annotations

from tests.api.conftest import API, create


async def test_the_option_is_a_session_setting(client):
    plain = await create(client)
    assert plain["require_crystal_approval"] is False
    held = await create(client, require_crystal_approval=True)
    assert held["require_crystal_approval"] is True
    assert (await client.get(f"{API}/{held['id']}")).json()["require_crystal_approval"] is True
    bad = await client.post(API, json={"seed_concept": "tide", "require_crystal_approval": "perhaps"})
    assert bad.status_code in (400, 422) and "require_crystal_approval" in bad.text


async def test_every_crystal_waits_for_a_person_then_accept_validates_it(client, app):
    s = await create(
        client,
        seed_concept="tide pool",
        random_seed=3,
        max_steps=400,
        human_checkpoint_frequency=0,
        require_crystal_approval=True,
    )
    sid = s["id"]
    held = []
    while not held and (await app.store.get_session(sid)).step_count < 300:
        await app.engine.run(sid, n_steps=30)
        crystals = (await client.get(f"{API}/{sid}/crystals")).json()
        held = [c for c in crystals if c["validity"].get("gate_verdict") == "accepted"]
    assert held, "in 300 steps the gate accepted no crystal: the hold was never put to the test"
    crystals = (await client.get(f"{API}/{sid}/crystals")).json()
    assert all(c["validity"]["verdict"] != "accepted" for c in crystals), "a crystal stood on the gate alone"
    c = held[0]
    assert c["validity"]["verdict"] == "review" and c["status"] == "active" and not c["human_approved"]
    assert c["validity"]["V"] >= 0.7 and "requires approval" in c["validation_notes"]

    events = await app.store.events_after(sid, 0)
    formed = [e.payload["crystal"] for e in events if e.subject == "wander.crystal.formed"]
    assert {"id": c["id"], "verdict": "review"}.items() <= next(f for f in formed if f["id"] == c["id"]).items()
    assert not [e for e in events if e.subject == "wander.crystal.validated"]

    r = await client.post(f"/api/v1/wander/crystals/{c['id']}/review", json={"verdict": "accept"})
    assert r.status_code == 200, r.text
    assert r.json()["human_approved"] is True and r.json()["status"] == "active"
    after = await app.store.events_after(sid, events[-1].seq)
    assert [e.subject for e in after] == ["wander.crystal.reviewed", "wander.crystal.validated"]
    assert after[1].payload["crystal_id"] == c["id"] and after[1].payload["V"] == c["validity"]["V"]
    again = await client.post(f"/api/v1/wander/crystals/{c['id']}/review", json={"verdict": "reject"})
    assert again.status_code == 409


async def test_a_sub_wander_inherits_the_rule(client):
    s = await create(client, require_crystal_approval=True, max_steps=5)
    await client.post(f"{API}/{s['id']}/wander", params={"wait": "true"}, json={"n_steps": 2})
    loci = (await client.get(f"{API}/{s['id']}/loci")).json()
    r = await client.post(f"{API}/{s['id']}/loci/{loci[-1]['id']}/subwander", json={"max_steps": 5})
    assert r.status_code == 201, r.text
    assert r.json()["require_crystal_approval"] is True
