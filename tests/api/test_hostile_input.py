"""Input the API was not designed for (both found by schemathesis): a NUL character
in any text and an offset beyond Postgres's integers get a 422 problem, never a 500."""

from __future__ import annotations

from tests.api.conftest import API


async def test_nul_in_text_is_refused_with_the_field(client):
    for body, field in (
        ({"seed_concept": "tide\u0000"}, "seed_concept"),
        ({"seed_concept": "tide", "allowed_domains": ["ok", "b\u0000d"]}, "allowed_domains[1]"),
    ):
        r = await client.post(API, json=body)
        assert r.status_code == 422, r.text
        problem = r.json()
        assert r.headers["content-type"].startswith("application/problem+json")
        assert problem["field"] == field and "NUL" in problem["detail"], problem
    r = await client.get(API, params={"status": "active\u0000"})
    assert r.status_code == 422 and r.json()["field"] == "status"
    assert (await client.get(API, params={"total": 0})).status_code == 200  # nothing else changed
    assert (await client.get(API)).json()["total"] == 0  # nothing was written


async def test_an_offset_beyond_postgres_integers_is_a_422(client):
    r = await client.get(API, params={"offset": 20518897486246377947136})
    assert r.status_code in (400, 422) and r.json()["status"] == r.status_code, r.text
    assert (await client.get(API, params={"offset": 2**31 - 1})).status_code == 200
