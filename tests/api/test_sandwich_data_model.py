"""004's data model over a corpus built sandwich by sandwich (through the repository, as the
forager stores them): the structural_types table (parents, canonical examples, stats), the
embeddings on breads and ingredients, every relation kind computed and read back over HTTP,
5.3's key queries and 7.2's research queries (by name, through POST /ask and `wander corpus ask`)."""

from __future__ import annotations

import json

import numpy as np
from sqlalchemy import text

from tests.wander_cli import wander
from wander.adapters.postgres.columns import DEFAULT_VECTOR_DIM as DIM  # the tests run with WANDER_EMBED_DIM unset
from wander.adapters.postgres.sandwich_corpus_queries import RESEARCH
from wander.core.domain.sandwich import TAXONOMY
from wander.core.sandwich.model import MADE, Attempt, Content, Ingredient, Sandwich
from wander.core.sandwich.taxonomy import TYPES

S = "/api/v1/sandwich"
BASIS = np.linalg.qr(np.random.default_rng(11).normal(size=(DIM, DIM)))[0].T.astype(np.float32)


def v(*parts: tuple[int, float]) -> np.ndarray:
    out = np.zeros(DIM, dtype=np.float32)
    for i, w in parts:
        out += w * BASIS[i]
    return out / np.linalg.norm(out)


def make(name, top, filling, bottom, vecs, stype, V, domains, lineage=None, embedding=None) -> Sandwich:
    t, f, b = (Ingredient(-1, label, (domains[0],), vec) for label, vec in zip((top, filling, bottom), vecs))
    parts = {"bread_compat": V, "containment": V, "non_triviality": V, "novelty": V}
    return Sandwich(
        name=name,
        description=f"{filling} between {top} and {bottom}",
        bread_top=t,
        filling=f,
        bread_bottom=b,
        structural_type=stype,
        validity={"V": V, **parts, "domains": list(domains), "reasons": []},
        embedding=embedding if embedding is not None else v((60 + ord(name[0]) % 100, 1)),
        assembly_rationale="constructed",
        lineage=lineage or {},
    )


async def store(app, s: Sandwich, domain: str) -> str:
    run_id, _ = await app.sandwiches.start_run("directed", None, 3)
    content = Content(f"text about {s.name}", "topic", s.name, s.name, domain)
    sid, _ = await app.sandwiches.record_attempt(
        run_id, Attempt("why not", MADE, "made", content, sandwich=s), v((99, 1)), []
    )
    return sid


async def corpus(app) -> dict[str, str]:
    """A: bayesian prior / posterior / evidence (Stochastic, statistics); B its inverse; C its
    generalization (the filling's broader concept); D the same shape in another domain; E
    near A's sandwich embedding; F shares A's filling."""
    ids = {}
    for name, sandwich, domain in [*one_shape_in_statistics(), *other_shapes()]:
        ids[name] = await store(app, sandwich, domain)
    return ids


def one_shape_in_statistics() -> list[tuple[str, Sandwich, str]]:
    """A, its inverse B and its generalization C."""
    prior, post, evidence = v((0, 1)), v((1, 1)), v((2, 1))
    emb = v((40, 1))
    return [
        (
            "A",
            make(
                "A",
                "bayesian prior",
                "posterior",
                "evidence",
                (prior, post, evidence),
                "Stochastic",
                0.86,
                ["statistics"],
                lineage={"filling": ["belief", "opinion"]},
                embedding=emb,
            ),
            "statistics",
        ),
        (
            "B",
            make(
                "B",
                "evidence",
                "update",
                "bayesian prior",
                (evidence, v((3, 1)), prior),
                "Stochastic",
                0.75,
                ["statistics"],
            ),
            "statistics",
        ),
        (
            "C",
            make(
                "C",
                "bayesian prior",
                "belief",
                "evidence",
                (prior, v((4, 1)), evidence),
                "Stochastic",
                0.72,
                ["statistics"],
            ),
            "statistics",
        ),
    ]


