"""Archives over HTTP: archived on completion in the background, idempotent, exports, the
projection (stored fit + transform), the archive list with semantic search, bad input."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from tests.api.conftest import API, create, wait_idle
from wander.adapters.postgres.archive_repository import ArchiveRepository
from wander.core.domain.views import StoredProjection

BASE = "/api/v1/wander"


@pytest.fixture(autouse=True)
def cheap_projection(monkeypatch, app):
    monkeypatch.setenv("WANDER_PROJECTION", "pca")  # UMAP has its own test; this one is about the API
    app.embedder.embed(["warm up"])  # load the model before the first request (slow on a busy machine)


async def archived(client, sid: str) -> dict:
    """The archive the background archivist writes once the wander completes."""
    for _ in range(600):
        r = await client.get(f"{API}/{sid}/archive")
        if r.status_code == 200:
            return r.json()
        assert r.status_code == 404, r.text
        await asyncio.sleep(0.1)
    raise AssertionError("no archive was written")


async def finished(client, **body) -> dict:
    s = await create(client, **body)
    r = await client.post(f"{API}/{s['id']}/wander", json={"n_steps": body.get("max_steps", 6)})
    assert r.status_code == 202, r.text
    return await wait_idle(client, s["id"])


async def test_completed_wander_is_archived_in_the_background_and_exports(client, app):
    s = await finished(client, seed_concept="information asymmetry", attractor="opportunity", max_steps=6)
    assert s["status"] == "completed"
    a = await archived(client, s["id"])
    assert (a["step_count"], a["status"], a["seed_concept"]) == (6, "completed", "information asymmetry")
    assert a["loci_count"] >= 7 and a["fit_id"].startswith("pca-")
    again = (await client.post(f"{API}/{s['id']}/archive")).json()
    assert again["written"] is False and again["fingerprint"] == a["fingerprint"]

    md = await client.get(f"{API}/{s['id']}/archive.md")
    assert md.status_code == 200 and md.headers["content-type"].startswith("text/markdown")
    assert "## Path" in md.text and "information asymmetry ->" in md.text
    png = await client.get(f"{API}/{s['id']}/umap.png")
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG")
    js = await client.get(f"{API}/{s['id']}/archive.json")
    assert js.status_code == 200 and "attachment" in js.headers["content-disposition"]
    doc = js.json()
    assert doc["format"] == "wander-archive" and doc["final"] is True and len(doc["traces"]) == 6
    assert doc["fingerprint"] == a["fingerprint"]

    p = (await client.get(f"{API}/{s['id']}/projection")).json()
    assert p["fit_id"] == a["fit_id"] and len(p["points"]) == a["loci_count"]
    assert all(pt["fitted"] and -1.0001 <= pt["x"] <= 1.0001 for pt in p["points"])
    stored = await ArchiveRepository(app.db).projection(s["id"])  # the fit the answer was read from
    assert isinstance(stored, StoredProjection) and (stored.session_id, stored.fit_id) == (s["id"], a["fit_id"])
    assert stored.n_loci == len(stored.points) == a["loci_count"] and stored.method == "pca"
    assert {pt["locus_id"]: [pt["x"], pt["y"]] for pt in p["points"]} == stored.points
    subjects = [e.subject for e in await app.store.events_after(s["id"])]
    assert "wander.projection.updated" in subjects


async def test_resumed_wander_is_archived_again_and_new_loci_are_transformed(client):
    s = await create(client, seed_concept="trust", max_steps=4)
    await client.post(f"{API}/{s['id']}/wander", json={"n_steps": 2})
    await wait_idle(client, s["id"])
    r = await client.post(f"{API}/{s['id']}/pause")
    assert r.status_code == 200, r.text
    first = (await client.post(f"{API}/{s['id']}/archive")).json()
    assert first["written"] is True and first["status"] == "paused" and first["step_count"] == 2
    fit = first["fit_id"]
    await client.post(f"{API}/{s['id']}/resume")
    await client.post(f"{API}/{s['id']}/wander", json={"n_steps": 1})
    await wait_idle(client, s["id"])
    # between refits, loci found since the fit are placed by transform
    p = (await client.get(f"{API}/{s['id']}/projection")).json()
    fresh = [pt for pt in p["points"] if not pt["fitted"]]
    assert p["fit_id"] == fit and fresh
    await client.post(f"{API}/{s['id']}/wander", json={"n_steps": 1})
    await wait_idle(client, s["id"])
    for _ in range(600):
        a = (await client.get(f"{API}/{s['id']}/archive")).json()
        if a["step_count"] == 4:
            break
        await asyncio.sleep(0.1)
    assert a["status"] == "completed" and a["fingerprint"] != first["fingerprint"]


async def test_archive_list_filters_and_searches_by_meaning(client):
    music = await finished(client, seed_concept="melody", max_steps=4)
    money = await finished(client, seed_concept="interest rate", max_steps=4)
    for s in (music, money):
        await archived(client, s["id"])
    items = (await client.get(f"{BASE}/archives")).json()["items"]
    assert {i["session_id"] for i in items} == {music["id"], money["id"]}
    hits = (await client.get(f"{BASE}/archives", params={"q": "wanders about songs and harmony"})).json()["items"]
    assert hits[0]["session_id"] == music["id"] and hits[0]["similarity"] > hits[1]["similarity"]
    hits = (await client.get(f"{BASE}/archives", params={"q": "banking and loans"})).json()["items"]
    assert hits[0]["session_id"] == money["id"]
    none = (await client.get(f"{BASE}/archives", params={"status": "abandoned"})).json()["items"]
    assert none == []
    joint = (await client.get(f"{BASE}/projection", params={"sessions": f"{music['id']},{money['id']}"})).json()
    assert {pt["session_id"] for pt in joint["points"]} == {music["id"], money["id"]}


async def test_bad_input(client):
    s = await create(client, seed_concept="trust", max_steps=3)
    r = await client.get(f"{API}/{s['id']}/archive.json")
    assert r.status_code == 409 and "final" in r.json()["detail"]
    r = await client.post(f"{API}/{s['id']}/archive")
    assert r.status_code == 409
    assert (await client.get(f"{API}/{s['id']}/archive.json", params={"final": "false"})).json()["final"] is False
    r = await client.get(f"{API}/{s['id']}/archive")
    assert r.status_code == 404 and r.json()["field"] == "archive_id"
    missing = str(uuid.uuid4())
    for path in ("archive", "archive.json", "archive.md", "umap.png", "projection"):
        for sid in (missing, "not-a-uuid"):
            r = await client.get(f"{API}/{sid}/{path}")
            assert r.status_code == 404, (path, sid, r.text)
    assert (await client.get(f"{BASE}/projection", params={"sessions": missing})).status_code == 404
    r = await client.get(f"{BASE}/archives", params={"status": "sleeping"})
    assert r.status_code == 422 and r.json()["field"] == "status"
