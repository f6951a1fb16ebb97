"""The economic action layer over HTTP: propose from an accepted crystal, the human gate,
execution on the paper wallet, refusals with reasons, limits under concurrency, events."""

import asyncio
import hashlib
import uuid
from dataclasses import asdict

import pytest
from sqlalchemy import insert, select, update

from tests.api.conftest import API, create
from wander.adapters.postgres.action_tables import LEDGER, PROPOSALS
from wander.adapters.postgres.tables import DEFAULT_PROJECT_ID, WanderCrystal
from wander.core.action import codec
from wander.core.domain.errors import Refused
from wander.core.domain.wallet_views import LedgerEntry, WalletPosition, WalletState

A = "/api/v1/wander"
INSIGHT = "markets price the information they cannot see"


def write_assets(app, **wallet) -> None:
    values = {
        "paper_balance": 10000.0,
        "max_stake": 250.0,
        "session_budget": 100000.0,
        "day_budget": 100000.0,
        "session_loss_limit": 100000.0,
        "day_loss_limit": 100000.0,
        **wallet,
    }
    home = app.settings.home
    home.mkdir(parents=True, exist_ok=True)
    lines = [
        "[wallet]",
        *(f"{k} = {float(v)}" for k, v in values.items()),
        "",
        "[[asset]]",
        'name = "data engineering"',
        'domains = ["possession", "cognition"]',
        'keywords = ["information"]',
        "strength = 0.8",
    ]
    (home / "assets.toml").write_text("\n".join(lines) + "\n")


async def accepted_crystal(app, client, verdict: str = "accepted") -> tuple[str, str]:
    vector = app.embedder.embed([INSIGHT])[0]  # loads the model here, not inside the server's first request
    session = await create(client, max_steps=5)
    loci = (await client.get(f"{API}/{session['id']}/loci")).json()
    crystal_id = uuid.uuid4()
    async with app.db.begin() as conn:
        await conn.execute(
            insert(WanderCrystal.__table__).values(
                id=crystal_id,
                project_id=DEFAULT_PROJECT_ID,
                session_id=uuid.UUID(session["id"]),
                insight=INSIGHT,
                embedding=vector,
                confidence=0.8,
                actionability=0.6,
                domains=["possession"],
                bread_a_locus_id=uuid.UUID(loci[0]["id"]),
                structural_type="bridge",
                validity={"V": 0.78, "verdict": verdict, "novelty": 0.5, "filling": "price signal"},
            )
        )
    return session["id"], str(crystal_id)


async def propose(client, crystal_id: str) -> dict:
    r = await client.post(f"{A}/crystals/{crystal_id}/proposals")
    assert r.status_code == 201, r.text
    return r.json()


async def reviewed_sha(client, proposal: dict) -> str:
    png = (await client.get(proposal["image_url"])).content
    return hashlib.sha256(png).hexdigest()


def decision(sha: str, reviewer: str = "ada") -> dict:
    return {"reviewer": reviewer, "image_sha256": sha}


