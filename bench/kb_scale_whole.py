"""The whole take_step for bench_kb_scale (its `whole_*` figures), through the engine
(bootstrap.wiring.offline_engine: the offline dweller and ruminator, resonance,
crystallization with its gate, the in-memory store), after the candidate figures, in the
same process: WHOLE_PAIRS wanders of --whole-steps steps each (seed and attractor texts
embedded by MiniLM, as a person's are). Its CPU time is the process's (the insight's
embedding runs on torch's threads); a step's time counts every step, those that
crystallize (`whole_crystals` of them) among them, and the first step's one-time work (the
corpus's label shares, the sense index where the corpus has one). `whole_create` is the
first wander's creation (its grounding reads the corpus's vocabulary once), `whole_memory`
the RSS after the steps, MiniLM's model in it.
"""

from __future__ import annotations

import asyncio
import os
import time

import numpy as np

WHOLE_PAIRS = (
    ("coral reef", "urban planning"),
    ("jazz improvisation", "software architecture"),
    ("volcano", "economic forecasting"),
)


def whole_steps(kb, steps: int) -> dict[str, float]:
    """The whole take_step (see the module's docstring), WHOLE_PAIRS wanders of STEPS each."""
    from wander.adapters.embed.minilm import MiniLMEmbedder
    from wander.bootstrap.wiring import offline_engine
    from wander.core.engine.service import NewWander

    embedder = MiniLMEmbedder()
    embedder.embed(["warm"])  # the model loaded: not a step's time
    engine, store, clock = offline_engine(kb, embedder, project_id="bench")
    times, cpu, creates = [], [], []
    crystals = 0

    async def run() -> None:
        nonlocal crystals
        for number, (seed, attractor) in enumerate(WHOLE_PAIRS):
            t = time.perf_counter()
            session = await engine.create(
                NewWander(
                    seed_concept=seed,
                    attractor=attractor,
                    max_steps=steps,
                    random_seed=number + 1,
                    human_checkpoint_frequency=0,
                )
            )
            creates.append(time.perf_counter() - t)
            walk = await engine.load_walk(session.id)
            for _ in range(steps):
                if walk.session.status != "active":
                    break
                clock.advance(seconds=30)
                t, c = time.perf_counter(), time.process_time()
                r = await engine.step(walk)
                times.append((time.perf_counter() - t) * 1000)
                cpu.append((time.process_time() - c) * 1000)
                crystals += r.crystal is not None

    asyncio.run(run())
    return {
        "whole_step_p50": float(np.percentile(times, 50)),
        "whole_step_p95": float(np.percentile(times, 95)),
        "whole_step_max": float(np.max(times)),
        "whole_step_cpu_p50": float(np.percentile(cpu, 50)),
        "whole_step_cpu_p95": float(np.percentile(cpu, 95)),
        "whole_steps": float(len(times)),
        "whole_crystals": float(crystals),
        "whole_create": creates[0],
        "whole_create_next": float(np.median(creates[1:])) if len(creates) > 1 else creates[0],
        "whole_memory": rss_mb(),
        "whole_load_average": os.getloadavg()[0],
    }


def rss_mb() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
