"""The paper wallet's limits over HTTP: the session budget per session, the session and day
loss limits counted on the worst-case loss (a stop loss of 0.4 makes it differ from the
cost), the breaker each one trips, the `rejected` event, and the human gate on a server
that requires WANDER_API_TOKEN."""

from __future__ import annotations

import math

import httpx

from tests.api.conftest import start_server
from tests.api.test_proposals import A, accepted_crystal, decision, propose, write_assets
from wander.faces.api.app import ApiSettings

STOP = 0.4
HUGE = 100000.0


async def approved(client, crystal_id: str) -> dict:
    p = await propose(client, crystal_id)
    r = await client.post(f"{A}/proposals/{p['id']}/approve", json=decision(p["image_sha256"]))
    assert r.status_code == 200, r.text
    return p


async def execute(client, p: dict) -> httpx.Response:
    return await client.post(f"{A}/proposals/{p['id']}/execute")


async def events_of(app, session_id: str) -> list[str]:
    return [
        e.subject.rsplit(".", 1)[1]
        for e in await app.store.events_after(session_id)
        if e.subject.startswith("wander.proposal.")
    ]


async def test_the_session_budget_is_per_session(app, client):
    write_assets(app)
    sid_a, crystal_a = await accepted_crystal(app, client)
    _, crystal_b = await accepted_crystal(app, client)
    first = await approved(client, crystal_a)
    cost = first["evaluation"]["cost_cents"]
    write_assets(app, session_budget=cost * 1.5 / 100)  # one execution per session fits
    assert (await execute(client, first)).status_code == 200
    assert (await execute(client, await approved(client, crystal_b))).status_code == 200  # another session
    second_a = await approved(client, crystal_a)
    r = await execute(client, second_a)
    assert r.status_code == 409 and "session budget would be crossed" in r.json()["detail"]
    assert f"({2 * cost / 100:.2f} > {cost * 1.5 / 100:.2f})" in r.json()["detail"]
    wallet = (await client.get(f"{A}/wallet")).json()
    assert "session budget" in wallet["breaker"] and sum(x["amount_cents"] for x in wallet["ledger"]) == 2 * cost
    assert (await events_of(app, sid_a))[-1] == "refused"


async def test_the_session_loss_limit_counts_worst_case_loss_not_cost(app, client):
    write_assets(app, stop_loss=STOP)
    sid, crystal_id = await accepted_crystal(app, client)
    first = await approved(client, crystal_id)
    cost, loss = first["evaluation"]["cost_cents"], first["evaluation"]["worst_case_loss_cents"]
    assert loss == math.ceil(cost * STOP) < cost
    # Room for two worst-case losses but not for two costs: were the cost counted, the second would fail.
    write_assets(app, stop_loss=STOP, session_loss_limit=2 * loss / 100)
    assert 2 * loss < 2 * cost and (await execute(client, first)).status_code == 200
    assert (await execute(client, await approved(client, crystal_id))).status_code == 200
    r = await execute(client, await approved(client, crystal_id))
    assert r.status_code == 409 and "session loss limit would be crossed" in r.json()["detail"]
    wallet = (await client.get(f"{A}/wallet")).json()
    assert len(wallet["ledger"]) == 2 and "session loss limit" in wallet["breaker"]
    assert wallet["positions"][0]["worst_case_loss_cents"] == 2 * loss
    assert (await events_of(app, sid))[-4:] == ["proposed", "encoded", "approved", "refused"]


async def test_the_day_loss_limit_spans_sessions_and_the_breaker_holds_for_the_day(app, client):
    write_assets(app, stop_loss=STOP)
    _, crystal_a = await accepted_crystal(app, client)
    sid_b, crystal_b = await accepted_crystal(app, client)
    first = await approved(client, crystal_a)
    loss = first["evaluation"]["worst_case_loss_cents"]
    write_assets(app, stop_loss=STOP, day_loss_limit=loss * 1.5 / 100, session_loss_limit=HUGE)
    assert (await execute(client, first)).status_code == 200
    r = await execute(client, await approved(client, crystal_b))
    assert r.status_code == 409 and "day loss limit would be crossed" in r.json()["detail"]
    # The breaker stays tripped for the UTC day, whatever the next proposal costs.
    write_assets(app, stop_loss=STOP)
    r = await execute(client, await approved(client, crystal_b))
    assert r.status_code == 409 and "breaker is tripped for today" in r.json()["detail"]
    assert len((await client.get(f"{A}/wallet")).json()["ledger"]) == 1
    assert (await events_of(app, sid_b)).count("refused") == 2


async def test_a_rejection_is_an_event_with_its_reviewer(app, client):
    write_assets(app)
    sid, crystal_id = await accepted_crystal(app, client)
    p = await propose(client, crystal_id)
    r = await client.post(f"{A}/proposals/{p['id']}/reject", json={**decision(p["image_sha256"], "eve"), "note": "no"})
    assert r.status_code == 200 and r.json()["decision"]["note"] == "no"
    (rejected,) = [e for e in await app.store.events_after(sid) if e.subject == "wander.proposal.rejected"]
    assert rejected.payload["proposal_id"] == p["id"] and rejected.payload["reviewer"] == "eve"
    assert rejected.payload["status"] == "rejected" and rejected.payload["image_sha256"] == p["image_sha256"]


async def test_the_gate_over_http_with_the_api_token(app):
    write_assets(app)
    srv, task, addr = await start_server(app, ApiSettings(token="s3cret", heartbeat_s=0.3, resume_interrupted=False))
    auth = {"Authorization": "Bearer s3cret"}
    try:
        async with (
            httpx.AsyncClient(base_url=f"http://{addr}", timeout=30, headers=auth) as c,
            httpx.AsyncClient(base_url=f"http://{addr}", timeout=30) as anon,
        ):
            _, crystal_id = await accepted_crystal(app, c)
            p = await propose(c, crystal_id)
            # Without the token nothing is decided or executed.
            assert (
                await anon.post(f"{A}/proposals/{p['id']}/approve", json=decision(p["image_sha256"]))
            ).status_code == 401
            assert (await anon.post(f"{A}/proposals/{p['id']}/execute")).status_code == 401
            assert (await c.get(f"{A}/proposals/{p['id']}")).json()["status"] == "pending"
            # With it: the approval records the token, and the execution goes through.
            r = await c.post(f"{A}/proposals/{p['id']}/approve", json=decision(p["image_sha256"], "ada"))
            assert r.status_code == 200 and r.json()["decision"]["token_verified"] is True
            r = await c.post(f"{A}/proposals/{p['id']}/execute")
            assert r.status_code == 200 and r.json()["status"] == "executed"
            assert (await c.post(f"{A}/proposals/{p['id']}/execute")).status_code == 409  # replay
            # An approval made elsewhere without the token does not open the gate here.
            other = await propose(c, crystal_id)
            await app.actions.fresh().decide(
                other["id"], "approved", "cli-user", other["image_sha256"], token_verified=False, via="cli"
            )
            r = await c.post(f"{A}/proposals/{other['id']}/execute")
            assert r.status_code == 403 and "not made by a holder of the API token" in r.json()["detail"]
    finally:
        srv.should_exit = True
        await task