def other_shapes() -> list[tuple[str, Sandwich, str]]:
    """D (A's shape in law), E (near A's sandwich embedding), F (shares A's filling)."""
    post = v((1, 1))
    return [
        (
            "D",
            make(
                "D",
                "first impression",
                "judgement",
                "testimony",
                (v((0, 1), (5, 1)), v((6, 1)), v((2, 1), (5, 1))),
                "Stochastic",
                0.8,
                ["law"],
            ),
            "law",
        ),
        (
            "E",
            make(
                "E",
                "ceiling",
                "room",
                "floor",
                (v((7, 1)), v((8, 1)), v((9, 1))),
                "Bound",
                0.74,
                ["architecture"],
                embedding=v((40, 1), (41, 0.2)),
            ),
            "architecture",
        ),
        (
            "F",
            make(
                "F",
                "optimism",
                "posterior",
                "caution",
                (v((10, 1)), post, v((11, 1))),
                "Dialectic",
                0.71,
                ["psychology"],
            ),
            "psychology",
        ),
    ]


async def test_structural_types_are_seeded_with_parents_and_canonical_examples(app, client):
    empty = (await client.get(f"{S}/structural-types")).json()
    assert [t["name"] for t in empty] == list(TAXONOMY)
    by_name = {t["name"]: t for t in empty}
    for t in TYPES:
        row = by_name[t.name]
        assert row["parent"] == t.parent and row["canonical_example"] == t.canonical_example
        assert row["bread_relation"] == t.bread_relation and row["filling_role"] == t.filling_role
        assert row["description"] == TAXONOMY[t.name] and row["sandwich_count"] == 0
        assert row["canonical_example_id"] is None
    assert by_name["Stochastic"]["parent"] == "Epistemic" and by_name["Bound"]["parent"] is None
    ids = await corpus(app)
    typed = {t["name"]: t for t in (await client.get(f"{S}/structural-types")).json()}
    st = typed["Stochastic"]
    assert st["sandwich_count"] == 4 and st["canonical_example_id"] == ids["A"] and st["canonical_example_name"] == "A"
    assert abs(st["avg_validity"] - (0.86 + 0.75 + 0.72 + 0.8) / 4) < 1e-6 and st["max_validity"] == 0.86
    assert typed["Bound"]["canonical_example_id"] == ids["E"] and typed["Temporal"]["canonical_example_id"] is None


async def test_breads_and_ingredients_carry_embeddings(app):
    await corpus(app)
    async with app.sandwiches.engine.connect() as conn:
        missing = (
            await conn.execute(
                text(
                    "SELECT (SELECT COUNT(*) FROM sandwiches WHERE bread_top_embedding IS NULL "
                    "OR bread_bottom_embedding IS NULL), (SELECT COUNT(*) FROM sandwich_ingredient_catalog "
                    "WHERE embedding IS NULL), (SELECT COUNT(*) FROM sandwich_ingredient_catalog)"
                )
            )
        ).one()
        lineage = (await conn.execute(text("SELECT lineage FROM sandwiches WHERE name = 'A'"))).scalar_one()
    assert missing[0] == 0 and missing[1] == 0 and missing[2] >= 12
    assert lineage == {"filling": ["belief", "opinion"]}


async def test_every_relation_kind_is_computed_and_read(app, client):
    ids = await corpus(app)
    name = {i: n for n, i in ids.items()}

    async def related(key, kind=None):
        params = {"type": kind} if kind else {}
        r = await client.get(f"{S}/sandwiches/{ids[key]}/related", params=params)
        assert r.status_code == 200, r.text
        return r.json()

    def pairs(rows, kind):
        return {(name[r["sandwich_id"]], r["direction"]) for r in rows if r["relation_type"] == kind}

    a = await related("A")
    assert pairs(a, "inverse") == {("B", "in")}
    assert pairs(a, "generalization") == {("C", "out")}  # stored from the specific (A) to the general (C)
    assert pairs(a, "domain_transfer") == {("D", "in")}
    assert pairs(a, "similar") == {("E", "in")}
    assert pairs(a, "same_filling") == {("F", "in")}
    assert {"B", "C"} <= {n for n, _ in pairs(a, "same_bread")}
    gen = next(r for r in a if r["relation_type"] == "generalization")
    assert "belief is a broader concept of posterior" in gen["rationale"]
    c = await related("C", "generalization")
    assert [(name[r["sandwich_id"]], r["direction"]) for r in c] == [("A", "in")]
    # 5.3's first key query: similar structure, strongest first, through the relations table
    assert [name[r["sandwich_id"]] for r in await related("E", "similar")] == ["A"]
    counts = (await client.get(f"{S}/relations")).json()
    assert all(
        counts[k] >= 1
        for k in ("similar", "same_bread", "same_filling", "inverse", "generalization", "domain_transfer")
    )
    bad = await client.get(f"{S}/sandwiches/{ids['A']}/related", params={"type": "cousin"})
    assert bad.status_code == 422 and bad.json()["field"] == "type"
    assert (await client.get(f"{S}/sandwiches/not-a-uuid/related")).json()["field"] == "sandwich_id"
    gone = await client.get(f"{S}/sandwiches/00000000-0000-0000-0000-000000000000/related")
    assert gone.status_code == 404


