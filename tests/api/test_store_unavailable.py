"""The store full: a disk-full error while a step commits is a 503 problem, writes
nothing, and the wander steps on once the disk has room, on the path it would have
taken had nothing failed; a background run that hits it pauses and says why.

The disk fills for real as far as Wander can tell: a trigger in the test database raises
Postgres's own disk-full error (SQLSTATE 53100, the message Postgres writes when it
cannot extend a file) inside the step's transaction, through asyncpg and SQLAlchemy."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from types import SimpleNamespace

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError, OperationalError

from shared_schemas.events import Subject
from shared_schemas.models import SessionCreate
from tests.api.conftest import API, create, wait_idle
from wander.bootstrap.settings import load_settings
from wander.bootstrap.wiring import open_app
from wander.core.engine.service import NewWander
from wander.faces.api import problems

WALK = dict(seed_concept="tide pool", max_steps=20, random_seed=11, human_checkpoint_frequency=0, max_drift_distance=2)
FULL = """
CREATE OR REPLACE FUNCTION wander_test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'wander_traces' THEN
    IF NEW.step_number < TG_ARGV[0]::int THEN
      RETURN NEW;
    END IF;
  END IF;
  RAISE EXCEPTION 'could not extend file "base/16384/24576": No space left on device'
    USING ERRCODE = 'disk_full', HINT = 'Check free disk space.';
