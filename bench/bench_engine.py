"""Engine benchmark: per-step overhead of a 200-step offline wander over the full corpus,
knowledge-base build time, and embedding throughput. Prints `name: value unit` lines.

A step's time includes everything the engine does for it: candidate generation and
scoring over the whole knowledge base, softmax selection, the offline dweller, the
Postgres transaction (trace, residue, loci, session, events) and publishing the events.
It excludes loading the embedding model and the knowledge index (once per process)."""

from __future__ import annotations

import asyncio
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from wander.adapters.embed.minilm import MiniLMEmbedder  # noqa: E402
from wander.adapters.kb import corpus  # noqa: E402
from wander.adapters.postgres.database import ensure_embedded_database  # noqa: E402
from wander.adapters.postgres.kb_repository import KbRepository  # noqa: E402
from wander.bootstrap.settings import load_settings  # noqa: E402
from wander.bootstrap.wiring import NoProgress, ensure_corpus, open_app, open_database  # noqa: E402
from wander.core.engine.service import NewWander  # noqa: E402

STEPS = 1000  # the step-cost figure's length; the first 200 steps give the foundation's figure
# The first pair gives the historical figures; the others show they are not one walk's luck.
PAIRS = [
    ("information asymmetry", "economic opportunity in financial intelligence"),
    ("coral reef", "architecture that breathes"),
    ("jazz improvisation", "teaching mathematics"),
]


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


async def main() -> None:
    home = Path(tempfile.gettempdir()) / "wander-bench"
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir(parents=True)
    url = ensure_embedded_database(home / "pg", "bench")
    settings = load_settings({"WANDER_DATABASE_URL": url, "WANDER_HOME": str(home)})
    embedder = MiniLMEmbedder()
    embedder.embed(["warm up"])  # model load is not part of any figure

    texts = [c.embed_text for c in corpus.load_corpus()[:2000]]
    t = time.perf_counter()
    embedder.embed(texts)
    print(f"embeddings_per_s: {len(texts) / (time.perf_counter() - t):.0f} texts/s")

    db = await open_database(settings)
    t = time.perf_counter()
    await ensure_corpus(KbRepository(db), embedder, NoProgress())
    print(f"kb_build_time: {time.perf_counter() - t:.1f} s ({len(corpus.load_corpus())} concepts, embed + insert)")
    await db.dispose()

    async with open_app(settings, embedder=embedder) as app:
        t = time.perf_counter()
        await open_app_knowledge_reload(app)
        print(f"kb_index_load_time: {time.perf_counter() - t:.2f} s")
        await print_machine_reference(app)
        runs = [await _walk(app, *pair, random_seed=i + 1) for i, pair in enumerate(PAIRS)]
        await print_machine_reference(app, "_after")
    times, crystal_steps, crystals, resonances = runs[0]
    first = times[:200]
    p50 = statistics.median(first)
    print(f"step_overhead_p50_200_steps: {p50:.1f} ms")
    print(f"step_overhead_p95_200_steps: {percentile(first, 0.95):.1f} ms")
    print(f"step_overhead_p50_1000_steps: {statistics.median(times):.1f} ms")
    print(f"step_overhead_p95_1000_steps: {percentile(times, 0.95):.1f} ms")
    print(f"step_overhead_max_1000_steps: {max(times):.1f} ms")
    # the targets: p50 <= 20 ms and p95 <= 60 ms at 1,000 steps, flat in the walk's length
    print(f"step_overhead_p50_vs_target_20ms: {statistics.median(times) / 20:.2f} ratio")
    print(f"step_overhead_p95_vs_target_60ms: {percentile(times, 0.95) / 60:.2f} ratio")
    last = times[-200:]
    print(f"step_overhead_p50_last_200_over_first_200: {statistics.median(last) / p50:.2f} ratio (1 is flat)")
    if crystal_steps:
        print(f"crystallizing_step_p50: {statistics.median(crystal_steps):.1f} ms")
    print(f"crystals_formed_1000_steps: {len(crystals)} crystals")
    print(f"resonances_confirmed_1000_steps: {sum(r.status == 'confirmed' for r in resonances)} resonances")
    # The other walks of the same project (its resonances accumulate, as in real use).
    for (seed, _), (other, *_) in zip(PAIRS[1:], runs[1:]):
        name = seed.replace(" ", "_")
        print(f"step_overhead_p50_1000_steps_{name}: {statistics.median(other):.1f} ms")
        print(f"step_overhead_p95_1000_steps_{name}: {percentile(other, 0.95):.1f} ms")
    print(f"step_overhead_p50_1000_steps_worst_of_{len(runs)}: {max(statistics.median(r[0]) for r in runs):.1f} ms")


async def _walk(app, seed: str, attractor: str, random_seed: int):
    """One STEPS-step wander: each step's time, those of crystallizing steps, and what formed."""
    session = await app.engine.create(
        NewWander(
            seed_concept=seed,
            attractor=attractor,
            max_steps=STEPS,
            random_seed=random_seed,
            human_checkpoint_frequency=0,
        )
    )
    walk = await app.engine.load_walk(session.id)
    times, crystal_steps = [], []
    for _ in range(STEPS):
        if walk.session.status != "active":  # a breaker paused it: note it and go on
            print(f"# paused at step {walk.session.step_count}: {walk.session.stopped_reason}")
            await app.engine.set_status(session.id, "active")
            walk = await app.engine.load_walk(session.id)
        t = time.perf_counter()
        result = await app.engine.step(walk)
        times.append((time.perf_counter() - t) * 1000)
        if result.crystal is not None:
            crystal_steps.append(times[-1])
    crystals = await app.store.find_crystals(session_id=session.id, status=None)
    resonances = await app.store.find_resonances(session_id=session.id)
    return times, crystal_steps, crystals, resonances


async def print_machine_reference(app, when: str = "") -> None:
    """Two fixed workloads that a step is made of, timed on this machine now: one similarity
    pass over the corpus (numpy) and one Postgres round trip. Shared virtual machines vary in
    speed from hour to hour; these say how fast this one was when the steps were timed."""
    from sqlalchemy import text

    matrix = np.random.default_rng(0).standard_normal((len(corpus.load_corpus()), 384)).astype(np.float32)
    vector = matrix[0].copy()
    passes = []
    for _ in range(200):
        t = time.perf_counter()
        matrix @ vector
        passes.append((time.perf_counter() - t) * 1000)
    trips = []
    async with app.db.connect() as conn:
        for _ in range(200):
            t = time.perf_counter()
            await conn.execute(text("SELECT 1"))
            trips.append((time.perf_counter() - t) * 1000)
    print(f"machine_reference_similarity_pass{when}: {statistics.median(passes):.2f} ms")
    print(f"machine_reference_postgres_round_trip{when}: {statistics.median(trips):.3f} ms")


async def open_app_knowledge_reload(app) -> None:
    from wander.bootstrap.wiring import load_knowledge

    await load_knowledge(app.kb)


if __name__ == "__main__":
    asyncio.run(main())
