"""The update rule, convergence, and batched == one-frame-at-a-time (bit for bit)."""

from __future__ import annotations

import numpy as np
import pytest

from wander.adapters.ca import kernel
from wander.adapters.ca.kernel import (
    CHAOTIC,
    CONVERGED,
    OSCILLATING,
    ca_step,
    evolve,
    evolve_batch,
    evolve_reference,
    run_ticks,
    run_ticks_reference,
    summarize,
)
from wander.adapters.ca.seed import hash_frame, hash_frames
from wander.adapters.ca.xp import to_numpy

F32 = np.float32

HAND = np.array(
    [
        [0.0, 0.5, 0.0, 0.0],
        [-0.2, 0.0, 0.0, 0.0],
        [0.0, 0.0, -0.5, 0.0],
        [0.0, 0.0, 0.0, 0.0],
    ],
    dtype=np.float32,
)

# (cell, expected next value, why)
HAND_CASES = [
    ((0, 1), 0.675, "local max: 0.5 + 0.35 * (1 - 0.5)"),
    ((2, 2), -0.675, "local min: -0.5 + 0.35 * (-1 + 0.5)"),
    ((1, 0), -0.48, "local min: -0.2 + 0.35 * (-1 + 0.2)"),
    ((1, 1), 0.1, "slope: 0 + 0.2 * (0.5 - 0), largest neighbour above it"),
    ((0, 0), 0.1, "slope: neighbours 0.5 (right) and -0.2 (below)"),
    ((1, 2), 0.35, "local max over the -0.5 below it"),
    ((1, 3), 0.35, "local max: its right neighbour wraps to (1, 0) = -0.2"),
    ((2, 0), 0.35, "local max: -0.2 above it"),
    ((3, 3), 0.0, "flat: equal to all four neighbours, does not move"),
]


def naive_step(frame: np.ndarray) -> np.ndarray:
    """Cell-by-cell statement of the rule, in float32 scalars."""
    h, w = frame.shape
    out = frame.copy()
    for i in range(h):
        for j in range(w):
            x = frame[i, j]
            nb = [frame[(i - 1) % h, j], frame[(i + 1) % h, j], frame[i, (j - 1) % w], frame[i, (j + 1) % w]]
            is_max = all(x >= n for n in nb)
            is_min = all(x <= n for n in nb)
            if is_max and is_min:
                new = x
            elif is_max:
                new = x + (F32(1) - x) * F32(0.35)
            elif is_min:
                new = x + (F32(-1) - x) * F32(0.35)
            else:
                new = x + (max(nb) - x) * F32(0.2)
            out[i, j] = min(F32(1), max(F32(-1), F32(new)))
    return out


@pytest.mark.parametrize(("cell", "value", "why"), HAND_CASES)
def test_update_rule_on_a_hand_computed_frame(cell, value, why):
    nxt = ca_step(HAND)
    assert nxt[cell] == pytest.approx(value, abs=1e-6), why


def test_every_implementation_agrees_with_the_cell_by_cell_rule(xp):
    expected = naive_step(HAND)
    assert np.array_equal(ca_step(HAND), expected)
    assert np.array_equal(to_numpy(run_ticks(xp.asarray(HAND), 1, xp=xp))[0], expected)
    rng = np.random.default_rng(3)
    for shape in [(5, 5), (7, 9), (3, 4)]:
        f = rng.uniform(-1, 1, shape).astype(np.float32)
        f[0, :2] = f[1, 1]  # some ties
        ref = f
        for _ in range(4):
            ref = naive_step(ref)
        assert np.array_equal(run_ticks_reference(f, 4), ref)
        assert np.array_equal(to_numpy(run_ticks(xp.asarray(f), 4, xp=xp))[0], ref)


def test_step_works_on_stacks():
    frames = hash_frames(["a", "b", "c"])[:, :8, :8].copy()
    stacked = ca_step(frames)
    for i in range(3):
        assert np.array_equal(stacked[i], ca_step(frames[i]))


def test_flat_cells_do_not_move(xp):
    flat = np.full((6, 6), 0.3, dtype=np.float32)
    assert np.array_equal(ca_step(flat), flat)
    assert np.array_equal(to_numpy(run_ticks(xp.asarray(flat), 5, xp=xp))[0], flat)
    ev = evolve(flat, xp=xp)
    assert ev.state == CONVERGED and ev.ticks == 1
    assert np.array_equal(ev.attractor, flat)


TEXTS = [
    "fix the python debug error",
    "buy groceries and schedule dentist",
    "the mitochondria is the powerhouse of the cell",
    "entropy always increases in a closed system",
    "a river remembers the shape of its valley",
    "solder the header pins onto the pcb",
    "what if cities were designed by ant colonies",
    "jazz improvisation as a search algorithm",
    "meeting notes: ship the beta on friday",
    "memory is reconstruction, not retrieval",
    "the map is not the territory",
    "1234567890",
]


