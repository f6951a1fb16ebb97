"""GET /api/v1/sandwich/charts (004 7.3's pictures) and /review-counts over a corpus built row by
row, so every figure is known: the network's nodes and relations, the ingredient tree, the
structural type tree, the validity histogram per period, the domain x structure heatmap and
the foraging runs' timeline; and each empty on an empty corpus."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import numpy as np
from sqlalchemy import insert

from shared_schemas.sandwich_charts import SandwichReviewOut
from wander.adapters.postgres.columns import DEFAULT_VECTOR_DIM as DIM  # the tests run with WANDER_EMBED_DIM unset
from wander.adapters.postgres.sandwich_tables import INGREDIENTS, LOG, RELATIONS, REVIEWS, RUNS, SANDWICHES

CHARTS = "/api/v1/sandwich/charts"
DAY1 = datetime(2026, 1, 1, 9, tzinfo=UTC)
DAY2 = datetime(2026, 1, 2, 15, tzinfo=UTC)


def vec(i: int) -> np.ndarray:
    v = np.zeros(DIM, dtype=np.float32)
    v[i % DIM] = 1.0
    return v


def sandwich(name: str, kind: str, v: float, domains: list[str], at: datetime) -> dict:
    return {
        "id": uuid.uuid4(),
        "name": name,
        "description": f"{name}, constructed",
        "created_at": at,
        "validity_score": v,
        "bread_compat_score": v,
        "containment_score": v,
        "nontrivial_score": v,
        "novelty_score": v,
        "bread_top": f"{name} top",
        "bread_bottom": f"{name} bottom",
        "filling": f"{name} filling",
        "filling_embedding": vec(1),
        "sandwich_embedding": vec(2),
        "structural_type": kind,
        "domains": domains,
        "origin": "forager",
    }


def review(name: str, v: float, status: str, at: datetime) -> dict:
    return {
        "created_at": at,
        "name": name,
        "description": "marginal",
        "heuristic": "explicit_bounds",
        "structural_type": "Bound",
        "validity_score": v,
        "validity": {"V": v},
        "bread_top": "floor",
        "filling": "price",
        "bread_bottom": "ceiling",
        "ingredient_domains": {"bread_top": ["economics"], "filling": [], "bread_bottom": []},
        "bread_top_embedding": vec(3),
        "filling_embedding": vec(4),
        "bread_bottom_embedding": vec(5),
        "sandwich_embedding": vec(6),
        "status": status,
    }


async def build_corpus(app) -> dict[str, dict]:
    s = {
        "A": sandwich("A", "Bound", 0.80, ["math", "physics"], DAY1),
        "B": sandwich("B", "Bound", 0.72, ["math"], DAY1.replace(hour=10)),
        "C": sandwich("C", "Stochastic", 0.90, [], DAY2),
        "D": sandwich("D", "Dialectic", 0.75, ["philosophy"], DAY2.replace(hour=16)),
    }
    run_old, run_new = uuid.uuid4(), uuid.uuid4()
    async with app.sandwiches.engine.begin() as conn:
        await conn.execute(insert(SANDWICHES), list(s.values()))
        await conn.execute(
            insert(RELATIONS),
            [
                {
                    "sandwich_a": s["A"]["id"],
                    "sandwich_b": s["B"]["id"],
                    "relation_type": "similar",
                    "similarity_score": 0.9,
                },
                {
                    "sandwich_a": s["C"]["id"],
                    "sandwich_b": s["A"]["id"],
                    "relation_type": "same_bread",
                    "similarity_score": 0.6,
                },
                {
                    "sandwich_a": s["D"]["id"],
                    "sandwich_b": s["C"]["id"],
                    "relation_type": "similar",
                    "similarity_score": 0.4,
                },
            ],
        )
        await conn.execute(
            insert(INGREDIENTS),
            [
                {"text": "limit", "ingredient_type": "bread", "domains": ["math"], "usage_count": 5},
                {"text": "bound", "ingredient_type": "bread", "domains": ["math", "physics"], "usage_count": 2},
                {"text": "force", "ingredient_type": "bread", "domains": ["physics"], "usage_count": 1},
                {"text": "synthesis", "ingredient_type": "filling", "domains": [], "usage_count": 3},
            ],
        )
        await conn.execute(
            insert(REVIEWS),
            [
                review("P", 0.60, "pending", DAY2),
                review("R", 0.55, "rejected", DAY1),
                review("Y", 0.65, "accepted", DAY2.replace(hour=17)),
            ],
        )
        await conn.execute(
            insert(RUNS),
            [
                {"id": run_old, "mode": "autonomous", "patience": 3, "started_at": DAY1},
                {"id": run_new, "mode": "directed", "target": "tides", "patience": 3, "started_at": DAY2},
            ],
        )
        await conn.execute(
            insert(LOG),
            [
                {"run_id": run_old, "curiosity_prompt": "q", "outcome": o, "outcome_rationale": "r"}
                for o in ("sandwich_made", "no_filling", "sandwich_made", "trivial")
            ],
        )
    return {"runs": {"old": str(run_old), "new": str(run_new)}, **s}


async def test_empty_corpus_gives_empty_charts(client):
    r = await client.get(CHARTS)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["network"] == {"nodes": [], "edges": [], "relation_types": [], "total_sandwiches": 0}
    assert body["ingredients"]["children"] == [] and body["ingredients"]["value"] == 0
    assert body["types"]["children"] == [] and body["type_parents"] is False
    assert body["validity"]["periods"] == [] and body["validity"]["scores"] == 0
    assert len(body["validity"]["bin_edges"]) == 20 and body["validity"]["accept"] == 0.7
    assert body["heatmap"]["domains"] == [] and body["heatmap"]["cells"] == []
    assert body["efficiency"] == []
    counts = await client.get("/api/v1/sandwich/review-counts")
    assert counts.json() == {"pending": 0, "accepted": 0, "rejected": 0}


async def test_network_is_the_newest_sandwiches_and_their_relations(app, client):
    s = await build_corpus(app)
    net = (await client.get(CHARTS)).json()["network"]
    assert net["total_sandwiches"] == 4
    assert [n["name"] for n in net["nodes"]] == ["D", "C", "B", "A"]  # newest first
    a = next(n for n in net["nodes"] if n["name"] == "A")
    assert (a["structural_type"], a["validity"], a["bread_top"]) == ("Bound", 0.8, "A top")
    edges = {(e["source"], e["target"], e["relation_type"]) for e in net["edges"]}
    ids = {k: str(v["id"]) for k, v in s.items() if k != "runs"}
    assert edges == {
        (ids["A"], ids["B"], "similar"),
        (ids["C"], ids["A"], "same_bread"),
        (ids["D"], ids["C"], "similar"),
    }
    assert net["relation_types"] == ["same_bread", "similar"]
    # two nodes: only the relation between those two is drawn
    two = (await client.get(CHARTS, params={"nodes": 2})).json()["network"]
    assert {n["name"] for n in two["nodes"]} == {"C", "D"} and two["total_sandwiches"] == 4
    assert [(e["source"], e["target"]) for e in two["edges"]] == [(ids["D"], ids["C"])]


async def test_ingredient_tree_groups_by_role_and_first_domain(app, client):
    await build_corpus(app)
    tree = (await client.get(CHARTS)).json()["ingredients"]
    assert tree["value"] == 11
    bread, filling = tree["children"]
    assert (bread["name"], bread["value"], filling["name"], filling["value"]) == ("bread", 8, "filling", 3)
    assert [(d["name"], d["value"]) for d in bread["children"]] == [("math", 7), ("physics", 1)]
    assert [(i["name"], i["value"]) for i in bread["children"][0]["children"]] == [("limit", 5), ("bound", 2)]
    assert filling["children"][0]["name"] == "(no domain)"
    # the most used only
    top = (await client.get(CHARTS, params={"ingredients": 1})).json()["ingredients"]
    assert top["value"] == 5 and top["children"][0]["children"][0]["children"][0]["name"] == "limit"


def leaves(node: dict) -> list[dict]:
    return [node] if not node["children"] else [x for c in node["children"] for x in leaves(c)]


async def test_type_tree_holds_every_sandwich_under_its_type(app, client):
    await build_corpus(app)
    body = (await client.get(CHARTS)).json()
    tree = body["types"]
    assert tree["value"] == 4 and sorted(x["name"] for x in leaves(tree)) == ["A", "B", "C", "D"]
    assert all(x["validity"] is not None and x["id"] for x in leaves(tree))
    roots = {n["name"]: n for n in tree["children"]}
    if body["type_parents"]:
        # the taxonomy (structural_types) puts Stochastic under Epistemic
        assert set(roots) == {"Bound", "Epistemic", "Dialectic"}
        assert [c["name"] for c in roots["Epistemic"]["children"]] == ["Stochastic"]
        assert roots["Epistemic"]["value"] == 1 and leaves(roots["Epistemic"])[0]["name"] == "C"
    else:
        assert list(roots) == ["Bound", "Dialectic", "Stochastic"]  # the taxonomy's order
    assert roots["Bound"]["value"] == 2 and sorted(x["name"] for x in leaves(roots["Bound"])) == ["A", "B"]
    # a type's best sandwiches one by one, the rest as one leaf
    capped = {n["name"]: n for n in (await client.get(CHARTS, params={"leaves": 1})).json()["types"]["children"]}
    assert [(x["name"], x["value"], x["id"] is not None) for x in capped["Bound"]["children"]] == [
        ("A", 1, True),
        ("+1 more", 1, False),
    ]
    assert capped["Bound"]["value"] == 2


async def test_validity_histogram_bins_corpus_and_queued_scores_per_day(app, client):
    await build_corpus(app)
    h = (await client.get(CHARTS)).json()["validity"]
    assert h["period"] == "day" and h["periods"] == ["2026-01-01", "2026-01-02"]
    assert h["scores"] == 6  # 4 sandwiches and 2 marginal ones not accepted (the accepted one is a sandwich)
    day1, day2 = h["counts"]
    assert {i: n for i, n in enumerate(day1) if n} == {11: 1, 14: 1, 16: 1}  # 0.55 (rejected), 0.72, 0.80
    assert {i: n for i, n in enumerate(day2) if n} == {12: 1, 15: 1, 18: 1}  # 0.60 (pending), 0.75, 0.90
    assert h["bin_edges"][14] == 0.7 and abs(h["bin_width"] - 0.05) < 1e-12


async def test_validity_histogram_of_one_day_is_per_hour(app, client):
    async with app.sandwiches.engine.begin() as conn:
        await conn.execute(
            insert(SANDWICHES),
            [sandwich("E", "Bound", 1.0, [], DAY1), sandwich("F", "Bound", 0.0, [], DAY1.replace(hour=11))],
        )
    h = (await client.get(CHARTS)).json()["validity"]
    assert h["period"] == "hour" and h["periods"] == ["2026-01-01 09:00", "2026-01-01 11:00"]
    assert h["counts"][0][19] == 1 and h["counts"][1][0] == 1  # 1.0 falls in the last bin


async def test_heatmap_counts_each_domain_of_a_sandwich(app, client):
    await build_corpus(app)
    hm = (await client.get(CHARTS)).json()["heatmap"]
    assert hm["domains"] == ["math", "(no domain)", "philosophy", "physics"]  # most sandwiches first, then by name
    assert hm["types"][:3] == ["Bound", "Dialectic", "Epistemic"]
    cells = {(c["domain"], c["structural_type"]): c["count"] for c in hm["cells"]}
    assert cells == {
        ("math", "Bound"): 2,
        ("physics", "Bound"): 1,
        ("philosophy", "Dialectic"): 1,
        ("(no domain)", "Stochastic"): 1,
    }
    two = (await client.get(CHARTS, params={"domains": 2})).json()["heatmap"]
    assert two["domains"] == ["math", "(no domain)"] and len(two["cells"]) == 2


async def test_efficiency_timeline_is_each_run_oldest_first(app, client):
    s = await build_corpus(app)
    runs = (await client.get(CHARTS)).json()["efficiency"]
    assert [r["run_id"] for r in runs] == [s["runs"]["old"], s["runs"]["new"]]
    old, new = runs
    assert (old["attempts"], old["made"], old["rate"], old["mode"]) == (4, 2, 0.5, "autonomous")
    assert old["outcomes"] == {"sandwich_made": 2, "no_filling": 1, "trivial": 1}
    assert (new["attempts"], new["made"], new["rate"], new["outcomes"]) == (0, 0, None, {})
    newest = (await client.get(CHARTS, params={"runs": 1})).json()["efficiency"]
    assert [r["run_id"] for r in newest] == [s["runs"]["new"]]


async def test_review_counts_and_rows_follow_the_contract(app, client):
    await build_corpus(app)
    counts = (await client.get("/api/v1/sandwich/review-counts")).json()
    assert counts == {"pending": 1, "accepted": 1, "rejected": 1}
    rows = (await client.get("/api/v1/sandwich/reviews", params={"status": "all"})).json()
    assert [SandwichReviewOut.model_validate(r).name for r in rows] == ["R", "P", "Y"]  # oldest first


async def test_bad_limits_name_the_field(client):
    for field, value in (("nodes", 0), ("ingredients", "many"), ("domains", 101), ("runs", -1), ("leaves", 0)):
        r = await client.get(CHARTS, params={field: value})
        assert r.status_code in (400, 422) and field in r.text, (field, r.text)
