"""Archive and import round trip: a wander exported by `wander export` (in process,
tests/wander_cli.py) re-imports with `wander import` into a fresh database with the same
ids and an identical trace; a malformed file gets one line naming what is wrong and nothing
is written."""

from __future__ import annotations

import dataclasses
import json
import os

import pytest

from tests.wander_cli import wander
from wander.adapters.postgres.archive_repository import ArchiveRepository
from wander.adapters.postgres.database import make_engine
from wander.adapters.postgres.repository import PostgresStore
from wander.adapters.projection.projection import Projectors
from wander.core.archive.service import Archivist
from wander.core.engine.service import NewWander


@pytest.fixture
def fresh_db(pg_server, database_pool):
    """A second database (a copy of the corpus template) to import into, from the pool: a
    bare CREATE DATABASE ... TEMPLATE fails while another session reads the template."""
    name = database_pool.take()
    yield pg_server.get_uri(name)
    database_pool.give_back(name)


def env_for(url: str, tmp_path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "WANDER_DATABASE_URL": url,
            "WANDER_HOME": str(tmp_path / "home"),
            "COLUMNS": "200",
            "WANDER_PROJECTION": "pca",
        }
    )
    return env


async def snapshot(url: str, session_id: str) -> dict:
    db = make_engine(url)
    try:
        store = PostgresStore(db)
        trace = [dataclasses.asdict(s) for s in await store.trace(session_id)]
        loci = [(lo.id, lo.concept, lo.visit_count, lo.embedding.tolist()) for lo in await store.loci(session_id)]
        events = [(e.seq, e.subject, e.payload) for e in await store.events_after(session_id)]
        crystals = [(c.id, c.insight) for c in await store.find_crystals(session_id=session_id, status=None)]
        return {
            "trace": trace,
            "loci": loci,
            "events": events,
            "crystals": crystals,
            "count": await store.count_sessions(),
        }
    finally:
        await db.dispose()


async def test_export_import_round_trip_same_ids_identical_trace(app, db_url, fresh_db, tmp_path):
    session = await app.engine.create(
        NewWander("information asymmetry", attractor="opportunity", max_steps=12, random_seed=5)
    )
    await app.engine.run(session.id)
    archivist = Archivist(ArchiveRepository(app.db), app.bus, projectors=Projectors("pca"))
    row, written = await archivist.archive(session.id)
    assert written and row.step_count == 12
    assert (await archivist.archive(session.id)) == (row, False)  # idempotent: unchanged, not rewritten

    src = env_for(db_url, tmp_path)
    out = tmp_path / "w.json"
    r = wander(["export", session.id, "--format", "json", "--out", str(out)], src)
    assert r.returncode == 0, r.stderr
    for fmt, magic in (("md", b"# information asymmetry"), ("png", b"\x89PNG")):
        path = tmp_path / f"w.{fmt}"
        r = wander(["export", session.id, "--format", fmt, "--out", str(path)], src)
        assert r.returncode == 0, r.stderr
        assert path.read_bytes().startswith(magic)

    dst = env_for(fresh_db, tmp_path)
    r = wander(["import", str(out)], dst)
    assert r.returncode == 0, r.stderr
    assert session.id in r.stdout
    before, after = await snapshot(db_url, session.id), await snapshot(fresh_db, session.id)
    assert len(before["trace"]) == 12 and len(before["events"]) > 12
    for key in ("trace", "loci", "events", "crystals"):
        assert after[key] == before[key], key
    # the imported wander archives to the same fingerprint
    db = make_engine(fresh_db)
    try:
        row2, _ = await Archivist(ArchiveRepository(db), app.bus, projectors=Projectors("pca")).archive(session.id)
    finally:
        await db.dispose()
    assert row2.fingerprint == row.fingerprint

    # importing it twice is refused, and nothing changes
    r = wander(["import", str(out)], dst)
    assert r.returncode == 2 and "already exists" in r.stderr
    assert (await snapshot(fresh_db, session.id))["count"] == 1


def _corrupt(doc: dict, how: str) -> str:
    if how == "not json":
        return '{"format": "wander-archive", '
    if how == "not an export":
        return json.dumps({"hello": 1})
    if how == "bad version":
        return json.dumps({**doc, "version": 99})
    if how == "bad vector":
        doc["loci"][1]["embedding"] = [1.0, 2.0]
        return json.dumps(doc)
    if how == "missing session":
        del doc["session"]
        return json.dumps(doc)
    if how == "late bad row":  # only the last table is bad: nothing before it may be written
        doc["events"][-1]["seq"] = "many"
        return json.dumps(doc)
    raise AssertionError(how)


@pytest.mark.parametrize(
    "how, names",
    [
        ("not json", "not JSON"),
        ("not an export", "not a Wander export"),
        ("bad version", "version"),
        ("bad vector", "loci.embedding"),
        ("missing session", "session"),
        ("late bad row", "events"),
    ],
)
async def test_malformed_import_is_one_line_and_writes_nothing(app, fresh_db, tmp_path, how, names):
    session = await app.engine.create(NewWander("trust", max_steps=3))
    await app.engine.run(session.id)
    rows = await ArchiveRepository(app.db).dump(session.id)
    from wander.core.archive.build import document

    path = tmp_path / "bad.json"
    path.write_text(_corrupt(document(rows, final=True), how))
    r = wander(["import", str(path)], env_for(fresh_db, tmp_path))
    assert r.returncode == 2, r.stdout + r.stderr
    lines = [x for x in r.stderr.strip().splitlines() if x.strip()]
    assert len(lines) == 1 and names in lines[0], r.stderr
    assert (await snapshot(fresh_db, session.id))["count"] == 0