def test_typical_texts_converge(xp):
    results = evolve_batch(hash_frames(TEXTS), xp=xp)
    counts = summarize(results)
    assert counts[CONVERGED] >= 10, counts
    for r in results:
        assert r.attractor.shape == (64, 64) and r.attractor.dtype == np.float32
        assert 1 <= r.ticks <= kernel.MAX_TICKS
        if r.state == CONVERGED:
            assert np.abs(r.attractor).mean() > 0.5  # settled toward the +-1 pattern


def _assert_same(a, b):
    assert a.state == b.state
    assert a.ticks == b.ticks
    assert a.period == b.period
    assert a.oscillating_cells == b.oscillating_cells
    assert np.array_equal(a.attractor, b.attractor)
    if a.history is not None and b.history is not None:
        assert a.history.shape == b.history.shape
        assert np.array_equal(a.history, b.history)


def test_batched_equals_one_frame_at_a_time_exactly(xp):
    texts = TEXTS + [f"note {i}: an idea about {i * 7 % 13} things" for i in range(36)]
    frames = hash_frames(texts)
    batched = evolve_batch(frames, keep_history=True, xp=xp)
    for f, b in zip(frames, batched):
        ref = evolve_reference(f)
        _assert_same(b, ref)
        assert len(b.history) == b.ticks + 1
        assert np.array_equal(b.history[0], f)


@pytest.mark.parametrize("chunk_size", [1, 3, 64])
def test_chunking_does_not_change_results(xp, chunk_size):
    frames = hash_frames(TEXTS)
    a = evolve_batch(frames, xp=xp)
    b = evolve_batch(frames, xp=xp, chunk_size=chunk_size)
    for x, y in zip(a, b):
        _assert_same(x, y)


def test_out_of_ticks_is_chaotic_and_identical(xp):
    frames = hash_frames(TEXTS[:5])
    batched = evolve_batch(frames, threshold=0.0, max_ticks=60, xp=xp, keep_history=True)
    for f, b in zip(frames, batched):
        assert b.state == CHAOTIC and b.ticks == 60
        _assert_same(b, evolve_reference(f, threshold=0.0, max_ticks=60))


def test_oscillation_path_is_identical(monkeypatch, xp):
    """Oscillation does not occur in the CA on ordinary seeds, so a deterministic stand-in
    detector (a function of the role window alone) flags some frames; the batched kernel
    (compaction, ring buffer of roles) must decide exactly as the reference loop."""
    real = kernel.reference.periodicity

    def fake(roles, xp_):
        osc, period, count = real(roles, xp_)
        r = to_numpy(roles).astype(np.int64)
        key = (r[:, -1] * np.arange(r.shape[2])).sum(axis=1) + (r[:, 0] == 1).sum(axis=1)
        flag = key % 3 == 0
        return flag | osc, np.where(flag, 2, period), np.where(flag, 77, count)

    monkeypatch.setattr(kernel.reference, "periodicity", fake)
    frames = hash_frames([f"oscillation case {i}" for i in range(12)])
    batched = evolve_batch(frames, threshold=0.0, max_ticks=120, xp=xp, keep_history=True)
    states = summarize(batched)
    assert states[OSCILLATING] >= 2 and states[OSCILLATING] < 12, states
    for f, b in zip(frames, batched):
        ref = evolve_reference(f, threshold=0.0, max_ticks=120)
        _assert_same(b, ref)
        if b.state == OSCILLATING:
            assert b.ticks >= kernel.DETECT_START and b.ticks % kernel.DETECT_EVERY == 0
            assert b.period == 2 and b.oscillating_cells == 77


def test_detection_off_never_oscillates(monkeypatch, xp):
    monkeypatch.setattr(kernel.reference, "periodicity", lambda *a: pytest.fail("detector called"))
    evolve_batch(hash_frames(TEXTS[:3]), threshold=0.0, max_ticks=70, detect=False, xp=xp)


def test_bad_arguments_are_clear_errors():
    with pytest.raises(ValueError, match="max_ticks"):
        evolve_batch(hash_frame("x"), max_ticks=0)
    with pytest.raises(ValueError, match="frames"):
        evolve_batch(np.zeros((2, 2, 2, 2), np.float32))


def test_out_of_range_seeds_are_clipped_first(xp):
    f = hash_frame("loud") * 3
    b = evolve_batch(f, xp=xp)[0]
    _assert_same(b, evolve_reference(f))
    assert np.abs(b.attractor).max() <= 1


@pytest.mark.parametrize("threshold", [1e-6, 1e-3, 1e-2])
def test_batched_equals_reference_at_other_thresholds(xp, threshold):
    frames = hash_frames(TEXTS)
    for f, b in zip(frames, evolve_batch(frames, threshold=threshold, xp=xp)):
        _assert_same(b, evolve_reference(f, threshold=threshold))
