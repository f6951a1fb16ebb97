"""/api/v1/sandwich/...: forage over HTTP, a run's events, the metrics and analysis queries."""

from __future__ import annotations

import uuid
from dataclasses import asdict
from datetime import datetime

import pytest

from wander.adapters.postgres.sandwich_tables import SANDWICHES
from wander.bootstrap.foraging import make_forager
from wander.core.domain.sandwich import TAXONOMY
from wander.core.domain.sandwich_views import (
    ForageLogRow,
    ForageRunRow,
    MetricInputs,
    SandwichRow,
    SimilarSandwich,
    TypeDistributionRow,
    TypeExample,
)
from wander.core.sandwich.analysis import TARGETS, novelty_stability
from wander.core.sandwich.model import SUBJECTS


async def test_metrics_and_analysis_over_http(app, client):
    await make_forager(app, seed=3).run(patience=2, max_attempts=12)
    r = await client.get("/api/v1/sandwich/metrics")
    assert r.status_code == 200
    m = r.json()
    assert set(m["metrics"]) == set(TARGETS)
    c = m["counts"]
    # every metric's value, worked out again from the sandwiches and the counts, and its verdict
    made_ = (await client.get("/api/v1/sandwich/sandwiches", params={"limit": 500})).json()
    assert len(made_) == c["sandwiches"] > 0 and c["types_used"] == len({x["structural_type"] for x in made_})
    accepted = [x["validity_score"] for x in made_ if x["validity_score"] >= 0.7]
    oldest_first = sorted(made_, key=lambda x: (datetime.fromisoformat(x["created_at"]), x["id"]))
    expected = {
        "sandwich_rate": round(c["made"] / c["attempts"], 4),
        "mean_validity": pytest.approx(sum(accepted) / len(accepted), abs=1e-4) if accepted else None,
        "ingredient_diversity": round(c["unique_ingredients"] / c["sandwiches"], 4),
        "structural_coverage": round(c["types_used"] / len(TAXONOMY), 4),
        "cross_domain_rate": round(c["cross_domain"] / c["sandwiches"], 4),
        "novelty_stability": novelty_stability([x["novelty_score"] for x in oldest_first]),
    }
    assert {k: v["value"] for k, v in m["metrics"].items()} == expected
    for name, (op, target) in TARGETS.items():
        got = m["metrics"][name]
        met = None if got["value"] is None else got["value"] > target if op == ">" else got["value"] >= target
        assert (got["target"], got["met"]) == (f"{op} {target}", met), name
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


async def test_read_models_are_typed_and_the_api_gives_their_fields(app, client):
    summary = await make_forager(app, seed=3).run(patience=2, max_attempts=12)
    made = await app.sandwiches.sandwiches(limit=500)
    assert made and all(isinstance(s, SandwichRow) for s in made)
    listed = (await client.get("/api/v1/sandwich/sandwiches", params={"limit": 500})).json()
    assert listed == [asdict(s) for s in made]  # the table's columns, ids and times as text
    hidden = ("lineage",)  # the ingredients' broader concepts: what relating needs, not a row's field
    assert list(listed[0]) == [
        c.name for c in SANDWICHES.c if not c.name.endswith("_embedding") and c.name not in hidden
    ]
    assert datetime.fromisoformat(made[0].created_at).tzinfo is not None and uuid.UUID(made[0].id)
    run = await app.sandwiches.run(summary.run_id)
    assert isinstance(run, ForageRunRow) and (run.id, run.attempts, run.made) == (
        summary.run_id,
        summary.attempts,
        summary.made,
    )
    assert (await client.get(f"/api/v1/sandwich/runs/{summary.run_id}")).json() == asdict(run)
    log = await app.sandwiches.log(summary.run_id)
    assert len(log) == summary.attempts and all(isinstance(r, ForageLogRow) for r in log)
    assert {r.run_id for r in log} == {summary.run_id}
    api_log = (await client.get("/api/v1/sandwich/log", params={"run_id": summary.run_id})).json()
    assert api_log == [asdict(r) for r in log]
    inputs = await app.sandwiches.metric_inputs()
    assert isinstance(inputs, MetricInputs) and (inputs.attempts, inputs.made) == (summary.attempts, summary.made)
    assert len(inputs.novelty_series) == inputs.sandwiches == len(made)
    types = await app.sandwiches.type_distribution()
    assert all(isinstance(t, TypeDistributionRow) for t in types)
    assert sum(t.sandwich_count for t in types) == len(made)
    metrics = (await client.get("/api/v1/sandwich/metrics")).json()
    assert metrics["type_distribution"] == [asdict(t) for t in types]
    assert metrics["foraging_efficiency"] == [asdict(r) for r in await app.sandwiches.foraging_efficiency()]
    best = await app.sandwiches.best_per_type()
    assert all(isinstance(b, TypeExample) and b.structural_type == t for t, b in best.items())
    near = await app.sandwiches.similar(app.embedder.embed([made[0].filling])[0], 3)
    assert isinstance(near[0], SimilarSandwich) and near[0].id == made[0].id and near[0].similarity > 0.5
