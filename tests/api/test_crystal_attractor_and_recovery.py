"""A crystal's Wheeler attractor as PNG, and runs resumed when the server starts."""

import io
import uuid

import httpx
import numpy as np
from PIL import Image
from sqlalchemy import insert

from tests.api.conftest import API, create, start_server, wait_idle
from wander.adapters.postgres.tables import DEFAULT_PROJECT_ID, WanderCrystal
from wander.core.engine.service import NewWander
from wander.faces.api.app import ApiSettings


async def test_crystal_attractor_png_is_served(app, client):
    crystal_id = uuid.uuid4()
    vector = app.embedder.embed(["markets price the information they cannot see"])[0]
    async with app.db.begin() as conn:
        await conn.execute(
            insert(WanderCrystal.__table__).values(
                id=crystal_id,
                project_id=DEFAULT_PROJECT_ID,
                insight="markets price the information they cannot see",
                embedding=vector,
                confidence=0.8,
                actionability=0.5,
                domains=["possession"],
            )
        )
    listed = (await client.get("/api/v1/wander/crystals")).json()
    assert [c["id"] for c in listed] == [str(crystal_id)]
    r = await client.get(f"/api/v1/wander/crystals/{crystal_id}/attractor.png")
    assert r.status_code == 200 and r.headers["content-type"] == "image/png"
    assert r.content[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(r.content))
    assert image.size[0] >= 64 and image.size[1] >= 64
    assert len(np.unique(np.asarray(image.convert("L")))) > 2, "an attractor is not a flat image"
    again = await client.get(f"/api/v1/wander/crystals/{crystal_id}/attractor.png")
    assert again.content == r.content, "the same crystal always gives the same fingerprint"


async def test_interrupted_runs_resume_when_the_server_starts(app):
    session = await app.engine.create(NewWander(seed_concept="tide pool", max_steps=20, random_seed=5))
    walk = await app.engine.load_walk(session.id)
    for _ in range(3):
        await app.engine.step(walk)
    # As a crash leaves it: active, a run asked for 12 steps, only 3 taken.
    await app.store.set_run_target(session.id, 12)
    srv, task, addr = await start_server(app, ApiSettings(heartbeat_s=0.3, resume_interrupted=True))
    try:
        async with httpx.AsyncClient(base_url=f"http://{addr}", timeout=30) as c:
            done = await wait_idle(c, session.id)
            assert done["step_count"] == 12 and done["status"] == "active"
    finally:
        srv.should_exit = True
        await task
    assert await app.store.step_numbers(session.id) == list(range(1, 13))


async def test_created_but_never_started_wanders_are_not_run(app, client):
    s = await create(client, max_steps=5)
    assert await app.store.interrupted_runs() == []
    assert (await client.get(f"{API}/{s['id']}")).json()["step_count"] == 0
