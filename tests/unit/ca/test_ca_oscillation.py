"""The role-space oscillation detector on constructed histories."""

from __future__ import annotations

import numpy as np

from wander.adapters.ca.kernel import cell_roles, detect_oscillation, detect_oscillation_roles

H = W = 20  # 400 cells: 1% is 4 cells
T = 20


def roles_with(period_cells: dict[int, int], seed: int = 0) -> np.ndarray:
    """(T, H, W) int8: ``n`` cells cycling with period ``p`` for each p -> n; others still."""
    rng = np.random.default_rng(seed)
    roles = np.zeros((T, H * W), dtype=np.int8)
    cells = rng.permutation(H * W)
    start = 0
    for p, n in period_cells.items():
        for c in cells[start : start + n]:
            cycle = rng.integers(-1, 2, size=p).astype(np.int8)
            while len(set(cycle.tolist())) < 2:  # must actually change
                cycle = rng.integers(-1, 2, size=p).astype(np.int8)
            roles[:, c] = np.resize(cycle, T)
        start += n
    return roles.reshape(T, H, W)


def test_period_two_pattern_is_oscillating():
    rep = detect_oscillation_roles(roles_with({2: 20}))[0]
    assert rep.oscillating and rep.period == 2 and rep.oscillating_cells == 20


def test_period_three_pattern_reports_its_period():
    rep = detect_oscillation_roles(roles_with({3: 12}))[0]
    assert rep.oscillating and rep.period == 3 and rep.oscillating_cells == 12


def test_below_one_percent_is_not_oscillating():
    rep = detect_oscillation_roles(roles_with({2: 3}))[0]  # 0.75% of 400 cells
    assert not rep.oscillating and rep.period is None


def test_periodic_cells_of_different_periods_add_up():
    # 3 cells of period 2 and 2 of period 5: neither alone reaches 1% (4 cells), together
    # 5 cells are periodic; period 10 is shared by all of them.
    rep = detect_oscillation_roles(roles_with({2: 3, 5: 2}))[0]
    assert rep.oscillating and rep.oscillating_cells == 5 and rep.period == 10


def test_non_periodic_history_is_not_oscillating():
    rng = np.random.default_rng(7)
    noise = rng.integers(-1, 2, size=(T, H, W)).astype(np.int8)
    rep = detect_oscillation_roles(noise)[0]
    assert not rep.oscillating


def test_constant_and_one_off_changes_are_not_oscillating():
    still = np.zeros((T, H, W), dtype=np.int8)
    assert not detect_oscillation_roles(still)[0].oscillating
    step = still.copy()
    step[10:, :5, :5] = 1  # 25 cells change once and stay
    assert not detect_oscillation_roles(step)[0].oscillating


def test_batch_of_role_histories():
    batch = np.stack([roles_with({2: 20}), np.zeros((T, H, W), np.int8), roles_with({4: 30}, seed=2)])
    reps = detect_oscillation_roles(batch)
    assert [r.oscillating for r in reps] == [True, False, True]
    assert reps[2].period in (2, 4)  # a period-4 cycle may itself repeat every 2


def test_detector_on_frames_flipping_back_and_forth():
    rng = np.random.default_rng(11)
    a = rng.uniform(-1, 1, (32, 32)).astype(np.float32)
    history = [a if t % 2 == 0 else -a for t in range(24)]  # maxima and minima swap
    rep = detect_oscillation(history)
    assert rep.oscillating and rep.period == 2
    # max and min roles swap; slope cells stay 0 and do not count
    r = cell_roles(a)
    assert rep.oscillating_cells == int((r != 0).sum())


def test_detector_on_non_periodic_frames_and_short_histories():
    rng = np.random.default_rng(12)
    frames = [rng.uniform(-1, 1, (32, 32)).astype(np.float32) for _ in range(20)]
    assert not detect_oscillation(frames).oscillating
    assert not detect_oscillation(frames[:10]).oscillating  # shorter than the window
