"""CuPy and NumPy evolve the same frames to the same outcomes (issue 17, item 12).

Runs on a machine with CuPy and a CUDA device; elsewhere it is skipped and the reason is
printed (pytest -rs shows it), so a green run without a GPU never claims this was checked."""

import numpy as np
import pytest
from wander.ca import xp as xpmod
from wander.ca.kernel import evolve_batch, run_ticks
from wander.ca.seed import hash_frames

TEXTS = [
    f"equivalence frame {i}: {w}"
    for i, w in enumerate(
        [
            "tide pool",
            "market",
            "lighthouse",
            "information asymmetry",
            "harbour",
            "weapon",
            "price",
            "signal",
        ]
    )
]


@pytest.fixture(scope="module")
def cupy():
    module, why = xpmod._probe_cupy()
    if module is None:
        print(f"SKIPPED CuPy-vs-NumPy equivalence: {why}")
        pytest.skip(f"CuPy-vs-NumPy equivalence needs CuPy with a CUDA device: {why}")
    return module


def test_cupy_and_numpy_reach_the_same_outcomes(cupy):
    frames = hash_frames(TEXTS)
    on_cpu = evolve_batch(frames, xp=np)
    on_gpu = evolve_batch(frames, xp=cupy)
    assert [e.state for e in on_gpu] == [e.state for e in on_cpu]
    assert [e.ticks for e in on_gpu] == [e.ticks for e in on_cpu]
    for g, c in zip(on_gpu, on_cpu):
        assert isinstance(g.attractor, np.ndarray)
        np.testing.assert_allclose(g.attractor, c.attractor, atol=1e-5)


def test_cupy_and_numpy_tick_alike(cupy):
    frames = hash_frames(TEXTS)
    gpu = xpmod.to_numpy(run_ticks(frames, 40, xp=cupy))
    np.testing.assert_allclose(gpu, run_ticks(frames, 40, xp=np), atol=1e-5)