async def test_sandwiches_using_a_bread_concept(app, client):
    ids = await corpus(app)
    rows = (await client.get(f"{S}/breads", params={"concept": "BAYES"})).json()
    assert {r["id"] for r in rows} == {ids["A"], ids["B"], ids["C"]}
    assert all(r["bread_concept"] == "bayesian prior" for r in rows)
    assert (await client.get(f"{S}/breads", params={"concept": "posterior"})).json() == []  # a filling, not a bread
    assert (await client.get(f"{S}/breads", params={"concept": "%"})).json() == []  # no wildcard
    r = await client.get(f"{S}/breads", params={"concept": " "})
    assert r.status_code == 422 and r.json()["field"] == "concept"


async def test_research_queries_answer_7_2(app, client):
    ids = await corpus(app)
    assert (await client.get(f"{S}/research")).json() == RESEARCH

    async def research(name):
        r = await client.get(f"{S}/research/{name}")
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["query"] == name and body["question"] == RESEARCH[name]
        return body["answer"]

    types = await research("types_across_domains")
    assert types[0]["structural_type"] == "Stochastic" and types[0]["domain_count"] == 2
    assert sorted(types[0]["domains"]) == ["law", "statistics"]
    breads = await research("cross_domain_breads")
    assert breads == []  # no bread is used in two domains here
    spec = {r["filling"]: r for r in await research("filling_specificity")}
    assert spec["posterior"]["sandwich_count"] == 2 and spec["posterior"]["structural_types"] == 2
    assert spec["posterior"]["specific"] is False
    dist = await research("bread_distance")
    overall = dist[0]
    assert overall["structural_type"] == "all" and overall["sandwiches"] == 6
    # the breads are orthonormal basis vectors except D's, at cosine 1/2 (distance 0.5)
    assert abs(overall["min_distance"] - 0.5) < 1e-4 and abs(overall["max_distance"] - 1.0) < 1e-4
    by_domain = {r["source_domain"]: r for r in await research("validity_by_source_domain")}
    assert by_domain["statistics"]["sandwich_count"] == 3 and abs(by_domain["law"]["avg_validity"] - 0.8) < 1e-9
    under = await research("underrepresented_types")
    assert len(under) == 10 and under[0]["sandwich_count"] == 0 and under[-1]["structural_type"] == "Stochastic"
    assert under[-1]["underrepresented"] is False and under[0]["underrepresented"] is True
    pred = await research("validity_prediction")
    assert pred["n"] == 6 and pred["predictable"] is None and "not enough" in pred["answer"]
    bad = await client.get(f"{S}/research/astrology")
    assert bad.status_code == 422 and bad.json()["field"] == "query"
    # the same through reflective mode: each 7.2 question routed to its query
    for query, question in RESEARCH.items():
        r = await client.post(f"{S}/ask", json={"question": question})
        assert r.status_code == 200 and r.json()["query"] == query, (question, r.text)
    asked = (await client.post(f"{S}/ask", json={"question": f"What is similar to {ids['E']}?"})).json()
    assert asked["query"] == "related" and [x["sandwich_id"] for x in asked["answer"]] == [ids["A"]]
    asked = (await client.post(f"{S}/ask", json={"question": "Which sandwiches use the bread evidence?"})).json()
    assert asked["query"] == "by_bread" and {x["id"] for x in asked["answer"]} == {ids["A"], ids["B"], ids["C"]}
    asked = (await client.post(f"{S}/ask", json={"question": "Show the taxonomy"})).json()
    assert asked["query"] == "structural_types" and len(asked["answer"]) == 10


