"""Mind map benchmark (VISLZR at scale). Prints `name: value unit` lines only.

Each size of map (default 5,000 and 20,000 loci, in one run) is measured in turn and every
figure is printed for each size, side by side, its name ending in _at_<loci>.
A session of N loci is written straight into the store as the events a walk
of N steps emits (step.completed per step, candidates on the last), the API is served
in-process, and real Chromium (Playwright, bench/mindmap_probe.mjs) opens its map:

- mindmap_catchup_ms: navigation until every locus is in the map's graph and drawn;
- mindmap_catchup_browser_cpu_ms: the CPU time of the browser's processes meanwhile (page,
  layout worker, network; Linux): steadier than the wall time on a loaded machine;
- mindmap_pan_ms_per_frame_p50/p95: frame intervals while the whole map is dragged;
- mindmap_pan_near_ms_per_frame_p50/p95: the same close in (zoom 0.46, just past the zoom
  labels come at, where the canvas a large map's loci are drawn on draws the most); _mid_ at
  0.35, where they were 2,000 React Flow nodes before; _sweep_ at 0.46 with long drags that
  make the canvas redraw. Each with its zoom, nodes in the DOM and the canvas's redraws;
- event_to_dom_ms_p50/p95: for live steps published afterwards, from the WebSocket frame
  reaching the page to the new locus in the DOM.

- mindmap_heap_mb: the page's JavaScript heap in use once caught up (after a collection);
  mindmap_heap_after_live_mb: the same after the live steps.

Targets (and for 20,000 loci): pan p95 <= 33 ms/frame, catch-up <= 3 s (4 s at
20,000), event to DOM p95 <= 100 ms, heap <= 300 MB.
Run: .venv/bin/python bench/bench_mindmap.py [N ...]  (WANDER_HOME: a home with the corpus
embedded, e.g. the e2e home; frontend/dist must be built; MINDMAP_LIVE: live steps, 100).

--during-run (N defaults to 1,000): a run streams at full speed while the whole map is
dragged: a step every MINDMAP_STREAM_MS (20 ms: the engine's step on this machine), each
published on its own as the runner does, for as long as the pan lasts.
- mindmap_pan_during_run_ms_per_frame_p50/p95: frame intervals of that pan (target p95
  <= 50 ms), with the steps per second that streamed meanwhile and the loci at the end.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import uvicorn

from shared_schemas.common import ResidueOut
from shared_schemas.events import StepCompletedPayload
from wander.bootstrap.settings import load_settings
from wander.bootstrap.wiring import open_app
from wander.core.domain.models import EventDraft, Locus, SourceType, new_id
from wander.core.engine import events as ev
from wander.core.engine.service import NewWander
from wander.faces.api.app import ApiSettings, create_app

ROOT = Path(__file__).resolve().parents[1]
DURING_RUN = "--during-run" in sys.argv
ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
# the sizes of map measured, in one run, each figure's name ending in _at_<loci> (the scale
# targets: 5,000 and 20,000 side by side); --during-run measures one size, 1,000 by default
SIZES = [int(a) for a in ARGS] or ([1000] if DURING_RUN else [5000, 20000])
# --during-run: one step every this many ms while the pan lasts (the engine's step here)
STREAM_MS = float(os.environ.get("MINDMAP_STREAM_MS", "20"))
STREAM_MAX = 3000  # steps prepared for the stream (a pan of three drags takes some seconds)
# live steps published: 100, so that the p95 is a percentile (of 20 it was the 19th value)
LIVE = int(os.environ.get("MINDMAP_LIVE", "100"))
DOMAINS = [
    "cognition",
    "act",
    "artifact",
    "communication",
    "possession",
    "group",
    "state",
    "attribute",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fake_locus(sid: str, i: int, rng: np.random.Generator) -> Locus:
    v = rng.standard_normal(384).astype(np.float32)
    return Locus(
        id=new_id(),
        session_id=sid,
        concept=f"concept {i}",
        embedding=v / np.linalg.norm(v),
        source_type=SourceType.ADJACENT,
        domains=[DOMAINS[i % len(DOMAINS)]],
        visit_count=1,
    )


def step_draft(sid: str, step: int, a: Locus, b: Locus) -> EventDraft:
    residue = ResidueOut(
        connection="c",
        tension="t",
        bridge="b",
        surprise="s",
        possibility="p",
        themes=[],
        interestingness=0.5,
        actionability=0.5,
        model_used="bench",
    )
    return ev.draft(
        StepCompletedPayload(
            session_id=sid,
            step_number=step,
            from_locus=ev.locus_summary(a),
            to_locus=ev.locus_summary(b),
            trace_id=new_id(),
            residue=residue,
            selection_reason="bench",
            resonances_detected=0,
        )
    )


UNITS = {
    "_frame_samples": "frames",
    "_samples": "events",
    "_zoom": "x",
    "_in_dom": "nodes",
    "_redraws": "draws",
    "_steps_per_s": "steps/s",
    "_loci": "loci",
    "_mb": "MB",
}


def figure_line(name: str, value: float) -> str:
    base = name.split("_at_")[0]  # (a size's suffix: the unit is the figure's)
    unit = next((u for end, u in UNITS.items() if base.endswith(end)), "ms")
    return f"{name}: {value:.{3 if unit == 'x' else 1}f} {unit}"


async def main() -> None:
    if DURING_RUN:
        for name, value in (await measure(SIZES[0])).items():
            print(figure_line(name, value), flush=True)
        return
    # each size in turn, its figures printed together at the end, size beside size; a size
    # whose probe failed partway still gives the figures it had
    figures = {n: await measure(n) for n in SIZES}
    names = list(dict.fromkeys(name for f in figures.values() for name in f))
    for name in names:
        for n in SIZES:
            if name in figures[n]:
                print(figure_line(f"{name}_at_{n}", figures[n][name]), flush=True)


async def measure(N: int) -> dict[str, float]:
    """The probe's figures over a map of N loci (its own session, deleted afterwards)."""
    figures: dict[str, float] = {}
    async with open_app(load_settings()) as app:
        session = await app.engine.create(
            NewWander(
                seed_concept="information asymmetry",
                max_steps=10000,
                human_checkpoint_frequency=0,
            )
        )
        sid = session.id
        rng = np.random.default_rng(0)
        walk: list[Locus] = [(await app.store.loci(sid))[0]]
        extra = STREAM_MAX if DURING_RUN else LIVE
        for i in range(1, N + 1 + extra):
            walk.append(fake_locus(sid, i, rng))
        prev = walk[0]
        chain: list[tuple[Locus, Locus]] = []
        for i in range(1, len(walk)):
            # mostly onward, sometimes on from an earlier locus: a tree, like a real walk
            src = prev if rng.random() < 0.8 else walk[int(rng.integers(0, i))]
            chain.append((src, walk[i]))
            prev = walk[i]
        batch = 500
        for start in range(0, N, batch):
            drafts = [step_draft(sid, k + 1, *chain[k]) for k in range(start, min(N, start + batch))]
            await app.store.add_locus(sid, chain[start][1], drafts)  # one row per batch is enough for the map
        port = free_port()
        server = uvicorn.Server(
            uvicorn.Config(
                create_app(api=ApiSettings(resume_interrupted=False), wired=app),
                host="127.0.0.1",
                port=port,
                log_level="warning",
                lifespan="on",
            )
        )
        task = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.05)
        probe = await asyncio.create_subprocess_exec(
            "node",
            str(ROOT / "bench" / "mindmap_probe.mjs"),
            f"http://127.0.0.1:{port}",
            sid,
            str(N),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=str(ROOT),
            env={**os.environ, "MINDMAP_MODE": "during_run"} if DURING_RUN else None,
        )
        assert probe.stdout is not None and probe.stdin is not None
        while True:
            line = (await probe.stdout.readline()).decode()
            if not line:
                break
            if line.startswith("READY-STREAM"):
                stream = asyncio.create_task(stream_steps(app, sid, chain, N))
            elif line.startswith("STOP-STREAM"):
                stream.cancel()
                await asyncio.gather(stream, return_exceptions=True)
                probe.stdin.write(b"stopped\n")
                await probe.stdin.drain()
            elif line.startswith("READY-LIVE"):
                # live steps, one at a time, published as the runner would
                for k in range(N, N + LIVE):
                    events = await app.store.add_locus(sid, chain[k][1], [step_draft(sid, k + 1, *chain[k])])
                    await app.bus.publish(events)
                    await asyncio.sleep(0.3)
                probe.stdin.write(b"done\n")
                await probe.stdin.drain()
            elif line.startswith("{"):
                figures.update(json.loads(line))
        await probe.wait()
        server.should_exit = True
        await task
        await app.store.delete_session(sid)
    return figures


async def stream_steps(app, sid: str, chain: list[tuple[Locus, Locus]], N: int) -> None:
    """Steps N+1... on the clock, one every STREAM_MS, until cancelled: the steps due are
    written in one go (a write here costs more than the engine's step) and published as the
    runner publishes them, each step's event on its own."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    k = N
    while k < N + STREAM_MAX:
        due = min(N + STREAM_MAX, N + 1 + int((loop.time() - start) * 1000 / STREAM_MS))
        if due > k:
            drafts = [step_draft(sid, j + 1, *chain[j]) for j in range(k, due)]
            events = await app.store.add_locus(sid, chain[due - 1][1], drafts)
            for e in events:
                await app.bus.publish([e])
            k = due
        await asyncio.sleep(STREAM_MS / 1000)


if __name__ == "__main__":
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    asyncio.run(main())
