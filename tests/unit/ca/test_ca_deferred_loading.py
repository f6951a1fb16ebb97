"""A `wander` command's process defers loading the CA kernel's numba passes until its CA work
pays for it: default evolutions take the NumPy passes meanwhile, with the same results."""

from __future__ import annotations

import numpy as np
import pytest

from wander.adapters.ca import kernel
from wander.adapters.ca.seed import hash_frames

pytest.importorskip("numba")


@pytest.fixture
def deferring(monkeypatch):
    """A process that defers loading and has not loaded the fused passes yet."""
    monkeypatch.setattr(kernel.fused, "_deferred", [])
    monkeypatch.setattr(kernel.fused, "_fused_state", [])
    kernel.fused.defer_loading()


def same(a, b) -> bool:
    return (a.state, a.ticks, a.period) == (b.state, b.ticks, b.period) and np.array_equal(a.attractor, b.attractor)


def test_small_work_takes_the_numpy_passes_with_the_same_results(deferring, monkeypatch):
    frames = hash_frames(["deferred a", "deferred b", "deferred c"])
    expected = kernel.evolve_batch(frames, xp=np, fused=False)
    monkeypatch.setattr(kernel.fused, "evolve_chunk_fused", lambda *a: pytest.fail("fused path taken"))
    before = kernel.fused._deferred[0]
    got = kernel.evolve_batch(frames, xp=np)
    assert all(same(a, b) for a, b in zip(got, expected, strict=True))
    assert kernel.fused._fused_state == []  # numba's passes not loaded
    assert kernel.fused._deferred[0] - before == sum(e.ticks for e in got) * 64 * 64
    kernel.run_ticks(frames, 5, xp=np)
    assert kernel.fused._fused_state == []


def test_once_the_work_pays_for_it_the_fused_passes_load(deferring, monkeypatch):
    monkeypatch.setattr(kernel.fused, "LOAD_AFTER_CELL_TICKS", 4 * 64 * 64 * 50)
    frames = hash_frames(["load a", "load b", "load c"])
    expected = kernel.evolve_batch(frames, xp=np, fused=False)
    kernel.evolve_batch(frames[:1], xp=np)  # one frame's estimate is under the bar
    assert kernel.fused._fused_state == []
    calls = []
    real = kernel.fused.evolve_chunk_fused
    monkeypatch.setattr(kernel.fused, "evolve_chunk_fused", lambda *a: calls.append(1) or real(*a))
    got = kernel.evolve_batch(frames, xp=np)  # the tally plus three frames' estimate is over it
    assert calls == [1] and kernel.fused._fused_state != []
    assert all(same(a, b) for a, b in zip(got, expected, strict=True))


def test_a_large_batch_loads_them_at_once(deferring):
    frames = hash_frames([f"large {i}" for i in range(60)])
    assert kernel.fused.fused_for(frames, np, None) is not None


def test_asking_for_them_loads_them_at_once(deferring):
    frames = hash_frames(["asked"])
    assert kernel.fused.fused_for(frames, np, True) is not None
    kernel.fused._fused_state.clear()
    assert kernel.fused_available()
