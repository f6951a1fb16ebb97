"""Rotation retry: order, fallback, batching and persisted per-angle counts."""

from __future__ import annotations

import json

import numpy as np
import pytest

from wander.adapters.ca import rotation
from wander.adapters.ca.kernel import CHAOTIC, CONVERGED, OSCILLATING, Evolution
from wander.adapters.ca.rotation import (
    ANGLES,
    FAILED_ALL_ROTATIONS,
    RotationStats,
    evolve_with_rotation,
    outcome_of,
    rotate,
)
from wander.adapters.ca.seed import hash_frame, hash_frames


class Scripted:
    """Stand-in for evolve_batch: outcome per (seed index, attempt) from a script."""

    def __init__(self, seeds: np.ndarray, script: dict[int, list[tuple[str, int]]]):
        self.seeds = seeds
        self.script = script
        self.calls: list[tuple[int, list[int]]] = []  # (angle, seed indices)

    def __call__(self, frames, **kwargs):
        frames = np.asarray(frames)
        out, idxs = [], []
        for f in frames:
            for angle in ANGLES:
                matches = [i for i, s in enumerate(self.seeds) if np.array_equal(rotate(s, angle), f)]
                if matches:
                    break
            i = matches[0]
            idxs.append(i)
            state, cells = self.script[i][ANGLES.index(angle)]
            out.append(
                Evolution(attractor=f.copy(), state=state, ticks=10 + ANGLES.index(angle), oscillating_cells=cells)
            )
        self.calls.append((angle, idxs))
        return out


def test_rotate_turns_the_frame():
    f = hash_frame("r")
    assert np.array_equal(rotate(f, 90), np.rot90(f, 1))
    assert np.array_equal(rotate(f, 270), np.rot90(f, 3))
    assert np.array_equal(rotate(f, 0), f)
    with pytest.raises(ValueError, match="angle"):
        rotate(f, 45)


def test_first_converged_angle_wins_and_stats_persist(tmp_path, monkeypatch):
    seeds = hash_frames(["only converges at 180"])
    fake = Scripted(seeds, {0: [(OSCILLATING, 50), (CHAOTIC, 0), (CONVERGED, 0), (CONVERGED, 0)]})
    monkeypatch.setattr(rotation, "evolve_batch", fake)
    stats = RotationStats(tmp_path / "rotation_stats.json")
    res = evolve_with_rotation(seeds[0], stats=stats)[0]
    assert res.state == CONVERGED and res.angle == 180 and res.attempts == 3
    assert res.outcome == CONVERGED
    assert [a for a, _ in fake.calls] == [0, 90, 180]  # 270 never tried
    assert np.array_equal(res.attractor, np.rot90(seeds[0], 2))  # evolved rotated
    saved = json.loads((tmp_path / "rotation_stats.json").read_text())["angles"]
    assert saved["0"] == {"attempts": 1, "successes": 0}
    assert saved["180"] == {"attempts": 1, "successes": 1}
    assert saved["270"] == {"attempts": 0, "successes": 0}
    again = RotationStats(tmp_path / "rotation_stats.json")
    assert again.successes[180] == 1 and again.attempts[90] == 1


def test_all_failed_keeps_the_best_outcome(monkeypatch):
    seeds = hash_frames(["never converges"])
    script = {0: [(CHAOTIC, 0), (OSCILLATING, 90), (OSCILLATING, 40), (CHAOTIC, 0)]}
    monkeypatch.setattr(rotation, "evolve_batch", Scripted(seeds, script))
    res = evolve_with_rotation(seeds)[0]
    assert res.outcome == FAILED_ALL_ROTATIONS == "FAILED_ALL_ROTATIONS" and res.attempts == 4
    assert res.state == OSCILLATING and res.angle == 180  # fewest periodic cells


def test_retries_only_the_frames_that_failed(monkeypatch):
    seeds = hash_frames(["a", "b", "c"])
    ok = [(CONVERGED, 0)] * 4
    script = {0: ok, 1: [(CHAOTIC, 0), (CONVERGED, 0), (CONVERGED, 0), (CONVERGED, 0)], 2: ok}
    fake = Scripted(seeds, script)
    monkeypatch.setattr(rotation, "evolve_batch", fake)
    res = evolve_with_rotation(seeds)
    assert [r.angle for r in res] == [0, 90, 0]
    assert fake.calls == [(0, [0, 1, 2]), (90, [1])]


def test_real_texts_converge_at_zero_degrees(tmp_path):
    stats = RotationStats(tmp_path / "s.json")
    res = evolve_with_rotation(hash_frames(["one idea", "another idea"]), stats=stats)
    assert all(r.state == CONVERGED and r.angle == 0 and r.attempts == 1 for r in res)
    assert [r.outcome for r in res] == [CONVERGED, CONVERGED]
    assert stats.successes[0] == 2


def test_outcome_of_a_kept_state():
    assert outcome_of(CONVERGED) == CONVERGED
    assert outcome_of(OSCILLATING) == outcome_of(CHAOTIC) == FAILED_ALL_ROTATIONS
