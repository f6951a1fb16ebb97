"""A decision a person makes in VISLZR is recorded "via web" (the page says so with a header),
not "via api" like any HTTP client's."""

from tests.api.test_proposals import A, accepted_crystal, decision, propose, reviewed_sha, write_assets


async def test_a_decision_made_in_the_page_is_recorded_via_web(app, client):
    write_assets(app)
    _, crystal_id = await accepted_crystal(app, client)
    p = await propose(client, crystal_id)
    sha = await reviewed_sha(client, p)
    r = await client.post(f"{A}/proposals/{p['id']}/approve", json=decision(sha), headers={"X-Wander-Client": "vislzr"})
    assert r.status_code == 200, r.text
    assert r.json()["decision"]["via"] == "web"
    got = (await client.get(f"{A}/proposals/{p['id']}")).json()
    assert got["decision"]["via"] == "web"
