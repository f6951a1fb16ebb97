"""SANDWICH's reflective and pedagogical modes over HTTP: POST /api/v1/sandwich/ask routes a
question to one of 004's analysis queries (the same answer as `wander corpus ask`), and
GET /api/v1/sandwich/explain gives the definition with the corpus's own examples."""

from __future__ import annotations

from wander.bootstrap.foraging import make_forager
from wander.core.domain.sandwich import TAXONOMY

S = "/api/v1/sandwich"


async def ask(client, question: str) -> dict:
    r = await client.post(f"{S}/ask", json={"question": question})
    assert r.status_code == 200, r.text
    return r.json()


async def test_ask_routes_questions_to_the_analysis_queries(app, client):
    summary = await make_forager(app, seed=7).run(patience=3, max_attempts=25)
    assert summary.made >= 1
    metrics = (await client.get(f"{S}/metrics")).json()
    reused = await ask(client, "Which ingredients are reused most?")
    assert reused["query"] == "ingredient_frequency" and reused["answer"] == metrics["ingredient_frequency"]
    assert reused["answer"] and reused["answer"][0]["usage_count"] >= reused["answer"][-1]["usage_count"]
    types = await ask(client, "What structural types do we have?")
    assert types["query"] == "type_distribution" and types["answer"] == metrics["type_distribution"]
    assert sum(t["sandwich_count"] for t in types["answer"]) == metrics["counts"]["sandwiches"]
    how = await ask(client, "How well are we doing against the targets?")
    assert how["query"] == "metrics" and how["answer"] == metrics["metrics"]
    # No analysis query fits: the nearest sandwiches to the question.
    near = await ask(client, "lighthouse keepers at night")
    stored = {s.id for s in await app.sandwiches.sandwiches(limit=500)}
    assert near["query"] == "similar" and 1 <= len(near["answer"]) <= 5
    assert {s["id"] for s in near["answer"]} <= stored
    for body in ({"question": ""}, {}):
        r = await client.post(f"{S}/ask", json=body)
        assert r.status_code in (400, 422) and "question" in r.text, r.text
    assert (await client.post(f"{S}/ask", json={"question": "types?", "extra": 1})).status_code in (400, 422)
    r = await client.post(f"{S}/ask", json={"question": "   "})
    assert r.status_code == 422 and r.json()["field"] == "question"


async def test_explain_gives_the_types_with_the_corpus_examples(app, client):
    empty = (await client.get(f"{S}/explain")).json()
    assert [t["name"] for t in empty["types"]] == list(TAXONOMY) and all(t["example"] is None for t in empty["types"])
    assert abs(sum(empty["weights"].values()) - 1.0) < 1e-9 and empty["accept"] > empty["review"]
    await make_forager(app, seed=7).run(patience=3, max_attempts=25)
    explained = (await client.get(f"{S}/explain")).json()
    made = await app.sandwiches.sandwiches(limit=500)
    with_example = {t["name"]: t["example"] for t in explained["types"] if t["example"]}
    assert set(with_example) == {s.structural_type for s in made}
    for name, ex in with_example.items():
        best = max((s for s in made if s.structural_type == name), key=lambda s: s.validity_score)
        assert ex["v"] == best.validity_score and ex["filling"] == best.filling