async def test_corpus_ask_on_the_command_line(app, cli_env):
    await corpus(app)
    done = wander(["corpus", "ask", RESEARCH["underrepresented_types"], "--json"], cli_env)
    assert done.returncode == 0, done.stderr
    body = json.loads(done.stdout)
    assert body["query"] == "underrepresented_types" and len(body["answer"]) == 10
    done = wander(["corpus", "ask", "sandwiches using the bread 'bayesian'", "--json"], cli_env)
    assert done.returncode == 0, done.stderr
    body = json.loads(done.stdout)
    assert body["query"] == "by_bread" and {r["bread_concept"] for r in body["answer"]} == {"bayesian prior"}


async def test_a_corpus_stored_before_the_embeddings_is_brought_up_to_date(app, embedder, cli_env):
    ids = await corpus(app)
    async with app.sandwiches.engine.begin() as conn:
        relations = set(
            (await conn.execute(text("SELECT sandwich_a, sandwich_b, relation_type FROM sandwich_relations"))).all()
        )
        await conn.execute(text("DELETE FROM sandwich_relations"))
        await conn.execute(text("UPDATE sandwiches SET bread_top_embedding = NULL, bread_bottom_embedding = NULL"))
        await conn.execute(text("UPDATE sandwich_ingredient_catalog SET embedding = NULL"))
    done = wander(["corpus", "relate", "--json"], cli_env)
    assert done.returncode == 0, done.stderr
    counts = json.loads(done.stdout)
    assert counts["embedded_sandwiches"] == 6 and counts["embedded_ingredients"] >= 12 and counts["relations_added"] > 0
    async with app.sandwiches.engine.connect() as conn:
        again = set(
            (await conn.execute(text("SELECT sandwich_a, sandwich_b, relation_type FROM sandwich_relations"))).all()
        )
        missing = (
            await conn.execute(
                text(
                    "SELECT COUNT(*) FROM sandwiches WHERE bread_top_embedding IS NULL OR bread_bottom_embedding IS NULL"
                )
            )
        ).scalar_one()
        vec = (await conn.execute(text("SELECT bread_top_embedding FROM sandwiches WHERE name = 'E'"))).scalar_one()
    assert missing == 0 and counts["relations_added"] == len(again)
    assert np.allclose(np.asarray(json.loads(vec), dtype=np.float32), embedder.embed(["ceiling"])[0], atol=1e-4)
    # the labels' embeddings replace the constructed ones: the label relations come back whole
    by_label = {"same_bread", "same_filling", "generalization"}
    assert {r for r in relations if r[2] in by_label} <= again
    assert any(r[2] == "inverse" and {str(r[0]), str(r[1])} == {ids["A"], ids["B"]} for r in again)
    rerun = wander(["corpus", "relate", "--json"], cli_env)
    assert json.loads(rerun.stdout) == {"embedded_sandwiches": 0, "embedded_ingredients": 0, "relations_added": 0}


async def test_the_forager_stores_broader_concepts_and_bread_embeddings(app, knowledge):
    from wander.bootstrap.foraging import make_forager

    summary = await make_forager(app, seed=7).run(patience=3, max_attempts=25)
    assert summary.made >= 1
    async with app.sandwiches.engine.connect() as conn:
        rows = (
            await conn.execute(
                text(
                    "SELECT bread_top, filling, lineage, bread_top_embedding IS NOT NULL AS embedded FROM sandwiches "
                    "WHERE origin = 'forager'"
                )
            )
        ).all()
    assert rows and all(r.embedded for r in rows)
    matched = 0
    for r in rows:
        assert all(isinstance(x, str) and x for x in r.lineage.get("filling", []))
        i = knowledge.find_label(r.filling)  # a label may name several concepts: the one found may differ
        if i is None:
            continue
        keys = knowledge.ancestors(i, 3)
        expected = [knowledge.lemma_of(k) for k in sorted(keys, key=keys.get)]
        matched += r.lineage.get("filling", []) == list(dict.fromkeys(x for x in expected if x)) != []
    assert matched >= 1
