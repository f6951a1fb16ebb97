"""What the brick viewer gets of a brick: one byte a cell, the outcome, the cycle."""

from __future__ import annotations

import numpy as np
import pytest

from wander.adapters.ca.brick_view import dequantise, quantise, text_brick, view_of
from wander.adapters.ca.bricks import Brick
from wander.adapters.ca.kernel import CHAOTIC, CONVERGED, OSCILLATING
from wander.adapters.ca.seed import hash_frame
from wander.adapters.ca.signals import attractor_for_text


def test_quantised_frames_round_trip_within_one_step():
    h = np.random.default_rng(0).uniform(-1, 1, (3, 64, 64)).astype(np.float32)
    h[0, 0, :3] = (-1.0, 0.0, 1.0)
    data = quantise(h)
    assert len(data) == 3 * 64 * 64 and data[:3] == bytes([0, 128, 255])
    back = dequantise(data, 64, 64)
    assert back.shape == h.shape and np.abs(back - h).max() <= 0.5 / 127.5 + 1e-6


def test_view_of_a_text_brick():
    brick = text_brick("watch me settle")
    view = view_of(brick)
    assert (view.state, view.outcome, view.angle, view.attempts) == (CONVERGED, CONVERGED, 0, 1)
    assert view.frame_count == brick.ticks + 1 == view.ticks + 1
    assert view.cycle_period is None and view.divergence_tick is None
    frames = dequantise(view.frames, view.height, view.width)
    assert np.abs(frames[0] - hash_frame("watch me settle")).max() < 0.005
    assert np.abs(frames[-1] - attractor_for_text("watch me settle")).max() < 0.005
    with pytest.raises(ValueError, match="text"):
        text_brick(" ")


@pytest.mark.parametrize(
    ("state", "meta", "outcome"),
    [
        (OSCILLATING, {"failed_all_rotations": True}, "FAILED_ALL_ROTATIONS"),  # a brick from before
        (CONVERGED, {"failed_all_rotations": False}, CONVERGED),
        (CHAOTIC, {}, "FAILED_ALL_ROTATIONS"),
        (CHAOTIC, {"rotation_outcome": "FAILED_ALL_ROTATIONS"}, "FAILED_ALL_ROTATIONS"),
    ],
)
def test_outcome_of_bricks_old_and_new(state, meta, outcome):
    h = np.stack([hash_frame("x")] * 3)
    assert view_of(Brick(h, state, 2, metadata=meta)).outcome == outcome


def test_view_of_an_oscillating_brick_says_where_its_cycle_began():
    f = hash_frame("cycle")
    rng = np.random.default_rng(2)
    history = np.stack([rng.uniform(-1, 1, (64, 64)).astype(np.float32) for _ in range(17)] + [f, -f] * 15)
    view = view_of(Brick(history, OSCILLATING, len(history) - 1, metadata={"cycle_period": 2}))
    assert (view.cycle_period, view.divergence_tick) == (2, 17)
