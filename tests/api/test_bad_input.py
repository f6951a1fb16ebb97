"""Bad input to every endpoint: a 4xx problem body naming the field, never a 500."""

import pytest

from tests.api.conftest import API, create

UNKNOWN = "00000000-0000-0000-0000-0000000000ff"

BAD_CREATE = [
    ({}, 422, "seed_concept"),
    ({"seed_concept": ""}, 422, "seed_concept"),
    ({"seed_concept": "   "}, 422, "seed_concept"),
    ({"seed_concept": 42}, 422, "seed_concept"),
    ({"seed_concept": None}, 422, "seed_concept"),
    ({"seed_concept": "x" * 3000}, 422, "seed_concept"),
    ({"seed_concept": "x", "max_steps": 0}, 422, "max_steps"),
    ({"seed_concept": "x", "max_steps": 100001}, 422, "max_steps"),
    ({"seed_concept": "x", "max_steps": "ten"}, 422, "max_steps"),
    ({"seed_concept": "x", "temperature": 0}, 422, "temperature"),
    ({"seed_concept": "x", "temperature": -2}, 422, "temperature"),
    ({"seed_concept": "x", "temperature": "hot"}, 422, "temperature"),
    ({"seed_concept": "x", "random_seed": -1}, 422, "random_seed"),
    ({"seed_concept": "x", "allowed_domains": ["astrologyx"]}, 422, "allowed_domains"),
    ({"seed_concept": "x", "allowed_domains": "artifact"}, 422, "allowed_domains"),
    ({"seed_concept": "x", "forbidden_domains": [""]}, 422, "forbidden_domains"),
    ({"seed_concept": "x", "allowed_domains": ["act"], "forbidden_domains": ["act"]}, 422, "forbidden_domains"),
    ({"seed_concept": "x", "max_drift_distance": 0}, 422, "max_drift_distance"),
    ({"seed_concept": "x", "cloud_budget_cents": -5}, 422, "cloud_budget_cents"),
    ({"seed_concept": "x", "surprise_me": True}, 422, "surprise_me"),
]


@pytest.mark.parametrize("body, status, field", BAD_CREATE)
async def test_create_rejects_with_field(client, body, status, field):
    r = await client.post(API, json=body)
    assert r.status_code == status, r.text
    problem = r.json()
    assert r.headers["content-type"].startswith("application/problem+json")
    assert problem["status"] == status and problem["field"] == field and field in problem["detail"]
    assert (await client.get(API)).json()["total"] == 0, "a rejected create wrote something"


@pytest.mark.parametrize(
    "raw, ctype",
    [
        ("{bad json", "application/json"),
        ("[1,2]", "application/json"),
        ("null", "application/json"),
        ("seed=x", "text/plain"),
    ],
)
async def test_malformed_bodies_are_4xx(client, raw, ctype):
    r = await client.post(API, content=raw, headers={"content-type": ctype})
    assert 400 <= r.status_code < 500, r.text
    assert r.json()["status"] == r.status_code and r.json()["detail"]


async def test_path_and_query_table(client):
    s = await create(client, max_steps=2)
    sid = s["id"]
    cases = [
        ("GET", f"{API}/not-a-uuid", None, 404, "session_id"),
        ("GET", f"{API}/{UNKNOWN}", None, 404, "session_id"),
        ("PATCH", f"{API}/{UNKNOWN}", {"name": "x"}, 404, "session_id"),
        ("DELETE", f"{API}/{UNKNOWN}", None, 404, "session_id"),
        ("POST", f"{API}/{UNKNOWN}/step", None, 404, "session_id"),
        ("POST", f"{API}/{UNKNOWN}/wander", {"n_steps": 2}, 404, "session_id"),
        ("POST", f"{API}/'; DROP TABLE x;--/pause", None, 404, "session_id"),
        ("GET", f"{API}/{UNKNOWN}/loci", None, 404, "session_id"),
        ("GET", f"{API}/{sid}/loci/not-a-uuid", None, 404, "locus_id"),
        ("GET", f"{API}/{sid}/loci/{UNKNOWN}", None, 404, "locus_id"),
        ("GET", f"{API}/{UNKNOWN}/trace", None, 404, "session_id"),
        ("GET", f"{API}/{UNKNOWN}/resonances", None, 404, "session_id"),
        ("GET", f"{API}/{UNKNOWN}/crystals", None, 404, "session_id"),
        ("GET", f"{API}?limit=0", None, 422, "limit"),
        ("GET", f"{API}?limit=abc", None, 422, "limit"),
        ("GET", f"{API}?limit=100000", None, 422, "limit"),
        ("GET", f"{API}?offset=-1", None, 422, "offset"),
        ("GET", f"{API}?status=sleeping", None, 422, "status"),
        ("GET", f"{API}?project_id=nope", None, 422, "project_id"),
        ("GET", f"{API}/{sid}/loci?min_interestingness=2", None, 422, "min_interestingness"),
        ("GET", f"{API}/{sid}/loci?min_interestingness=high", None, 422, "min_interestingness"),
        ("GET", f"{API}/{sid}/loci?visited=maybe", None, 422, "visited"),
        ("POST", f"{API}/{sid}/wander", {"n_steps": 0}, 422, "n_steps"),
        ("POST", f"{API}/{sid}/wander", {"n_steps": 10001}, 422, "n_steps"),
        ("POST", f"{API}/{sid}/wander", {"n_steps": "many"}, 422, "n_steps"),
        ("PATCH", f"{API}/{sid}", {"status": "sleeping"}, 422, "status"),
        ("PATCH", f"{API}/{sid}", {"max_steps": -1}, 422, "max_steps"),
        ("PATCH", f"{API}/{sid}", {"name": ""}, 422, "name"),
        ("PATCH", f"{API}/{sid}", {"allowed_domains": ["nope"]}, 422, "allowed_domains"),
        ("PATCH", f"{API}/{sid}", {"colour": "red"}, 422, "colour"),
        ("GET", "/api/v1/wander/crystals/not-a-uuid/attractor.png", None, 404, "crystal_id"),
        ("GET", f"/api/v1/wander/crystals/{UNKNOWN}/attractor.png", None, 404, "crystal_id"),
    ]
    for method, url, body, status, field in cases:
        r = await client.request(method, url, json=body)
        assert r.status_code == status, (method, url, r.status_code, r.text)
        assert r.json().get("field") == field, (method, url, r.text)


async def test_conflicts_are_409(client):
    s = await create(client, max_steps=1)
    sid = s["id"]
    assert (await client.post(f"{API}/{sid}/step")).status_code == 200
    for action in ("step", "pause"):
        r = await client.post(f"{API}/{sid}/{action}")
        assert r.status_code == 409 and "completed" in r.json()["detail"]
    r = await client.post(f"{API}/{sid}/wander", json={"n_steps": 3})
    assert r.status_code == 409
    r = await client.patch(f"{API}/{sid}", json={"status": "active"})
    assert r.status_code == 409