async def test_propose_review_approve_execute_and_every_refusal(app, client):
    write_assets(app)
    session_id, crystal_id = await accepted_crystal(app, client)
    p = await propose(client, crystal_id)
    e = p["evaluation"]
    assert p["status"] == "pending" and p["crystal_id"] == crystal_id and p["decision"] is None
    assert {"action", "expected_value_cents", "cost_cents", "worst_case_loss_cents", "risk", "tractability"} <= set(e)
    assert e["cost_cents"] > 0 and 0 < e["tractability"] <= 1 and e["assets_used"] == ["data engineering"]
    assert (
        e["evidence"]["crystal"]["id"] == crystal_id and e["evidence"]["loci"][0]["concept"] == "information asymmetry"
    )
    sha = await reviewed_sha(client, p)
    assert sha == p["image_sha256"]
    # The image is the record: it decodes (with the key in WANDER_HOME) to this proposal.
    s = app.actions.fresh()
    assert codec.decode((await client.get(p["image_url"])).content, s.keys).decode().count(p["id"]) == 1

    pid = p["id"]
    r = await client.post(f"{A}/proposals/{pid}/execute")
    assert r.status_code == 403 and "not approved" in r.json()["detail"]
    r = await client.post(f"{A}/proposals/{pid}/approve", json=decision("0" * 64))
    assert r.status_code == 409 and "image_sha256" in r.json()["detail"]
    r = await client.post(f"{A}/proposals/{pid}/approve", json={"reviewer": "ada", "image_sha256": "xyz"})
    assert r.status_code == 422 and r.json()["field"] == "image_sha256"
    r = await client.post(f"{A}/proposals/{pid}/approve", json=decision(sha))
    assert r.status_code == 200, r.text
    d = r.json()["decision"]
    assert (d["decision"], d["reviewer"], d["image_sha256"], d["via"]) == ("approved", "ada", sha, "api")
    r = await client.post(f"{A}/proposals/{pid}/reject", json=decision(sha, "eve"))
    assert r.status_code == 409 and "already approved" in r.json()["detail"]

    r = await client.post(f"{A}/proposals/{pid}/execute")
    assert r.status_code == 200, r.text
    done = r.json()
    assert done["status"] == "executed" and done["execution"]["amount_cents"] == e["cost_cents"]
    r = await client.post(f"{A}/proposals/{pid}/execute")
    assert r.status_code == 409 and "already executed" in r.json()["detail"]

    wallet = (await client.get(f"{A}/wallet")).json()
    assert wallet["balance_cents"] == 1_000_000 - e["cost_cents"]
    assert [(x["proposal_id"], x["decision_id"]) for x in wallet["ledger"]] == [(pid, d["id"])]
    assert wallet["positions"] == [
        {"asset": e["asset"], "cost_cents": e["cost_cents"], "worst_case_loss_cents": e["worst_case_loss_cents"]}
    ]
    state = await s.wallet.state(s.limits)  # the store's read model, of which the answer is the fields
    assert isinstance(state, WalletState) and asdict(state) == wallet
    assert state.positions == [WalletPosition(e["asset"], e["cost_cents"], e["worst_case_loss_cents"])]
    assert isinstance(state.ledger[0], LedgerEntry) and state.ledger[0].proposal_id == pid
    listed = (await client.get(f"{A}/proposals", params={"status": "executed"})).json()
    assert [x["id"] for x in listed] == [pid]

    events = [ev for ev in await app.store.events_after(session_id) if ev.subject.startswith("wander.proposal.")]
    assert [ev.subject.rsplit(".", 1)[1] for ev in events] == [
        "proposed",
        "encoded",
        "refused",
        "approved",
        "executed",
        "refused",
    ]
    assert all(ev.payload["proposal_id"] == pid for ev in events)


async def test_rejected_unaccepted_and_unknown(app, client):
    write_assets(app)
    _, crystal_id = await accepted_crystal(app, client)
    p = await propose(client, crystal_id)
    r = await client.post(f"{A}/proposals/{p['id']}/reject", json=decision(p["image_sha256"], "eve"))
    assert r.status_code == 200 and r.json()["status"] == "rejected"
    r = await client.post(f"{A}/proposals/{p['id']}/execute")
    assert r.status_code == 403 and "rejected by eve" in r.json()["detail"]

    _, review_crystal = await accepted_crystal(app, client, verdict="review")
    r = await client.post(f"{A}/crystals/{review_crystal}/proposals")
    assert r.status_code == 409 and "not accepted" in r.json()["detail"]
    r = await client.post(f"{A}/crystals/{uuid.uuid4()}/proposals")
    assert r.status_code == 404
    r = await client.post(f"{A}/proposals/{uuid.uuid4()}/execute")
    assert r.status_code == 404
    r = await client.get(f"{A}/proposals", params={"status": "maybe"})
    assert r.status_code == 422 and r.json()["field"] == "status"


