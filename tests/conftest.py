"""Shared fixtures: a real embedded Postgres with pgvector, a template database with the
concept corpus embedded once, and a fresh database per test copied from the template."""

from __future__ import annotations

import gc
import hashlib
import os
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# One BLAS thread per process, set before numpy loads OpenBLAS (here and in every process the
# tests start). The suite runs several busy processes per core (two workers, the `wander`
# commands and servers they start, the browser tests beside them), and OpenBLAS's threads
# spin while they wait for one another: a similarity row over the corpus (14k x 384) cost
# 7.5 ms of CPU with its default threads on the loaded two-core machine and 0.9 ms with one,
# a 100-step wander 10.8 s of CPU in all and 7.3 s. The results are bit-identical (the same
# embeddings, similarity rows and walked paths, checked).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
# torch's OpenMP threads (the model's forward pass) sleep while they wait instead of spinning,
# set before torch loads: on the loaded machine embedding 1,050 texts cost 11.5-12.8 s of CPU
# (38-43 s wall) spinning and 2.8 s (5.5-6.4 s wall) sleeping, with bit-identical vectors
# (the same number of threads splits the same work; only how an idle thread waits changes).
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

REPO = Path(__file__).resolve().parents[1]
# Outside any home directory (pgserver as root opens every parent), stable across runs of
# this checkout so the embedded corpus is reused, separate per checkout.
TEST_HOME = Path(tempfile.gettempdir()) / f"wander-test-{hashlib.sha1(str(REPO).encode()).hexdigest()[:10]}"
# Derived data (the corpus's domain neighbourhoods, compiled UMAP code) shared by every
# `wander` process the tests start, each with a home of its own: computed once, not per start.
os.environ.setdefault("WANDER_CACHE_DIR", str(TEST_HOME / "cache"))


def pytest_configure(config) -> None:
    """With xdist, before its workers start: load the CA kernel's compiled code once (a fresh
    clone compiles it, 10-20 s), so the workers and the `wander` processes the tests start
    read it instead of each compiling it at the same time."""
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        from wander.adapters.ca.kernel import fused_available

        fused_available()


def settle_heap() -> None:
    """Collect, then freeze what is left. A worker's long-lived heap (the imported modules,
    torch, the model, numba's and UMAP's code once a test loads them: 400,000-650,000 objects)
    leaves the collector's generations, so a full collection (the automatic ones, and the one
    after each in-process `wander` command) scans only what is new since, not the whole heap
    again: each cost 0.2-0.5 s of CPU, 15% of the API tests' CPU. Freezing only keeps objects
    from the cycle collector: what is frozen here lives for the session anyway, and anything
    of it that dies later outside a reference cycle is still freed at once."""
    global _FULL_COLLECTIONS
    gc.collect()
    gc.freeze()
    _FULL_COLLECTIONS = gc.get_stats()[2]["collections"]


_FULL_COLLECTIONS = 0


def pytest_collection_finish(session) -> None:
    """The test modules and what they import are loaded."""
    settle_heap()


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item, nextitem) -> None:
    """After a test's fixtures are torn down: when a full collection ran during the test, the
    heap grew enough to trigger one (a module loaded lazily, a session fixture built): what
    survives the test is long-lived, and is frozen in its turn."""
    if gc.get_stats()[2]["collections"] != _FULL_COLLECTIONS:
        settle_heap()


def _template_name() -> str:
    """Keyed by the corpus and its shipped vectors only: each test database is migrated to
    head when it opens, so a new migration does not cost a new corpus embedding."""
    from wander.adapters.kb import corpus
    from wander.adapters.kb.shipped_vectors import VECTORS_FILE

    key = corpus.corpus_fingerprint() + corpus.corpus_fingerprint(VECTORS_FILE)
    return f"wander_tpl_{hashlib.sha1(key.encode()).hexdigest()[:10]}"


@pytest.fixture(scope="session")
def test_home() -> Path:
    TEST_HOME.mkdir(parents=True, exist_ok=True)
    return TEST_HOME


@pytest.fixture(scope="session")
def pg_server(test_home):
    from wander.adapters.postgres.database import embedded_server

    server = embedded_server(test_home / "pg")
    _without_fsync(server)
    return server


