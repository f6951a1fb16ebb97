"""Load: many WebSocket clients on one wander, and many wanders at once.

- WebSocket fan-out: 20, then 100 clients on one wander that runs with no delay between
  steps; for every event and every client, the time from the event's commit to the client
  having parsed the frame (the commit time is the event's own `ts`, stamped by Postgres as
  the row is written, as in bench_ws_latency.py). The server (real uvicorn, in-process bus)
  and the wander run in this process, the clients in a process of their own, all of them in
  it (as browsers are elsewhere); one machine, so both ends read one clock. Target (issue
  15): p95 <= 100 ms at 20 clients on two cores.
- Concurrent wanders: 1, 5 and 10 wanders started together on the in-process runner
  (offline dweller, embedded Postgres); steps committed in all / wall time from the start
  to the last completion.

Prints `name: value unit` lines. Uses the embedded Postgres in the data folder of
WANDER_HOME (a database of its own, `bench_load_tpl`, holds the corpus; each phase runs in a
fresh copy). The corpus embeddings come from the machine's corpus vector cache
(wander.adapters.kb.vector_cache) when it has them (else they are computed once, a minute or two).
Run: WANDER_HOME=/tmp/some-home .venv/bin/python bench/bench_load.py
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import statistics
import sys
import time
from contextlib import asynccontextmanager

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.pop("WANDER_NATS_URL", None)
os.environ.pop("WANDER_DATABASE_URL", None)  # the embedded server: phases copy a template there

import httpx  # noqa: E402
import uvicorn  # noqa: E402
from bench_ws_latency import free_port, percentile  # noqa: E402

from wander.adapters.postgres.database import embedded_server, ensure_embedded_database  # noqa: E402
from wander.adapters.postgres.kb_repository import KbRepository  # noqa: E402
from wander.bootstrap.settings import load_settings  # noqa: E402
from wander.bootstrap.wiring import NoProgress, ensure_corpus, load_knowledge, open_app, open_database  # noqa: E402
from wander.core.engine.runner import Runner  # noqa: E402
from wander.core.engine.service import NewWander  # noqa: E402
from wander.faces.api.app import ApiSettings, create_app  # noqa: E402

TEMPLATE = "bench_load_tpl"
FANOUT_CLIENTS = (20, 100)
FANOUT_STEPS = int(os.environ.get("WANDER_BENCH_LOAD_WS_STEPS", "30"))
TARGET_P95_MS = 100.0
WANDER_COUNTS = (1, 5, 10)
WANDER_STEPS = int(os.environ.get("WANDER_BENCH_LOAD_STEPS", "20"))
SEEDS = ("harbor", "lantern", "orchard", "glacier", "market", "tide pools", "volcano", "library", "compass", "beehive")


async def prepare(home_settings, embedder):
    """The template database with the corpus in it; the knowledge index read from it."""
    url = ensure_embedded_database(home_settings.pg_dir, TEMPLATE)
    db = await open_database(load_settings({"WANDER_DATABASE_URL": url, "WANDER_HOME": str(home_settings.home)}))
    try:
        await ensure_corpus(KbRepository(db), embedder, NoProgress(), home_settings.vector_cache_dir)
        return await load_knowledge(KbRepository(db))
    finally:
        await db.dispose()


@asynccontextmanager
async def fresh_app(home_settings, name: str, embedder, knowledge):
    server = embedded_server(home_settings.pg_dir)
    # A previous run's copy may still have connections (an interrupted run): FORCE.
    server.psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE);")
    server.psql(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE};")
    settings = load_settings({"WANDER_DATABASE_URL": server.get_uri(name), "WANDER_HOME": str(home_settings.home)})
    try:
        async with open_app(settings, embedder=embedder, knowledge=knowledge) as app:
            yield app
    finally:
        server.psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE);")


# ---- WebSocket fan-out ------------------------------------------------------------------

# N clients in one process of their own. Each waits for caught_up, then records, for every
# event, the receipt time minus the event's commit time, until the completion event; and
# whether its seqs ran without a gap or duplicate.
CLIENTS = """
import asyncio, json, sys, time
from datetime import datetime
import websockets

async def main(url, n):
    sockets = [await websockets.connect(url, max_size=None) for _ in range(n)]
    for ws in sockets:
        while json.loads(await ws.recv())["type"] != "caught_up":
            pass
    print("ready", flush=True)

    async def read(ws):
        latencies, seqs = [], []
        while True:
            frame = json.loads(await ws.recv())
            received = time.time()
            if frame["type"] != "event":
                continue
            e = frame["event"]
            latencies.append((received - datetime.fromisoformat(e["ts"]).timestamp()) * 1000)
            seqs.append(e["seq"])
            if e["subject"] == "wander.session.completed":
                return latencies, seqs == list(range(seqs[0], seqs[0] + len(seqs)))

    results = await asyncio.gather(*(read(ws) for ws in sockets))
    for ws in sockets:
        await ws.close()
    print(json.dumps({"latencies": [x for lat, _ in results for x in lat], "gapless": all(g for _, g in results),
                      "events": [len(lat) for lat, _ in results]}), flush=True)

asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


async def fanout_once(app, base: str, client: httpx.AsyncClient, n: int, steps: int, seed: int) -> dict:
    r = await client.post(
        "/api/v1/wander/sessions",
        json={
            "seed_concept": "information asymmetry",
            "max_steps": steps,
            "random_seed": seed,
            "human_checkpoint_frequency": 0,
        },
    )
    r.raise_for_status()
    s = r.json()
    url = f"ws://{base}/ws/sessions/{s['id']}?after_seq={s['last_event_seq']}"
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", CLIENTS, url, str(n), stdout=asyncio.subprocess.PIPE, limit=1 << 26
    )
    assert proc.stdout is not None
    try:
        if (await asyncio.wait_for(proc.stdout.readline(), 120)).strip() != b"ready":
            raise SystemExit("the WebSocket clients did not start")
        await app.engine.run(s["id"], steps)  # no delay between steps
        return json.loads(await asyncio.wait_for(proc.stdout.readline(), 120))
    finally:
        if proc.returncode is None:
            proc.kill()
        await proc.wait()


async def fanout(home_settings, embedder, knowledge, n: int) -> float:
    async with fresh_app(home_settings, f"bench_load_ws{n}", embedder, knowledge) as app:
        port = free_port()
        server = uvicorn.Server(
            uvicorn.Config(
                create_app(api=ApiSettings(resume_interrupted=False), wired=app),
                host="127.0.0.1",
                port=port,
                log_level="warning",
            )
        )
        task = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.05)
        base = f"127.0.0.1:{port}"
        try:
            async with httpx.AsyncClient(base_url=f"http://{base}", timeout=60) as client:
                await fanout_once(app, base, client, n, 5, 1)  # warm-up: first queries, socket paths
                got = await fanout_once(app, base, client, n, FANOUT_STEPS, 11)
        finally:
            server.should_exit = True
            await task
    ms = got["latencies"]
    per_client = got["events"]
    if not got["gapless"] or len(set(per_client)) != 1:
        print(f"ws_fanout_gaps_{n}_clients: yes (events per client {sorted(set(per_client))}) ")
    p95 = percentile(ms, 0.95)
    print(
        f"ws_fanout_p50_ms_{n}_clients: {statistics.median(ms):.1f} ms "
        f"({per_client[0]} events x {n} clients, {FANOUT_STEPS} steps back to back)",
        flush=True,
    )
    print(f"ws_fanout_p95_ms_{n}_clients: {p95:.1f} ms", flush=True)
    return p95


# ---- many wanders at once ---------------------------------------------------------------


async def concurrent(home_settings, embedder, knowledge, count: int) -> None:
    async with fresh_app(home_settings, f"bench_load_w{count}", embedder, knowledge) as app:
        runner = Runner(app.engine)
        warm = await app.engine.create(NewWander(seed_concept="warm up", max_steps=3, human_checkpoint_frequency=0))
        await app.engine.run(warm.id, 3)  # first queries and model calls, untimed
        sids = [
            (
                await app.engine.create(
                    NewWander(
                        seed_concept=SEEDS[i % len(SEEDS)],
                        max_steps=WANDER_STEPS,
                        random_seed=i,
                        human_checkpoint_frequency=0,
                    )
                )
            ).id
            for i in range(count)
        ]
        t = time.perf_counter()
        tasks = [await runner.start(sid, WANDER_STEPS) for sid in sids]
        outcomes = await asyncio.gather(*tasks)
        wall = time.perf_counter() - t
    steps = sum(o.steps_completed for o in outcomes)
    print(
        f"concurrent_steps_per_s_{count}_wanders: {steps / wall:.1f} steps/s ({steps} steps in {wall:.1f} s)",
        flush=True,
    )


async def main() -> None:
    from wander.adapters.embed.minilm import MiniLMEmbedder

    for noisy in ("httpx", "alembic"):  # request and migration lines between the figures
        logging.getLogger(noisy).setLevel(logging.WARNING)
    home_settings = load_settings()
    home_settings.home.mkdir(parents=True, exist_ok=True)
    embedder = MiniLMEmbedder()
    embedder.embed(["warm up"])
    knowledge = await prepare(home_settings, embedder)
    p95 = {}
    for n in FANOUT_CLIENTS:
        p95[n] = await fanout(home_settings, embedder, knowledge, n)
    met = "met" if p95[20] <= TARGET_P95_MS else "missed"
    print(f"ws_fanout_p95_target_20_clients: {met} ({p95[20]:.1f} ms vs {TARGET_P95_MS:.0f} ms)")
    for count in WANDER_COUNTS:
        await concurrent(home_settings, embedder, knowledge, count)
    load1, load5, _ = os.getloadavg()
    print(f"load_average_1m: {load1:.2f} ({os.cpu_count()} cores; 5m {load5:.2f})")


if __name__ == "__main__":
    asyncio.run(main())
