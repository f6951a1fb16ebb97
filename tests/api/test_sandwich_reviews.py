"""The review queue (004 3.2.4): a marginal sandwich (0.5 <= V < 0.7) is kept for a person
instead of dropped; the API and the CLI list it, accept it into the corpus or reject it, once."""

from __future__ import annotations

import json

from tests.wander_cli import wander
from wander.bootstrap.foraging import make_forager
from wander.core.domain.sandwich import ACCEPT, REVIEW
from wander.core.sandwich.model import REJECTED


async def marginal_run(app):
    summary = await make_forager(app, seed=7).run(patience=30, max_attempts=14)
    log = await app.sandwiches.log(summary.run_id)
    queued = [r for r in log if "kept in the review queue" in r.outcome_rationale]
    return summary, log, queued


async def test_marginal_sandwiches_are_queued_not_dropped(app):
    summary, log, queued = await marginal_run(app)
    pending = await app.sandwiches.reviews()
    assert queued and len(pending) == len(queued)
    assert all(r.outcome == REJECTED and "marginal (review band)" in r.outcome_rationale for r in queued)
    # every marginal attempt is queued, nothing else is
    assert all(("marginal (review band)" in r.outcome_rationale) == (r in queued) for r in log)
    for p in pending:
        assert REVIEW <= p.validity_score < ACCEPT and p.run_id == summary.run_id and p.status == "pending"
        assert p.heuristic and p.heuristic in p.assembly_rationale and p.validity["heuristic"] == p.heuristic
        assert p.name and "Club" not in p.name
    stored = {s.id for s in await app.sandwiches.sandwiches(limit=500)}
    assert len(stored) == summary.made  # the queue stays out of the corpus until accepted


async def test_a_person_accepts_or_rejects_once_over_http(app, client):
    await marginal_run(app)
    listed = (await client.get("/api/v1/sandwich/reviews")).json()
    assert len(listed) >= 1 and all(r["status"] == "pending" for r in listed)
    first = listed[0]
    before = (await client.get("/api/v1/sandwich/metrics")).json()["counts"]["sandwiches"]
    r = await client.post(f"/api/v1/sandwich/reviews/{first['id']}/accept", json={"reviewer": "ada", "note": "fine"})
    assert r.status_code == 200, r.text
    done = r.json()
    assert done["status"] == "accepted" and done["reviewer"] == "ada" and done["sandwich_id"]
    sandwiches = (await client.get("/api/v1/sandwich/sandwiches", params={"limit": 500})).json()
    joined = next(s for s in sandwiches if s["id"] == done["sandwich_id"])
    assert (joined["bread_top"], joined["filling"], joined["bread_bottom"]) == (
        first["bread_top"],
        first["filling"],
        first["bread_bottom"],
    )
    assert abs(joined["validity_score"] - first["validity_score"]) < 1e-9
    assert (await client.get("/api/v1/sandwich/metrics")).json()["counts"]["sandwiches"] == before + 1
    again = await client.post(f"/api/v1/sandwich/reviews/{first['id']}/reject", json={"reviewer": "bob"})
    assert again.status_code == 409 and "already accepted" in again.text
    assert (await client.get(f"/api/v1/sandwich/reviews/{first['id']}")).json()["status"] == "accepted"
    assert first["id"] not in {x["id"] for x in (await client.get("/api/v1/sandwich/reviews")).json()}
    assert (await client.get("/api/v1/sandwich/reviews", params={"status": "accepted"})).json()[0]["id"] == first["id"]
    bad = await client.get("/api/v1/sandwich/reviews", params={"status": "maybe"})
    assert bad.status_code == 422 and "status" in bad.text
    assert (await client.post(f"/api/v1/sandwich/reviews/{first['id']}/accept", json={})).status_code in (400, 422)
    missing = await client.post(
        "/api/v1/sandwich/reviews/00000000-0000-0000-0000-000000000000/accept", json={"reviewer": "ada"}
    )
    assert missing.status_code == 404


async def test_the_cli_lists_and_decides(app, cli_env):
    await marginal_run(app)
    pending = await app.sandwiches.reviews()
    listed = wander(["sandwich", "reviews", "--json"], cli_env)
    assert listed.returncode == 0, listed.stderr
    assert [r["id"] for r in json.loads(listed.stdout)] == [p.id for p in pending]
    target = pending[0]
    out = wander(["sandwich", "reject", target.id, "--reviewer", "ada", "--note", "forced"], cli_env)
    assert out.returncode == 0 and "rejected" in out.stdout, out.stderr
    again = wander(["sandwich", "accept", target.id, "--reviewer", "ada"], cli_env)
    assert again.returncode == 2 and "already rejected" in again.stderr and "Traceback" not in again.stderr
    assert (await app.sandwiches.review(target.id)).note == "forced"