def _without_fsync(server) -> None:
    """The tests' own server does not fsync: each test database's copy of the template
    forced two checkpoints that fsynced every file (a copy and its drop took ~3 s, now ~0.25 s),
    and each commit waited for its WAL flush. A process that dies (a killed worker, a server
    stopped mid-step) loses nothing committed without fsync; only the machine's own crash
    would, and the server's data lives in the temp folder. Set once; it persists in its
    data folder."""
    if server.psql("SHOW fsync;").split()[-3:-2] == ["off"]:
        return
    for setting in ("fsync", "full_page_writes"):
        server.psql(f"ALTER SYSTEM SET {setting} = off;")  # one statement: not in a transaction
    server.psql("SELECT pg_reload_conf();")


@pytest.fixture(scope="session")
def embedder():
    from wander.adapters.embed.minilm import MiniLMEmbedder

    e = MiniLMEmbedder()
    # Load the weights now, in setup: a first request that loads them can outlast a client
    # timeout on a busy machine.
    e.embed(["warm up"])
    return e


@pytest.fixture(scope="session")
async def template_db(pg_server, embedder) -> str:
    """A database at migration head with the corpus embedded; built once per content."""
    import fasteners

    # pytest-xdist workers share the server: one builds the template, the others wait for it
    with fasteners.InterProcessLock(str(TEST_HOME / "template.lock")):
        return await _build_template(pg_server, embedder)


async def _build_template(pg_server, embedder) -> str:
    from wander.adapters.postgres.database import ensure_embedded_database
    from wander.adapters.postgres.kb_repository import KbRepository
    from wander.bootstrap.settings import load_settings
    from wander.bootstrap.wiring import NoProgress, ensure_corpus, open_database

    name = _template_name()
    existing = pg_server.psql("SELECT datname FROM pg_database WHERE datname LIKE 'wander_tpl_%';")
    for line in existing.splitlines():
        old = line.strip()
        if old.startswith("wander_tpl_") and old != name:
            pg_server.psql(f"DROP DATABASE IF EXISTS {old} WITH (FORCE);")
    url = ensure_embedded_database(Path(pg_server.pgdata), name)
    settings = load_settings({"WANDER_DATABASE_URL": url, "WANDER_HOME": str(TEST_HOME)})
    db = await open_database(settings)
    try:
        await ensure_corpus(KbRepository(db), embedder, NoProgress(), settings.vector_cache_dir)
    finally:
        await db.dispose()
    return name


@pytest.fixture(scope="session")
def database_pool(pg_server, template_db):
    """Copies of the template made ahead of need (tests/database_pool.py)."""
    from tests.database_pool import DatabasePool

    pool = DatabasePool(pg_server, template_db)
    yield pool
    pool.close()


@pytest.fixture
def db_url(pg_server, database_pool):
    """A fresh database, a copy of the template, dropped after the test."""
    name = database_pool.take()
    yield pg_server.get_uri(name)
    database_pool.give_back(name)


@pytest.fixture(scope="session")
async def knowledge(pg_server, template_db):
    """The knowledge index, loaded once (every test database has the same corpus), with the
    corpus's domain neighbourhoods from the cache the `wander` processes share (computing
    them is a product of the corpus with itself: 8-15 s of CPU in every worker otherwise);
    kept there at the end if this process computed them."""
    from wander.adapters.kb import reach_cache
    from wander.adapters.postgres.database import make_engine
    from wander.adapters.postgres.kb_repository import KbRepository
    from wander.bootstrap.wiring import load_knowledge

    cache = Path(os.environ["WANDER_CACHE_DIR"])
    db = make_engine(pg_server.get_uri(template_db))
    try:
        index = await load_knowledge(KbRepository(db), cache)
    finally:
        await db.dispose()
    yield index
    reach_cache.keep(index, cache)


@pytest.fixture
def settings(db_url, tmp_path):
    from wander.bootstrap.settings import load_settings

    return load_settings({"WANDER_DATABASE_URL": db_url, "WANDER_HOME": str(tmp_path / "home")})


@pytest.fixture
async def app(settings, embedder, knowledge):
    from wander.bootstrap.wiring import open_app

    async with open_app(settings, embedder=embedder, knowledge=knowledge) as a:
        yield a


@pytest.fixture
def cli_env(db_url, tmp_path) -> dict[str, str]:
    """Environment for running the real `wander` command against the test database."""
    env = dict(os.environ)
    env.update({"WANDER_DATABASE_URL": db_url, "WANDER_HOME": str(tmp_path / "home"), "COLUMNS": "200"})
    return env
