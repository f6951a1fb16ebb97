"""The engine records the Wheeler CA's outcome on every step's trace: the CA state and the
rotation retry's outcome (CONVERGED, or FAILED_ALL_ROTATIONS when no angle settled), with
the uncertainty adjustment it made (the real engine, offline dweller, in-memory store)."""

from __future__ import annotations

import uuid

import numpy as np

from wander.adapters.bus.inprocess import InProcessBus
from wander.adapters.ca import rotation
from wander.adapters.ca.adapter import WheelerSignals
from wander.adapters.ca.kernel import OSCILLATING, Evolution
from wander.adapters.llm.offline import OfflineDweller
from wander.adapters.memory.inmemory_store import InMemoryStore
from wander.core.engine.clock import ManualClock
from wander.core.engine.service import NewWander, WanderEngine


def with_ca(knowledge, embedder) -> tuple[WanderEngine, InMemoryStore]:
    store = InMemoryStore()
    engine = WanderEngine(
        store=store,  # type: ignore[arg-type]
        knowledge=knowledge,
        embedder=embedder,
        dweller=OfflineDweller(knowledge),
        bus=InProcessBus(),
        clock=ManualClock(),
        project_id=f"ca-{uuid.uuid4()}",
        ca=WheelerSignals(),
    )
    return engine, store


async def walk(engine, store, steps: int) -> list[dict]:
    new = NewWander(
        seed_concept="information asymmetry", max_steps=steps + 5, random_seed=3, human_checkpoint_frequency=0
    )
    session = await engine.create(new)
    w = await engine.load_walk(session.id)
    for _ in range(steps):
        await engine.step(w)
    return [t.selection_scores["ca"] for t in store.traces[session.id]]


async def test_each_trace_says_the_ca_settled(knowledge, embedder):
    engine, store = with_ca(knowledge, embedder)
    ca = await walk(engine, store, 3)
    assert len(ca) == 3
    assert all(c["state"] == "CONVERGED" and c["outcome"] == "CONVERGED" for c in ca), ca
    assert all(c["adjustment"] == -0.1 and c["needs_rephrasing"] is False for c in ca)


async def test_a_concept_no_rotation_settles_is_traced_as_failed_all_rotations(knowledge, embedder, monkeypatch):
    def oscillating(frames, keep_history=False, **kw):
        return [Evolution(np.asarray(f), OSCILLATING, 60, period=2, oscillating_cells=4096) for f in np.asarray(frames)]

    monkeypatch.setattr(rotation, "evolve_batch", oscillating)
    engine, store = with_ca(knowledge, embedder)
    ca = await walk(engine, store, 2)
    assert [c["outcome"] for c in ca] == ["FAILED_ALL_ROTATIONS"] * 2
    assert all(c["state"] == OSCILLATING and c["adjustment"] == 0.15 for c in ca)