async def test_a_changed_image_is_refused(app, client):
    write_assets(app)
    _, crystal_id = await accepted_crystal(app, client)
    p, other = await propose(client, crystal_id), await propose(client, crystal_id)
    for x in (p, other):
        assert (
            await client.post(f"{A}/proposals/{x['id']}/approve", json=decision(x["image_sha256"]))
        ).status_code == 200
    # One pixel changed in the stored image (and its sha updated to match): the tag fails.
    png = (await client.get(p["image_url"])).content
    pixels, params, tag = codec.from_png(png)
    pixels = pixels.copy()
    pixels[3, 5, 1] ^= 1
    forged = codec.to_png(pixels, params, tag)
    async with app.db.begin() as conn:
        await conn.execute(
            update(PROPOSALS)
            .where(PROPOSALS.c.id == uuid.UUID(p["id"]))
            .values(image=forged, image_sha256=codec.sha256(forged))
        )
    r = await client.post(f"{A}/proposals/{p['id']}/execute")
    assert r.status_code == 409 and "does not decode" in r.json()["detail"]
    # Another proposal's valid image swapped in: it decodes, but to another proposal.
    other_png = (await client.get(other["image_url"])).content
    async with app.db.begin() as conn:
        await conn.execute(
            update(PROPOSALS)
            .where(PROPOSALS.c.id == uuid.UUID(p["id"]))
            .values(image=other_png, image_sha256=codec.sha256(other_png))
        )
    r = await client.post(f"{A}/proposals/{p['id']}/execute")
    assert r.status_code == 409 and "another proposal" in r.json()["detail"]
    async with app.db.connect() as conn:
        assert (await conn.execute(select(LEDGER))).all() == []


async def test_concurrent_executions_never_cross_the_day_budget(app, client):
    write_assets(app)
    _, crystal_id = await accepted_crystal(app, client)
    proposals = [await propose(client, crystal_id) for _ in range(6)]
    cost = proposals[0]["evaluation"]["cost_cents"]
    write_assets(app, day_budget=cost * 2.5 / 100)  # room for two
    await asyncio.gather(
        *[client.post(f"{A}/proposals/{p['id']}/approve", json=decision(p["image_sha256"])) for p in proposals]
    )
    results = await asyncio.gather(*[client.post(f"{A}/proposals/{p['id']}/execute") for p in proposals])
    codes = sorted(r.status_code for r in results)
    assert codes == [200, 200, 409, 409, 409, 409], [r.text for r in results]
    assert sum("breaker" in r.json()["detail"] for r in results if r.status_code == 409) == 4
    wallet = (await client.get(f"{A}/wallet")).json()
    assert sum(x["amount_cents"] for x in wallet["ledger"]) == 2 * cost <= cost * 2.5
    assert "day budget would be crossed" in wallet["breaker"]


async def _approved_elsewhere(app, client, token_verified: bool) -> str:
    write_assets(app)
    _, crystal_id = await accepted_crystal(app, client)
    p = await propose(client, crystal_id)
    await (
        app.actions.requiring_token(False)
        .fresh()
        .decide(p["id"], "approved", "cli-user", p["image_sha256"], token_verified=token_verified, via="cli")
    )
    return p["id"]


async def test_with_a_token_an_approval_without_it_does_not_count(app, client):
    pid = await _approved_elsewhere(app, client, token_verified=False)
    with pytest.raises(Refused, match="not made by a holder of the API token") as refused:
        await app.actions.requiring_token(True).fresh().execute(pid)
    assert refused.value.status == 403
    with pytest.raises(Refused, match="needs the API token"):
        await (
            app.actions.requiring_token(True)
            .fresh()
            .decide(pid, "rejected", "x", "a" * 64, token_verified=False, via="cli")
        )


async def test_with_a_token_a_token_holders_approval_counts(app, client):
    pid = await _approved_elsewhere(app, client, token_verified=True)
    assert (await app.actions.requiring_token(True).fresh().execute(pid)).status == "executed"
