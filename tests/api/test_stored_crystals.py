"""Stored crystals: deleting their wander keeps them, detached from it (and its sub-wanders
orphaned, its events gone); a crystal's step throttles crystallization after a reload."""

from datetime import UTC, datetime

import numpy as np

from tests.api.conftest import API, create, wait_idle
from wander.core.domain.models import Crystal, new_id


def _crystal(session: dict, locus_id: str, resonance_id: str | None, dim: int) -> Crystal:
    v = np.zeros(dim, dtype=np.float32)
    v[0] = 1.0
    return Crystal(
        id=new_id(),
        project_id=session["project_id"],
        session_id=session["id"],
        insight="kept",
        embedding=v,
        confidence=0.8,
        actionability=0.5,
        domains=["artifact"],
        source_locus_id=locus_id,
        source_resonance_id=resonance_id,
        created_at=datetime.now(UTC),
    )


async def test_deleting_a_wander_keeps_its_crystals_detached(client, app):
    s = await create(client, max_steps=40, random_seed=5, human_checkpoint_frequency=0)
    sid = s["id"]
    await client.post(f"{API}/{sid}/wander", json={"n_steps": 12})
    await wait_idle(client, sid)
    loci = (await client.get(f"{API}/{sid}/loci")).json()
    resonances = (await client.get(f"{API}/{sid}/resonances")).json()
    assert resonances  # the crystal below points at a resonance of this wander
    crystal = _crystal(s, loci[1]["id"], resonances[0]["id"], app.knowledge.dim)
    await app.store.save_crystal(crystal, [])
    child = (await client.post(f"{API}/{sid}/loci/{loci[2]['id']}/subwander", json={"max_steps": 3})).json()
    assert (await client.get(f"{API}/{sid}/trace")).json()  # traces and events exist

    r = await client.delete(f"{API}/{sid}")
    assert r.status_code == 204, r.text
    assert (await client.get(f"{API}/{sid}")).status_code == 404
    kept = {c["id"]: c for c in (await client.get("/api/v1/wander/crystals")).json()}
    assert crystal.id in kept
    assert (
        kept[crystal.id]["session_id"],
        kept[crystal.id]["source_locus_id"],
        kept[crystal.id]["source_resonance_id"],
    ) == (None, None, None)
    orphan = (await client.get(f"{API}/{child['id']}")).json()
    assert orphan["parent_session_id"] is None
    assert await app.store.events_after(sid, 0) == []


async def test_crystallization_throttle_survives_a_reload(client, app):
    s = await create(client, max_steps=40, random_seed=6, human_checkpoint_frequency=0)
    sid = s["id"]
    await client.post(f"{API}/{sid}/wander", json={"n_steps": 9})
    await wait_idle(client, sid)
    # the walk may have formed a crystal of its own in these steps; the one saved below is later
    before = (await app.engine.load_walk(sid)).last_crystallize_step
    assert before < 9
    trace = (await client.get(f"{API}/{sid}/trace")).json()
    loci = (await client.get(f"{API}/{sid}/loci")).json()
    crystal = _crystal(s, loci[1]["id"], None, app.knowledge.dim)
    crystal.created_at = datetime.fromisoformat(trace[8]["created_at"])  # formed with step 9
    await app.store.save_crystal(crystal, [])
    walk = await app.engine.load_walk(sid)
    assert walk.last_crystallize_step == 9
