"""`wander run --require-approval`: the wander holds every crystal for a person's verdict."""

import asyncio
import json

from tests.wander_cli import wander


async def _session(db_url: str, session_id: str):
    from wander.adapters.postgres.database import make_engine
    from wander.adapters.postgres.repository import PostgresStore

    db = make_engine(db_url)
    try:
        return await PostgresStore(db).get_session(session_id)
    finally:
        await db.dispose()


def test_run_with_require_approval_sets_the_rule(cli_env):
    out = wander(["run", "tide pool", "--steps", "2", "--require-approval", "--json"], cli_env)
    assert out.returncode == 0, out.stderr
    sid = json.loads(out.stdout)["session_id"]
    assert asyncio.run(_session(cli_env["WANDER_DATABASE_URL"], sid)).require_crystal_approval is True
    plain = wander(["run", "tide pool", "--steps", "1", "--json"], cli_env)
    sid = json.loads(plain.stdout)["session_id"]
    assert asyncio.run(_session(cli_env["WANDER_DATABASE_URL"], sid)).require_crystal_approval is False
