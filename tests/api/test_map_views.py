"""The map's read-only views. GET .../next-candidates previews the next step from the current
locus: the candidates that step then considers, with the same probabilities, and previewing
changes nothing (no event, no step, the walk goes where it would have gone). GET .../attractor:
the loci nearest the attractor, nearest first, by their embeddings' similarity."""

from __future__ import annotations

import numpy as np

from shared_schemas.events import Subject
from tests.api.conftest import API, create


async def test_preview_is_what_the_next_step_considers_and_changes_nothing(client, app):
    s = await create(client, seed_concept="sailing", attractor="epidemiology", max_steps=12, random_seed=5)
    sid = s["id"]
    for _ in range(2):
        assert (await client.post(f"{API}/{sid}/step")).status_code == 200
    before = await client.get(f"{API}/{sid}")
    events_before = len(await app.store.events_after(sid))
    preview = await client.get(f"{API}/{sid}/next-candidates")
    assert preview.status_code == 200, preview.text
    p = preview.json()
    assert p["step_number"] == 3
    assert p["from_locus_id"] == before.json()["current_locus_id"]
    assert p["candidates"], p
    assert abs(sum(c["probability"] for c in p["candidates"]) - 1.0) < 0.01
    # nothing changed: the same session, no event written
    assert len(await app.store.events_after(sid)) == events_before
    again = (await client.get(f"{API}/{sid}/next-candidates")).json()
    assert again == p
    step = await client.post(f"{API}/{sid}/step")
    assert step.status_code == 200
    found = [e for e in await app.store.events_after(sid) if e.subject == Subject.ADJACENCIES_FOUND]
    taken = found[-1].payload
    assert taken["step_number"] == 3 and taken["from_locus_id"] == p["from_locus_id"]
    assert [(c["concept"], c["probability"]) for c in taken["candidates"]] == [
        (c["concept"], c["probability"]) for c in p["candidates"]
    ]
    assert step.json()["to_locus"]["concept"] in {c["concept"] for c in p["candidates"]}


async def test_preview_of_an_unknown_wander_is_404(client):
    r = await client.get(f"{API}/no-such-wander/next-candidates")
    assert r.status_code == 404


async def test_attractor_view_names_the_loci_nearest_the_attractor(client, app):
    s = await create(client, seed_concept="sailing", attractor="epidemiology", max_steps=12, random_seed=5)
    sid = s["id"]
    for _ in range(6):
        assert (await client.post(f"{API}/{sid}/step")).status_code == 200
    r = await client.get(f"{API}/{sid}/attractor")
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["attractor"] == "epidemiology"
    session = await app.store.get_session(sid)
    loci = await app.store.loci(sid)
    a = session.attractor_embedding / np.linalg.norm(session.attractor_embedding)
    sims = {lo.id: float(lo.embedding @ a / np.linalg.norm(lo.embedding)) for lo in loci}
    expected = sorted(sims, key=lambda i: -sims[i])[: len(out["nearest"])]
    assert [n["locus_id"] for n in out["nearest"]] == expected
    assert len(out["nearest"]) == min(12, len(loci))
    for n in out["nearest"]:
        assert abs(n["similarity"] - sims[n["locus_id"]]) < 1e-3
    assert out["seed_similarity"] is not None


async def test_attractor_view_of_a_wander_without_one_is_empty(client):
    s = await create(client, seed_concept="sailing", max_steps=12, random_seed=5)
    out = (await client.get(f"{API}/{s['id']}/attractor")).json()
    assert out == {"attractor": None, "nearest": [], "seed_similarity": None}
