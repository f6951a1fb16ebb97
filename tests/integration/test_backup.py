"""`wander db backup` / `wander db restore` with the command (in process, tests/wander_cli.py),
pg_dump and pg_restore: a wander backed up after a few steps and restored into an empty database and a
fresh home resumes there and walks the same path as an uninterrupted run with its seed; a
missing, damaged or foreign file gets one line and changes nothing."""

from __future__ import annotations

import os
import subprocess
import tarfile
from pathlib import Path

import pytest

from tests.wander_cli import wander as run_wander
from wander.adapters.postgres.database import make_engine
from wander.adapters.postgres.repository import PostgresStore
from wander.bootstrap.settings import load_settings
from wander.bootstrap.wiring import open_app
from wander.core.engine.service import NewWander

WALK = NewWander(
    "information asymmetry", attractor="opportunity", max_steps=10, random_seed=21, human_checkpoint_frequency=0
)


def wander(args: list[str], url: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, WANDER_DATABASE_URL=url, WANDER_HOME=str(home), COLUMNS="200")
    return run_wander(args, env, timeout=600)


@pytest.fixture
def database(pg_server, database_pool):
    """make(name, template=False): a database for this test, empty or (template=True) a copy
    of the template from the pool (a bare CREATE DATABASE ... TEMPLATE fails while another
    session reads the template); dropped after the test."""
    made: list[str] = []
    copies: list[str] = []

    def make(name: str, template: bool = False) -> str:
        if template:
            copies.append(database_pool.take())
            return pg_server.get_uri(copies[-1])
        name = f"{name}{os.getpid()}"
        pg_server.psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE);")
        pg_server.psql(f"CREATE DATABASE {name};")
        made.append(name)
        return pg_server.get_uri(name)

    yield make
    for name in made:
        pg_server.psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE);")
    for name in copies:
        database_pool.give_back(name)


async def path_of(url: str, session_id: str) -> list[tuple[int, str | None, str]]:
    db = make_engine(url)
    try:
        return [(s.step_number, s.from_concept, s.to_concept) for s in await PostgresStore(db).trace(session_id)]
    finally:
        await db.dispose()


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


async def test_backup_restore_resume_walks_the_same_path(app, db_url, database, tmp_path, embedder, knowledge):
    session = await app.engine.create(WALK)
    await app.engine.run(session.id, n_steps=5)
    memory = app.settings.memory_dir
    memory.mkdir(parents=True, exist_ok=True)
    (memory / "chunk-test").mkdir(exist_ok=True)
    (memory / "chunk-test" / "index.json").write_text('{"kept": true}')  # the folder travels whole
    home = app.settings.home
    backup = tmp_path / "wander.backup"
    r = wander(["db", "backup", str(backup)], db_url, home)
    assert r.returncode == 0, r.stderr
    assert backup.is_file() and not [p for p in tmp_path.iterdir() if p.name.startswith(".wander-backup-")]

    # Restore into an empty database and a fresh home, then resume there.
    restored_url, restored_home = database("wander_rst"), tmp_path / "restored-home"
    r = wander(["db", "restore", str(backup)], restored_url, restored_home)
    assert r.returncode == 0, r.stderr
    assert files(restored_home / "memory") == files(memory)
    assert await path_of(restored_url, session.id) == await path_of(db_url, session.id)
    settings = load_settings({"WANDER_DATABASE_URL": restored_url, "WANDER_HOME": str(restored_home)})
    async with open_app(settings, embedder=embedder, knowledge=knowledge) as there:
        await there.engine.run(session.id, n_steps=5)
    resumed = await path_of(restored_url, session.id)

    # The same seed, uninterrupted, in another database.
    whole_url = database("wander_whole", template=True)
    settings = load_settings({"WANDER_DATABASE_URL": whole_url, "WANDER_HOME": str(tmp_path / "whole-home")})
    async with open_app(settings, embedder=embedder, knowledge=knowledge) as whole:
        other = await whole.engine.create(WALK)
        await whole.engine.run(other.id)
    uninterrupted = await path_of(whole_url, other.id)
    assert len(resumed) == 10
    assert resumed == uninterrupted


async def test_bad_backup_files_get_one_line_and_change_nothing(app, db_url, tmp_path):
    session = await app.engine.create(WALK)
    await app.engine.run(session.id, n_steps=2)
    home = app.settings.home
    memory = app.settings.memory_dir
    memory.mkdir(parents=True, exist_ok=True)
    (memory / "marker").write_text("before")
    good = tmp_path / "good.backup"
    assert wander(["db", "backup", str(good)], db_url, home).returncode == 0

    truncated = tmp_path / "truncated.backup"
    truncated.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    garbage = tmp_path / "garbage.backup"
    garbage.write_bytes(os.urandom(4096))
    foreign = tmp_path / "foreign.tar"
    with tarfile.open(foreign, "w") as tar:
        tar.add(memory / "marker", arcname="marker")
    cases = {
        tmp_path / "missing.backup": "no such file",
        tmp_path: "is not a file",
        garbage: "not a Wander backup",
        foreign: "not a Wander backup",
        truncated: "damaged",
    }
    before = await path_of(db_url, session.id)
    for path, reason in cases.items():
        r = wander(["db", "restore", str(path)], db_url, home)
        assert r.returncode == 2, (path, r.stdout, r.stderr)
        message = r.stderr.strip()
        assert reason in message and "Traceback" not in message and len(message.splitlines()) == 1, message
    assert await path_of(db_url, session.id) == before
    assert files(memory) == {"marker": b"before"}

    # A backup to a folder that does not exist: one line, no file written.
    r = wander(["db", "backup", str(tmp_path / "nowhere" / "x.backup")], db_url, home)
    assert r.returncode == 2 and "no such folder" in r.stderr and not (tmp_path / "nowhere").exists()
