"""The fused CPU passes (numba) give exactly the results of the NumPy passes and of the
one-frame-at-a-time reference loop: frames bit for bit, states, tick counts, periods."""

from __future__ import annotations

import numpy as np
import pytest

from wander.adapters.ca import kernel
from wander.adapters.ca.kernel import (
    CHAOTIC,
    CONVERGED,
    OSCILLATING,
    evolve_batch,
    evolve_reference,
    run_ticks,
    run_ticks_reference,
    summarize,
)
from wander.adapters.ca.seed import hash_frames

pytest.importorskip("numba")


def bits(a: np.ndarray) -> np.ndarray:
    """The float32 bit patterns (so that -0.0 != 0.0 and every ulp counts)."""
    return np.ascontiguousarray(a, dtype=np.float32).view(np.int32)


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and bool(np.array_equal(bits(a), bits(b)))


def assert_same(a, b) -> None:
    assert (a.state, a.ticks, a.period, a.oscillating_cells) == (b.state, b.ticks, b.period, b.oscillating_cells)
    assert same_bits(a.attractor, b.attractor)
    if a.history is not None and b.history is not None:
        assert same_bits(a.history, b.history)


def tied_frames(rng: np.random.Generator, n: int, shape: tuple[int, int], levels: int) -> np.ndarray:
    """Frames on a coarse grid of values: many ties between neighbours, flat patches."""
    grid = rng.integers(-levels, levels + 1, size=(n, *shape)) / levels
    frames = grid.astype(np.float32)
    frames[: n // 2, : shape[0] // 2, : shape[1] // 2] = np.float32(0.25)  # a flat plateau
    return frames


SHAPES = [(1, 1), (1, 6), (6, 1), (2, 2), (2, 5), (3, 3), (3, 4), (5, 7), (16, 9), (64, 64)]


@pytest.mark.parametrize("shape", SHAPES)
def test_fused_ticks_equal_numpy_passes_and_reference(shape):
    rng = np.random.default_rng(sum(shape))
    frames = np.concatenate(
        [
            rng.uniform(-1, 1, (4, *shape)).astype(np.float32),
            tied_frames(rng, 4, shape, 2),
            (rng.uniform(-1.5, 1.5, (2, *shape))).astype(np.float32),  # clipped seeds
        ]
    )
    for ticks in (0, 1, 2, 7):
        fused = run_ticks(frames, ticks, xp=np, fused=True)
        assert same_bits(fused, run_ticks(frames, ticks, xp=np, fused=False))
        for f, got in zip(frames, fused):
            assert same_bits(got, run_ticks_reference(f, ticks))


def test_flat_cells_and_flat_frames_do_not_move():
    flat = np.full((3, 6, 6), 0.3, dtype=np.float32)
    flat[1] = -1
    flat[2] = 0
    assert same_bits(run_ticks(flat, 9, xp=np, fused=True), flat)
    for ev in evolve_batch(flat, xp=np, fused=True):
        assert ev.state == CONVERGED and ev.ticks == 1
    plateau = np.zeros((1, 8, 8), dtype=np.float32)
    plateau[0, 2:6, 2:6] = 0.5  # flat inside the plateau, maxima on its rim
    one = run_ticks(plateau, 1, xp=np, fused=True)[0]
    assert one[3, 3] == np.float32(0.5) and one[2, 2] > np.float32(0.5)
    assert same_bits(one, run_ticks_reference(plateau[0], 1))


def test_evolutions_equal_reference_and_numpy_passes_with_history():
    rng = np.random.default_rng(7)
    frames = np.concatenate(
        [
            hash_frames([f"fused case {i}" for i in range(10)]),
            tied_frames(rng, 6, (64, 64), 3),
            rng.uniform(-1, 1, (4, 64, 64)).astype(np.float32),
        ]
    )
    fused = evolve_batch(frames, keep_history=True, xp=np, fused=True)
    numpy_passes = evolve_batch(frames, keep_history=True, xp=np, fused=False)
    assert summarize(fused)[CONVERGED] == len(frames)
    for f, a, b in zip(frames, fused, numpy_passes):
        assert_same(a, b)
        assert_same(a, evolve_reference(f))
        assert len(a.history) == a.ticks + 1


@pytest.mark.parametrize("shape", [(5, 7), (3, 3), (2, 4), (1, 9)])
def test_small_and_odd_frames_evolve_identically(shape):
    rng = np.random.default_rng(11)
    frames = np.concatenate([rng.uniform(-1, 1, (6, *shape)), tied_frames(rng, 6, shape, 2)]).astype(np.float32)
    for threshold in (1e-4, 1e-6):
        fused = evolve_batch(frames, threshold=threshold, xp=np, fused=True)
        for f, a, b in zip(frames, fused, evolve_batch(frames, threshold=threshold, xp=np, fused=False)):
            assert_same(a, b)
            assert_same(a, evolve_reference(f, threshold=threshold))


def reference_means(frame: np.ndarray, ticks: int) -> list[float]:
    """The reference's mean |change| after each tick 1..ticks, as it computes it."""
    ev = evolve_reference(frame, threshold=0.0, max_ticks=ticks, detect=False)
    h = ev.history
    assert h is not None
    return [float(np.abs(h[t] - h[t - 1]).mean()) for t in range(1, ticks + 1)]


def test_a_threshold_equal_to_the_mean_is_decided_exactly():
    """Thresholds on (and one float above) the mean change of some tick: the fused
    estimate cannot tell these apart, so the reference's float32 mean decides."""
    frames = hash_frames(["threshold tie a", "threshold tie b", "threshold tie c"])
    for f in frames:
        means = reference_means(f, 30)
        for k in (5, 12, 20):
            at = means[k - 1]
            above = float(np.nextafter(at, np.inf))
            below = float(np.nextafter(at, -np.inf))
            for threshold in (at, above, below):
                ref = evolve_reference(f, threshold=threshold)
                got = evolve_batch(f, threshold=threshold, xp=np, fused=True)[0]
                assert_same(got, ref)
            first_below = next(t for t, m in enumerate(means, 1) if m < above)
            assert evolve_batch(f, threshold=above, xp=np, fused=True)[0].ticks == first_below <= k


def test_out_of_ticks_and_zero_threshold_are_identical():
    frames = np.concatenate(
        [hash_frames(["chaos 1", "chaos 2"]), tied_frames(np.random.default_rng(2), 2, (64, 64), 2)]
    )
    for max_ticks in (1, 49, 50, 61):
        fused = evolve_batch(frames, threshold=0.0, max_ticks=max_ticks, keep_history=True, xp=np, fused=True)
        for f, a in zip(frames, fused):
            assert a.state == CHAOTIC and a.ticks == max_ticks
            assert_same(a, evolve_reference(f, threshold=0.0, max_ticks=max_ticks))


def stand_in_detector(real):
    """A deterministic stand-in for the periodicity check (the CA does not oscillate on
    ordinary seeds): it flags windows by a function of their roles (first and last frame
    of the window), so it also checks that the role windows are exactly the reference's."""

    def fake(roles, xp_):
        osc, period, count = real(roles, xp_)
        r = np.asarray(roles).astype(np.int64)
        key = (r[:, -1] * np.arange(r.shape[2])).sum(axis=1) + 3 * (r[:, 0] == 1).sum(axis=1) + r[:, 7].sum(axis=1)
        flag = key % 4 == 0
        return flag | osc, np.where(flag, 3, period), np.where(flag, 41, count)

    return fake


@pytest.mark.parametrize(("keep_history", "chunk_size"), [(False, None), (True, None), (False, 3)])
def test_oscillation_decisions_and_role_windows_are_identical(monkeypatch, keep_history, chunk_size):
    """Also with small chunks, whose buffers and role ring are reused from chunk to chunk."""
    monkeypatch.setattr(kernel.reference, "periodicity", stand_in_detector(kernel.reference.periodicity))
    rng = np.random.default_rng(5)
    frames = np.concatenate([hash_frames([f"osc {i}" for i in range(10)]), tied_frames(rng, 4, (64, 64), 2)])
    kw = dict(threshold=1e-7, max_ticks=140, keep_history=keep_history, xp=np)
    fused = evolve_batch(frames, fused=True, chunk_size=chunk_size, **kw)
    counts = summarize(fused)
    assert 2 <= counts[OSCILLATING] < len(frames), counts
    for f, a, b in zip(frames, fused, evolve_batch(frames, fused=False, **kw)):
        assert_same(a, b)
        assert_same(a, evolve_reference(f, threshold=1e-7, max_ticks=140))
        if a.state == OSCILLATING:
            assert a.ticks >= kernel.DETECT_START and a.ticks % kernel.DETECT_EVERY == 0


def test_detection_off_never_calls_the_detector(monkeypatch):
    monkeypatch.setattr(kernel.reference, "periodicity", lambda *a: pytest.fail("detector called"))
    evs = evolve_batch(hash_frames(["off a", "off b"]), threshold=0.0, max_ticks=70, detect=False, xp=np, fused=True)
    assert [e.state for e in evs] == [CHAOTIC, CHAOTIC]


@pytest.mark.parametrize("chunk_size", [1, 5, 300])
def test_chunking_does_not_change_fused_results(chunk_size):
    frames = hash_frames([f"chunk {i}" for i in range(12)])
    whole = evolve_batch(frames, xp=np, fused=True)
    for a, b in zip(whole, evolve_batch(frames, xp=np, fused=True, chunk_size=chunk_size)):
        assert_same(a, b)


def test_without_numba_the_numpy_passes_run(monkeypatch):
    frames = hash_frames(["no numba a", "no numba b"])
    expected = evolve_batch(frames, xp=np, fused=True)
    monkeypatch.setattr(kernel.fused, "_fused_state", [None])
    assert not kernel.fused_available()
    monkeypatch.setattr(kernel.fused, "evolve_chunk_fused", lambda *a: pytest.fail("fused path taken"))
    for a, b in zip(evolve_batch(frames, xp=np), expected):
        assert_same(a, b)
    with pytest.raises(RuntimeError, match="fused"):
        evolve_batch(frames, xp=np, fused=True)
    assert same_bits(run_ticks(frames, 3, xp=np), run_ticks(frames, 3, xp=np, fused=False))


def test_the_fused_path_is_the_default_on_numpy(monkeypatch):
    calls = []
    real = kernel.fused.evolve_chunk_fused
    monkeypatch.setattr(kernel.fused, "evolve_chunk_fused", lambda *a: calls.append(1) or real(*a))
    evolve_batch(hash_frames(["default"]), xp=np)
    assert calls == [1]


def test_frames_with_nan_take_the_numpy_passes():
    f = hash_frames(["nan"])[0].copy()
    f[3, 4] = np.nan
    a = evolve_batch(f, xp=np, fused=True, max_ticks=20)[0]
    b = evolve_batch(f, xp=np, fused=False, max_ticks=20)[0]
    assert (a.state, a.ticks) == (b.state, b.ticks)
    assert np.array_equal(a.attractor, b.attractor, equal_nan=True)


def test_fused_constants_are_the_kernels():
    from wander.adapters.ca import numba_passes as fused

    assert bits(np.array([fused.PUSH, fused.FLOW])).tolist() == bits(np.array([kernel.PUSH, kernel.FLOW])).tolist()
    fused.warm_up()


def test_infinite_seeds_are_clipped_and_identical():
    f = hash_frames(["inf"])[0].copy()
    f[0, :5] = np.inf
    f[7, 3] = -np.inf
    f[63, 63] = np.inf  # on the wrapped edges
    got = evolve_batch(f, xp=np, fused=True)[0]
    assert_same(got, evolve_reference(f))
    assert same_bits(run_ticks(f, 3, xp=np, fused=True)[0], run_ticks_reference(f, 3))
