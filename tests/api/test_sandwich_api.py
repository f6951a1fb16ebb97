"""/api/v1/sandwich/...: forage over HTTP, a run's events, the metrics and analysis queries."""

from __future__ import annotations

from wander.foraging import make_forager
from wander.sandwich.analysis import TARGETS
from wander.sandwich.model import SUBJECTS


async def test_metrics_and_analysis_over_http(app, client):
    await make_forager(app, seed=3).run(patience=2, max_attempts=12)
    r = await client.get("/api/v1/sandwich/metrics")
    assert r.status_code == 200
    m = r.json()
    assert set(m["metrics"]) == set(TARGETS)
    c = m["counts"]
    assert m["metrics"]["sandwich_rate"]["value"] == round(c["made"] / c["attempts"], 4)
    assert sum(x["sandwich_count"] for x in m["type_distribution"]) == c["sandwiches"]
    assert sum(m["outcomes"].values()) == c["attempts"]
    assert m["foraging_efficiency"][0]["foraging_attempts"] == c["attempts"]
    bad = await client.post("/api/v1/sandwich/forage", json={"patience": 0})
    assert bad.status_code in (400, 422) and "patience" in bad.text
    made = await client.post("/api/v1/sandwich/forage", json={"topic": "supply and demand", "patience": 1})
    assert made.status_code == 200 and made.json()["attempts"] == 1
    events = (await client.get(f"/api/v1/sandwich/runs/{made.json()['run_id']}/events")).json()
    assert events[0]["subject"] == SUBJECTS[0] and events[-1]["subject"] == SUBJECTS[3]
    assert (await client.get("/api/v1/sandwich/runs/not-a-run")).status_code == 404
