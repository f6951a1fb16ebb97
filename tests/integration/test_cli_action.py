"""`wander propose | proposals | approve | reject | execute | wallet` against the test database."""

import json
import uuid

from sqlalchemy import insert

from tests.wander_cli import wander
from wander.adapters.postgres.tables import DEFAULT_PROJECT_ID, WanderCrystal
from wander.core.engine.service import NewWander


async def test_the_gate_from_the_terminal(app, cli_env):
    session = await app.engine.create(NewWander(seed_concept="information asymmetry", max_steps=5, random_seed=1))
    crystal_id = str(uuid.uuid4())
    async with app.db.begin() as conn:
        await conn.execute(
            insert(WanderCrystal.__table__).values(
                id=uuid.UUID(crystal_id),
                project_id=DEFAULT_PROJECT_ID,
                session_id=uuid.UUID(session.id),
                insight="prices carry hidden information",
                embedding=app.embedder.embed(["prices"])[0],
                confidence=0.8,
                actionability=0.5,
                domains=["possession"],
                validity={"V": 0.75, "verdict": "accepted"},
            )
        )
    out = wander(["propose", crystal_id, "--json"], cli_env)
    assert out.returncode == 0, out.stderr
    p = json.loads(out.stdout)
    assert p["status"] == "pending" and p["crystal_id"] == crystal_id

    out = wander(["execute", p["id"]], cli_env)
    assert out.returncode == 2 and "refused: not approved" in out.stderr
    out = wander(["approve", p["id"], "--image-sha256", "f" * 64], cli_env)
    assert out.returncode == 2 and "image_sha256" in out.stderr
    out = wander(["approve", p["id"], "--image-sha256", p["image_sha256"], "--reviewer", "grace", "--json"], cli_env)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["decision"]["reviewer"] == "grace"
    out = wander(["execute", p["id"], "--json"], cli_env)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["status"] == "executed"
    out = wander(["execute", p["id"]], cli_env)
    assert out.returncode == 2 and "already executed" in out.stderr

    out = wander(["wallet", "--json"], cli_env)
    ledger = json.loads(out.stdout)["ledger"]
    assert [row["proposal_id"] for row in ledger] == [p["id"]]
    out = wander(["proposals", "--status", "executed", "--json"], cli_env)
    assert [x["id"] for x in json.loads(out.stdout)] == [p["id"]]


async def test_with_a_token_set_a_decision_needs_it(app, cli_env):
    out = wander(["approve", str(uuid.uuid4()), "--image-sha256", "a" * 64], {**cli_env, "WANDER_API_TOKEN": "s3cret"})
    assert out.returncode == 2 and "--token" in out.stderr