END $$
"""


@asynccontextmanager
async def disk_full(app, *tables: str, from_step: int = 0):
    """Inserts into `tables` fail as on a full disk (traces from step `from_step`) until exit."""
    async with app.db.begin() as conn:
        await conn.execute(text(FULL))
        for t in tables:
            await conn.execute(
                text(
                    f"CREATE TRIGGER disk_full BEFORE INSERT ON {t} FOR EACH ROW EXECUTE FUNCTION wander_test_disk_full({from_step})"
                )
            )
    try:
        yield
    finally:
        async with app.db.begin() as conn:
            for t in tables:
                await conn.execute(text(f"DROP TRIGGER disk_full ON {t}"))


async def snapshot(app, session_id: str) -> dict:
    session = await app.store.get_session(session_id)
    return {
        "session": (session.step_count, str(session.status), session.current_locus_id, session.event_seq),
        "trace": [(s.step_number, s.from_concept, s.to_concept) for s in await app.store.trace(session_id)],
        "loci": sorted((lo.id, lo.concept, lo.visit_count) for lo in await app.store.loci(session_id)),
        "events": [(e.seq, e.subject) for e in await app.store.events_after(session_id)],
    }


@pytest.fixture
def reference(pg_server, database_pool, embedder, knowledge, tmp_path):
    """walk(body, n, stepwise): the path of a wander made from `body` that never failed, in
    a database of its own (a copy of the template from the pool: a bare CREATE DATABASE ...
    TEMPLATE fails while another session reads the template): n steps each loaded afresh
    (as POST /step does), or one run."""
    made: list[str] = []

    async def walk(body: dict, n: int, stepwise: bool) -> list[tuple[int, str | None, str]]:
        name = await asyncio.to_thread(database_pool.take)
        made.append(name)
        settings = load_settings(
            {"WANDER_DATABASE_URL": pg_server.get_uri(name), "WANDER_HOME": str(tmp_path / f"home-{name}")}
        )
        async with open_app(settings, embedder=embedder, knowledge=knowledge) as ref:
            s = await ref.engine.create(NewWander(**SessionCreate(**body).model_dump()))
            if stepwise:
                for _ in range(n):
                    await ref.engine.step(await ref.engine.load_walk(s.id))
            else:
                await ref.engine.run(s.id, n_steps=n)
            return [(t.step_number, t.from_concept, t.to_concept) for t in await ref.store.trace(s.id)]

    yield walk
    for name in made:
        database_pool.give_back(name)


def no_leak(body: str) -> None:
    for leak in ("Traceback", "INSERT", "[SQL", "asyncpg", "wander_traces", "base/16384"):
        assert leak not in body, body


async def test_a_full_disk_during_a_step_is_a_503_that_writes_nothing(app, client, reference):
    s = await create(client, **WALK)
    sid = s["id"]
    for _ in range(3):
        assert (await client.post(f"{API}/{sid}/step")).status_code == 200
    before = await snapshot(app, sid)

    # The disk fills while step 4 commits (its start was written before the step's work).
    async with disk_full(app, "wander_traces"):
        r = await client.post(f"{API}/{sid}/step")
        assert r.status_code == 503, r.text
        assert r.headers["content-type"].startswith("application/problem+json")
        p = r.json()
        assert p["status"] == 503 and p["title"] == "Service Unavailable"
        assert "could not write step 4" in p["detail"] and "disk is full" in p["detail"], p
        no_leak(r.text)
        after = await snapshot(app, sid)
        assert after["session"][:3] == before["session"][:3]  # step count, status, current locus
        assert after["trace"] == before["trace"] and after["loci"] == before["loci"]
        assert after["events"][: len(before["events"])] == before["events"]
        assert [e for _, e in after["events"][len(before["events"]) :]] == [Subject.STEP_STARTED]

    # Full before the step starts: not even its start is written; other writes are 503 too.
    mark = await snapshot(app, sid)
    async with disk_full(app, "wander_traces", "wander_events"):
        r = await client.post(f"{API}/{sid}/step")
        assert r.status_code == 503 and "disk is full" in r.json()["detail"], r.text
        no_leak(r.text)
        r = await client.post(f"{API}/{sid}/fence", json={"concept": "weapon", "action": "exclude"})
        assert r.status_code == 503 and r.headers["content-type"].startswith("application/problem+json"), r.text
        assert "could not write" in r.json()["detail"]
        no_leak(r.text)
        assert await snapshot(app, sid) == mark
        assert (await app.store.get_session(sid)).fence == []

    # The disk has room again: the same wander steps on, gapless, on the unfailed path.
    for n in range(4, 9):
        r = await client.post(f"{API}/{sid}/step")
        assert r.status_code == 200 and r.json()["step_number"] == n, r.text
    path = (await snapshot(app, sid))["trace"]
    assert [n for n, _, _ in path] == list(range(1, 9))
    assert path == await reference(WALK, 8, stepwise=True)


async def test_a_run_that_hits_a_full_disk_pauses_saying_why_and_resumes(app, client, reference):
    s = await create(client, **WALK)
    sid = s["id"]
    async with disk_full(app, "wander_traces", from_step=4):
        r = await client.post(f"{API}/{sid}/wander", json={"n_steps": 8})
        assert r.status_code == 202, r.text
        state = await wait_idle(client, sid)
        assert (state["status"], state["stopped_reason"], state["step_count"]) == ("paused", "store_unavailable", 3)
        events = await app.store.events_after(sid)
        # (the projection refit may append wander.projection.updated after them)
        said = [e for e in events if e.subject in (Subject.CIRCUIT_TRIPPED, Subject.SESSION_PAUSED)]
        assert [e.subject for e in said] == [Subject.CIRCUIT_TRIPPED, Subject.SESSION_PAUSED]
        tripped, paused = said
        assert paused.seq == tripped.seq + 1 and events[tripped.seq - 2].subject == Subject.STEP_STARTED
        assert tripped.payload["reason"] == paused.payload["reason"] == "store_unavailable"
        assert "disk is full" in tripped.payload["detail"] and tripped.payload["step_number"] == 4
        assert paused.payload["step_count"] == 3
        no_leak(tripped.payload["detail"])

    # Resumed once the disk has room: the run goes on to the step it was asked for.
    r = await client.post(f"{API}/{sid}/resume")
    assert r.status_code == 200, r.text
    state = await wait_idle(client, sid)
    assert (state["status"], state["step_count"]) == ("active", 8), state
    path = (await snapshot(app, sid))["trace"]
    assert [n for n, _, _ in path] == list(range(1, 9))
    assert path == await reference(WALK, 8, stepwise=False)
    events = await app.store.events_after(sid)
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    done = [e.payload["step_number"] for e in events if e.subject == Subject.STEP_COMPLETED]
    assert done == list(range(1, 9))


def _request():
    return SimpleNamespace(method="POST", url=SimpleNamespace(path="/api/v1/wander/sessions/x/step"))


class _DriverError(Exception):
    def __init__(self, sqlstate: str) -> None:
        super().__init__(f"driver error {sqlstate}")
        self.sqlstate = sqlstate


@pytest.mark.parametrize(
    ("exc", "status", "words"),
    [
        (DBAPIError("INSERT ...", {}, _DriverError("53100")), 503, "disk is full"),
        (DBAPIError("INSERT ...", {}, _DriverError("58030")), 503, "I/O error"),
        (DBAPIError("SELECT 1", {}, _DriverError("08006")), 503, "connection to the database was lost"),
        (DBAPIError("SELECT 1", {}, _DriverError("57P01")), 503, "shutting down"),
        (OperationalError("SELECT 1", {}, ConnectionResetError("reset")), 503, "could not be reached"),
        (DBAPIError("SELECT 1", {}, _DriverError("42P01")), 500, "internal error"),
    ],
)
def test_database_errors_map_to_problems(exc, status, words):
    r = problems.HANDLERS[DBAPIError](_request(), exc)  # type: ignore[operator]
    assert r.status_code == status and r.media_type == problems.PROBLEM
    assert words in r.content["detail"] and "INSERT" not in r.content["detail"]
