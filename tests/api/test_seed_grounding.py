"""A seed or attractor that matches nothing in the corpus is refused: 422 naming the field,
with the nearest concepts as suggestions, and nothing written."""

import pytest

from tests.api.conftest import API, create


@pytest.mark.parametrize(
    "body, field",
    [
        ({"seed_concept": "xqzvbnm plorf"}, "seed_concept"),
        ({"seed_concept": "tide pools", "attractor": "qwxz lkjhg"}, "attractor"),
    ],
)
async def test_a_text_that_matches_nothing_is_422_with_suggestions(client, body, field):
    r = await client.post(API, json=body)
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    problem = r.json()
    assert problem["field"] == field and problem["detail"].startswith(f"{field}: ")
    assert "matches nothing in the corpus" in problem["detail"]
    suggestions = problem["suggestions"]
    assert len(suggestions) == 3 and all(isinstance(s, str) and s for s in suggestions)
    assert all(f"'{s}'" in problem["detail"] for s in suggestions)
    assert (await client.get(API)).json()["total"] == 0, "a refused create wrote something"


async def test_a_rare_text_with_a_word_the_corpus_knows_is_accepted(client):
    s = await create(client, seed_concept="tide pools", attractor="how software tests should work")
    assert s["seed_concept"] == "tide pools"
