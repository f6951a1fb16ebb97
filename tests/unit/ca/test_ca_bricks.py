from __future__ import annotations

import numpy as np
import pytest

from wander.adapters.ca.bricks import Brick, first_differing_tick
from wander.adapters.ca.kernel import CONVERGED, OSCILLATING, Evolution, cell_roles, detect_oscillation, evolve
from wander.adapters.ca.seed import hash_frame


@pytest.fixture
def brick():
    ev = evolve(hash_frame("a brick of memory"), keep_history=True)
    return Brick.from_evolution(ev, {"text": "a brick of memory", "rotation_used": 0})


def test_round_trip(tmp_path, brick):
    path = brick.save(tmp_path / "b" / "x.npz")
    back = Brick.load(path)
    assert np.array_equal(back.history, brick.history)
    assert back.state == brick.state and back.ticks == brick.ticks
    assert back.metadata == brick.metadata
    assert np.array_equal(back.attractor, brick.history[-1])
    assert len(back) == brick.ticks + 1
    assert np.array_equal(back.frame_at(0), hash_frame("a brick of memory"))


def test_first_differing_tick_of_two_histories(brick):
    assert first_differing_tick(brick, brick) is None
    other = brick.history.copy()
    other[5:] += 0.01
    assert first_differing_tick(brick, Brick(other, brick.state, brick.ticks)) == 5
    tiny = brick.history.copy()
    tiny[3] += 1e-8
    assert first_differing_tick(brick, tiny) is None  # within tolerance
    assert first_differing_tick(brick, tiny, tolerance=0.0) == 3
    assert first_differing_tick(brick, brick.history[:10]) == 10  # a prefix
    b2 = Brick.from_evolution(evolve(hash_frame("another text"), keep_history=True))
    assert first_differing_tick(brick, b2) == 0


def cycling_history(onset: int, period: int, length: int, seed: int = 0) -> np.ndarray:
    """Frames that wander (a fresh random frame each tick) until ``onset``, then repeat
    ``period`` frames for ever: the roles cycle from tick ``onset`` on, and not before."""
    rng = np.random.default_rng(seed)
    cycle = rng.uniform(-1, 1, (period, 64, 64)).astype(np.float32)
    frames = [rng.uniform(-1, 1, (64, 64)).astype(np.float32) for _ in range(onset)]
    frames += [cycle[(t - onset) % period] for t in range(onset, length)]
    return np.stack(frames)


@pytest.mark.parametrize(("onset", "period"), [(37, 2), (61, 3), (5, 7), (0, 2)])
def test_divergence_point_is_the_tick_the_cycle_began(onset, period):
    history = cycling_history(onset, period, 90)
    ticks = len(history) - 1
    # the kernel's own detector sees a cycle of that period at the end
    assert detect_oscillation(history).period == period
    ev = Evolution(history[-1], OSCILLATING, ticks, history=history, period=period, oscillating_cells=900)
    brick = Brick.from_evolution(ev, {"text": "cycles"})
    assert brick.metadata["cycle_period"] == period == brick.cycle_period
    assert brick.find_divergence_point() == onset


def test_divergence_point_survives_a_round_trip_and_reads_the_recorded_period(tmp_path):
    history = cycling_history(44, 2, 80, seed=3)
    brick = Brick(history, OSCILLATING, 79, metadata={"cycle_period": 2})
    back = Brick.load(brick.save(tmp_path / "osc.npz"))
    assert back.cycle_period == 2 and back.find_divergence_point() == 44
    # a period of 4 is also a period of a 2-cycle: the cycle still began at 44
    assert back.find_divergence_point(period=4) == 44
    # no period recorded: an OSCILLATING brick asks the kernel's detector for it
    assert Brick(history, OSCILLATING, 79).find_divergence_point() == 44
    with pytest.raises(ValueError, match="period"):
        back.find_divergence_point(period=0)


def test_the_cycle_begins_when_its_last_cycling_cell_joins():
    """The frames repeat from tick 30, but one cycling cell is held at a local max until
    tick 49: the cycle, as the brick's cycling cells share it, began at 50."""
    history = cycling_history(30, 2, 90, seed=5)
    roles = cell_roles(history[-2:]).reshape(2, -1)  # the two phases of the cycle
    cell = int(np.flatnonzero((roles[0] != roles[1]) & (roles[0] != 1) & (roles[1] != 1))[0])
    late = history.copy()
    late[:50].reshape(50, -1)[:, cell] = 2.0  # above every neighbour: a local max
    brick = Brick(late, OSCILLATING, 89, metadata={"cycle_period": 2})
    assert brick.find_divergence_point() == 50
    assert Brick(history, OSCILLATING, 89, metadata={"cycle_period": 2}).find_divergence_point() == 30


def test_a_brick_that_settles_has_no_divergence_point(brick):
    assert brick.state == CONVERGED
    assert brick.cycle_period is None and brick.find_divergence_point() is None
    assert brick.find_divergence_point(period=2) is None  # its roles stop changing


def test_evolution_without_history_is_refused():
    with pytest.raises(ValueError, match="history"):
        Brick.from_evolution(evolve(hash_frame("x")))
