from __future__ import annotations

import numpy as np
import pytest

from wander.ca.bricks import Brick, find_divergence_point
from wander.ca.kernel import evolve
from wander.ca.seed import hash_frame


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


def test_divergence_point(brick):
    assert find_divergence_point(brick, brick) is None
    other = brick.history.copy()
    other[5:] += 0.01
    assert find_divergence_point(brick, Brick(other, brick.state, brick.ticks)) == 5
    tiny = brick.history.copy()
    tiny[3] += 1e-8
    assert find_divergence_point(brick, tiny) is None  # within tolerance
    assert find_divergence_point(brick, tiny, tolerance=0.0) == 3
    assert find_divergence_point(brick, brick.history[:10]) == 10  # a prefix
    b2 = Brick.from_evolution(evolve(hash_frame("another text"), keep_history=True))
    assert find_divergence_point(brick, b2) == 0


def test_evolution_without_history_is_refused():
    with pytest.raises(ValueError, match="history"):
        Brick.from_evolution(evolve(hash_frame("x")))
