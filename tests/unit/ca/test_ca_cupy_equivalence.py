"""CuPy and NumPy evolve the same frames to the same outcomes, bit for bit (the fused
CUDA pass too).

Runs on a machine with CuPy and a CUDA device; elsewhere it is skipped and the reason is
printed (pytest -rs shows it), so a green run without a GPU never claims this was checked.
Both CuPy paths are compared with the NumPy passes: the fused CUDA pass (CuPy's default)
and the elementwise passes (``fused=False``)."""

import numpy as np
import pytest

from wander.adapters.ca import kernel
from wander.adapters.ca import xp as xpmod
from wander.adapters.ca.kernel import CHAOTIC, OSCILLATING, evolve_batch, run_ticks
from wander.adapters.ca.seed import hash_frames

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
# enough frames that every outcome occurs, and that frames leave the active set at
# different ticks (compaction)
MANY = [f"bench text {i}" for i in range(192)]
CUPY_PATHS = [pytest.param(None, id="fused-cuda-pass"), pytest.param(False, id="elementwise-passes")]


@pytest.fixture(scope="module")
def cupy():
    module, why = xpmod._probe_cupy()
    if module is None:
        print(f"SKIPPED CuPy-vs-NumPy equivalence: {why}")
        pytest.skip(f"CuPy-vs-NumPy equivalence needs CuPy with a CUDA device: {why}")
    return module


def bits(a) -> np.ndarray:
    return np.ascontiguousarray(xpmod.to_numpy(a)).view(np.int32)


def same_evolutions(gpu, cpu) -> None:
    assert [e.state for e in gpu] == [e.state for e in cpu]
    assert [e.ticks for e in gpu] == [e.ticks for e in cpu]
    assert [e.period for e in gpu] == [e.period for e in cpu]
    assert [e.oscillating_cells for e in gpu] == [e.oscillating_cells for e in cpu]
    for g, c in zip(gpu, cpu):
        assert isinstance(g.attractor, np.ndarray)
        np.testing.assert_array_equal(bits(g.attractor), bits(c.attractor))


@pytest.mark.parametrize("fused", CUPY_PATHS)
def test_cupy_and_numpy_reach_the_same_outcomes(cupy, fused):
    frames = hash_frames(TEXTS)
    same_evolutions(evolve_batch(frames, xp=cupy, fused=fused), evolve_batch(frames, xp=np, fused=False))


@pytest.mark.parametrize("fused", CUPY_PATHS)
def test_frames_decided_at_different_ticks_agree(cupy, fused):
    """Frames converge at many different ticks, so the active set is compacted often."""
    frames = hash_frames(MANY)
    cpu = evolve_batch(frames, xp=np)
    assert len({e.ticks for e in cpu}) > 10
    same_evolutions(evolve_batch(frames, xp=cupy, fused=fused), cpu)
    chaotic = evolve_batch(frames[:16], xp=np, threshold=0.0, max_ticks=60)
    assert {e.state for e in chaotic} == {CHAOTIC}
    same_evolutions(evolve_batch(frames[:16], xp=cupy, fused=fused, threshold=0.0, max_ticks=60), chaotic)


@pytest.mark.parametrize("fused", CUPY_PATHS)
def test_role_windows_agree(cupy, fused, monkeypatch):
    """Ordinary seeds do not oscillate, so a stand-in detector (a function of the role
    window alone) flags some frames at each check: the role rings must hold the same
    roles on both sides for the same frames to leave at the same checks."""
    real = kernel.reference.periodicity

    def stand_in(roles, xp_):
        osc, period, count = real(roles, xp_)
        r = xpmod.to_numpy(roles).astype(np.int64)
        key = (r[:, -1] * np.arange(r.shape[2])).sum(axis=1) + (r[:, 0] == 1).sum(axis=1)
        flag = key % 3 == 0
        return flag | osc, np.where(flag, 2, period), np.where(flag, 77, count)

    monkeypatch.setattr(kernel.reference, "periodicity", stand_in)
    frames = hash_frames([f"oscillation case {i}" for i in range(24)])
    cpu = evolve_batch(frames, xp=np, threshold=0.0, max_ticks=120)
    assert 2 <= sum(e.state == OSCILLATING for e in cpu) < 24
    same_evolutions(evolve_batch(frames, xp=cupy, fused=fused, threshold=0.0, max_ticks=120), cpu)


@pytest.mark.parametrize("fused", CUPY_PATHS)
def test_cupy_and_numpy_tick_alike(cupy, fused):
    frames = hash_frames(TEXTS)
    gpu = run_ticks(frames, 40, xp=cupy, fused=fused)
    np.testing.assert_array_equal(bits(gpu), bits(run_ticks(frames, 40, xp=np)))


@pytest.mark.parametrize("fused", CUPY_PATHS)
def test_histories_agree(cupy, fused):
    frames = hash_frames(TEXTS[:3])
    gpu = evolve_batch(frames, xp=cupy, fused=fused, keep_history=True)
    cpu = evolve_batch(frames, xp=np, keep_history=True)
    same_evolutions(gpu, cpu)
    for g, c in zip(gpu, cpu):
        np.testing.assert_array_equal(bits(g.history), bits(c.history))


def test_odd_shapes_wrap_alike(cupy):
    """Frames that are not square, with edges of 1 and 2 cells: the pass's own wrapping."""
    rng = np.random.default_rng(7)
    for shape in [(5, 3, 7), (2, 1, 9), (3, 8, 2), (4, 2, 2)]:
        frames = rng.uniform(-1.2, 1.2, size=shape).astype(np.float32)
        np.testing.assert_array_equal(bits(run_ticks(frames, 17, xp=cupy)), bits(run_ticks(frames, 17, xp=np)))
        same_evolutions(evolve_batch(frames, xp=cupy), evolve_batch(frames, xp=np))


def test_frames_holding_nan_take_the_elementwise_passes(cupy):
    frames = hash_frames(TEXTS[:2])
    frames[1, 3, 4] = np.nan
    gpu, cpu = xpmod.to_numpy(run_ticks(frames, 12, xp=cupy)), run_ticks(frames, 12, xp=np)
    assert np.isnan(cpu).any()
    # NaN in the same places (their payload bits may differ), every other value bit for bit
    np.testing.assert_array_equal(np.isnan(gpu), np.isnan(cpu))
    np.testing.assert_array_equal(bits(np.nan_to_num(gpu)), bits(np.nan_to_num(cpu)))
