"""The brick viewer's endpoints: a stored memory's brick, the brick behind a crystal's
attractor picture, any text's; the rotation retry's outcome and an oscillating brick's
cycle (period, the tick it began) as the viewer reads them."""

from __future__ import annotations

import base64
import uuid

import numpy as np
from sqlalchemy import insert

from tests.api.test_recall_pipeline import form_crystals
from wander.adapters.ca import rotation
from wander.adapters.ca.brick_view import dequantise
from wander.adapters.ca.kernel import OSCILLATING, Evolution
from wander.adapters.ca.seed import hash_frame, text_key
from wander.adapters.ca.signals import attractor_for_text
from wander.adapters.postgres.tables import DEFAULT_PROJECT_ID, WanderCrystal

BASE = "/api/v1/wander"


def frames_of(body: dict) -> np.ndarray:
    data = base64.b64decode(body["frames"])
    assert len(data) == (body["ticks"] + 1) * body["height"] * body["width"]
    return dequantise(data, body["height"], body["width"])


async def test_a_crystals_brick_ends_in_its_attractor_picture(app, client):
    insight = f"markets price the information they cannot see {uuid.uuid4().hex[:6]}"
    crystal_id = uuid.uuid4()
    async with app.db.begin() as conn:
        await conn.execute(
            insert(WanderCrystal.__table__).values(
                id=crystal_id,
                project_id=DEFAULT_PROJECT_ID,
                insight=insight,
                embedding=app.embedder.embed([insight])[0],
                confidence=0.8,
                actionability=0.5,
                domains=["possession"],
            )
        )
    r = await client.get(f"{BASE}/crystals/{crystal_id}/brick")
    assert r.status_code == 200, r.text
    body = r.json()
    assert (body["source"], body["id"], body["text"]) == ("crystal", str(crystal_id), insight)
    assert (body["state"], body["outcome"], body["angle"], body["attempts"]) == ("CONVERGED", "CONVERGED", 0, 1)
    assert body["cycle_period"] is None and body["divergence_tick"] is None
    frames = frames_of(body)
    assert frames.shape == (body["ticks"] + 1, 64, 64) and body["ticks"] > 5
    assert np.abs(frames[0] - hash_frame(insight)).max() <= 1 / 255 + 1e-6  # the seed first
    assert np.abs(frames[-1] - attractor_for_text(insight)).max() <= 1 / 255 + 1e-6  # the picture's attractor
    assert not np.array_equal(frames[1], frames[-1])  # it moves
    missing = await client.get(f"{BASE}/crystals/{uuid.uuid4()}/brick")
    assert missing.status_code == 404


async def test_a_stored_memorys_brick_and_an_unknown_one(app, client):
    text = f"a river delta spreads sediment like a branching network {uuid.uuid4().hex[:6]}"
    await form_crystals(app, [text])
    entry = next(e for e in app.crystal_memory.memory.entries() if e.text == text)
    r = await client.get(f"{BASE}/memory/{entry.id}/brick")
    assert r.status_code == 200, r.text
    body = r.json()
    assert (body["source"], body["id"], body["text"], body["outcome"]) == ("memory", entry.id, text, entry.outcome)
    assert body["ticks"] == entry.ticks and len(frames_of(body)) == entry.ticks + 1
    stored = app.crystal_memory.memory.attractor(entry.id)
    assert np.abs(frames_of(body)[-1] - stored).max() <= 1 / 255 + 1e-6
    gone = await client.get(f"{BASE}/memory/{'0' * 16}/brick")
    assert gone.status_code == 404 and "0" * 16 in gone.json()["detail"]


async def test_a_text_that_fails_every_rotation_shows_its_outcome_and_cycle(client, monkeypatch):
    onset = 23

    def cycling(frames, keep_history=False, **kw):
        out = []
        for f in np.asarray(frames):
            rng = np.random.default_rng(1)
            wander = [f] + [rng.uniform(-1, 1, f.shape).astype(np.float32) for _ in range(onset - 1)]
            history = np.stack(wander + [f, -f] * 20)  # from tick 23 the roles flip every tick
            out.append(Evolution(history[-1], OSCILLATING, len(history) - 1, history=history, period=2))
        return out

    monkeypatch.setattr(rotation, "evolve_batch", cycling)
    text = f"a thought that never settles {uuid.uuid4().hex[:6]}"
    r = await client.get(f"{BASE}/bricks", params={"text": text})
    assert r.status_code == 200, r.text
    body = r.json()
    assert (body["source"], body["id"], body["state"]) == ("text", text_key(text), "OSCILLATING")
    assert (body["outcome"], body["attempts"]) == ("FAILED_ALL_ROTATIONS", 4)
    assert (body["cycle_period"], body["divergence_tick"]) == (2, onset)
    assert len(frames_of(body)) == onset + 40


async def test_an_empty_text_is_refused_naming_the_field(client):
    r = await client.get(f"{BASE}/bricks", params={"text": "  "})
    assert r.status_code == 422 and r.json()["field"] == "text"
    schema = (await client.get("/schema/openapi.json")).json()
    assert "BrickOut" in schema["components"]["schemas"]
    assert "/api/v1/wander/crystals/{crystal_id}/brick" in schema["paths"]
