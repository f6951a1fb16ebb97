"""Live latency: from a step's commit to the WebSocket client receiving its events.

A real uvicorn server in this process (so both ends read one clock), a real websockets
client, an offline wander paced at 200 ms a step and then run back to back. The time of
each event's commit is taken when the engine publishes it (right after the commit); the
receipt time when the client has parsed the frame. Prints `name: value unit` lines, and
the load average, since the figure depends on what else the machine runs.

Uses the data folder of WANDER_HOME (the corpus is embedded there on first use)."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import statistics
import time

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")

import httpx
import uvicorn
import websockets
from wander.api.app import ApiSettings, create_app
from wander.config import load_settings
from wander.wiring import open_app

STEPS = int(os.environ.get("WANDER_BENCH_WS_STEPS", "40"))


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


async def measure(
    base: str, client: httpx.AsyncClient, committed: dict, delay_ms: int
) -> list[float]:
    s = (await client.post("/api/v1/wander/sessions", json={
        "seed_concept": "information asymmetry", "max_steps": STEPS, "random_seed": 11,
        "human_checkpoint_frequency": 0})).json()  # fmt: skip
    sid, latencies = s["id"], []
    async with websockets.connect(
        f"ws://{base}/ws/sessions/{sid}?after_seq={s['last_event_seq']}"
    ) as ws:
        while json.loads(await ws.recv())["type"] != "caught_up":
            pass
        await client.post(
            f"/api/v1/wander/sessions/{sid}/wander",
            json={"n_steps": STEPS, "step_delay_ms": delay_ms},
        )
        while True:
            frame = json.loads(await ws.recv())
            now = time.perf_counter()
            if frame["type"] != "event":
                continue
            e = frame["event"]
            latencies.append((now - committed[(sid, e["seq"])]) * 1000)
            if e["subject"] == "wander.session.completed":
                return latencies


async def main() -> None:
    committed: dict[tuple[str, int], float] = {}
    async with open_app(load_settings()) as app:
        publish = app.bus.publish

        async def timed_publish(events):
            t = time.perf_counter()
            for e in events:
                committed[(e.session_id, e.seq)] = t
            await publish(events)

        app.bus.publish = timed_publish  # type: ignore[method-assign]
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        server = uvicorn.Server(uvicorn.Config(create_app(api=ApiSettings(resume_interrupted=False), wired=app),
                                               host="127.0.0.1", port=port, log_level="warning"))  # fmt: skip
        task = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.05)
        base = f"127.0.0.1:{port}"
        try:
            async with httpx.AsyncClient(
                base_url=f"http://{base}", timeout=60
            ) as client:
                for name, delay in (("paced_200ms", 200), ("back_to_back", 0)):
                    ms = await measure(base, client, committed, delay)
                    print(
                        f"ws_commit_to_socket_ms_p50: {statistics.median(ms):.1f} ms ({name}, {len(ms)} events)"
                    )
                    print(
                        f"ws_commit_to_socket_ms_p95: {percentile(ms, 0.95):.1f} ms ({name})"
                    )
        finally:
            server.should_exit = True
            await task
    load1, load5, _ = os.getloadavg()
    print(f"load_average_1m: {load1:.2f} ({os.cpu_count()} cores; 5m {load5:.2f})")


if __name__ == "__main__":
    asyncio.run(main())
