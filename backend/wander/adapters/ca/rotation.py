"""Rotation retry (seed 002): evolve the seed at 0, 90, 180, 270 degrees.

The first angle that CONVERGES wins. When none does, the best outcome is kept
(OSCILLATING before CHAOTIC, then fewer periodic cells, then the earlier angle) and the
retry's outcome is the state ``FAILED_ALL_ROTATIONS`` (002's "return FAILED_ALL_ROTATIONS");
the kept evolution keeps its own CA state (OSCILLATING or CHAOTIC), which says how it failed. Rotating the seed changes which cells neighbour which,
so the frame takes a different path through state space. The attractor is kept in the
orientation it was evolved in (as in the reference), so the same text always gives the
same attractor.

Per-angle counts (attempts and successes) persist in a JSON file in the memory folder.
Retries are batched: all frames at 0 degrees, then the ones still undecided at 90, ...
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from .kernel import CONVERGED, OSCILLATING, Evolution, evolve_batch
from .xp import array_module_of

ANGLES = (0, 90, 180, 270)
FAILED_ALL_ROTATIONS = "FAILED_ALL_ROTATIONS"
OUTCOMES = (CONVERGED, FAILED_ALL_ROTATIONS)  # the states a rotation retry ends in
STATS_FILE = "rotation_stats.json"


@dataclass
class RotatedEvolution:
    """Outcome of evolving one seed with rotation retry."""

    evolution: Evolution
    angle: int  # the angle whose outcome was kept
    attempts: int  # angles tried
    outcome: str  # CONVERGED (some angle converged) | FAILED_ALL_ROTATIONS (none did)

    @property
    def state(self) -> str:
        return self.evolution.state

    @property
    def ticks(self) -> int:
        return self.evolution.ticks

    @property
    def attractor(self) -> np.ndarray:
        return self.evolution.attractor


def outcome_of(state: str) -> str:
    """The retry's outcome for the CA state it kept: only a failure is kept after every
    angle failed (what an outcome recorded before this state existed is read as)."""
    return CONVERGED if state == CONVERGED else FAILED_ALL_ROTATIONS


def rotate(frames: Any, angle: int) -> Any:
    """Rotate a frame (H, W) or a stack (B, H, W) by a multiple of 90 degrees."""
    if angle % 90:
        raise ValueError(f"angle: must be a multiple of 90, got {angle}")
    k = (angle // 90) % 4
    axes = (-2, -1)
    if k == 0:
        return frames.copy()
    xp = np if isinstance(frames, np.ndarray) else _module(frames)
    return xp.ascontiguousarray(xp.rot90(frames, k=k, axes=axes))


def _module(a: Any) -> ModuleType:
    return array_module_of(a)


def _rank(ev: Evolution) -> tuple[int, int]:
    """Sort key of a failed outcome: lower is better."""
    if ev.state == OSCILLATING:
        return (0, ev.oscillating_cells)
    return (1, 0)


class RotationStats:
    """Per-angle attempt and success counts, persisted as JSON."""

    def __init__(self, path: Path | None = None):
        self.path = path
        self.attempts = {a: 0 for a in ANGLES}
        self.successes = {a: 0 for a in ANGLES}
        if path is not None and path.exists():
            self._load(path)

    def _load(self, path: Path) -> None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return  # unreadable stats are not worth failing a store over; start afresh
        for a in ANGLES:
            entry = data.get("angles", {}).get(str(a), {})
            self.attempts[a] = int(entry.get("attempts", 0))
            self.successes[a] = int(entry.get("successes", 0))

    def record(self, angle: int, success: bool) -> None:
        self.attempts[angle] += 1
        if success:
            self.successes[angle] += 1

    def as_dict(self) -> dict[str, dict[str, int]]:
        return {str(a): {"attempts": self.attempts[a], "successes": self.successes[a]} for a in ANGLES}

    def save(self) -> None:
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        payload = json.dumps({"angles": self.as_dict()}, indent=2)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".rotation-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(payload)
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


def evolve_with_rotation(
    frames: Any,
    *,
    stats: RotationStats | None = None,
    angles: tuple[int, ...] = ANGLES,
    keep_history: bool = False,
    xp: ModuleType | None = None,
    **kwargs: Any,
) -> list[RotatedEvolution]:
    """Evolve seeds (B, H, W) or one (H, W) with rotation retry; one result per seed.

    ``stats`` (optional) records every attempt and is saved at the end. Other keyword
    arguments go to :func:`wander.adapters.ca.kernel.evolve_batch`.
    """
    arr = np.asarray(frames, dtype=np.float32) if isinstance(frames, (list, tuple)) else frames
    if arr.ndim == 2:
        arr = arr[None]
    b = arr.shape[0]
    out: list[RotatedEvolution | None] = [None] * b
    best: list[tuple[Evolution, int, int] | None] = [None] * b
    pending = list(range(b))
    for attempt, angle in enumerate(angles, start=1):
        if not pending:
            break
        batch = arr[pending] if len(pending) < b else arr
        evs = evolve_batch(rotate(batch, angle), keep_history=keep_history, xp=xp, **kwargs)
        still = []
        for i, ev in zip(pending, evs):
            ok = ev.state == CONVERGED
            if stats is not None:
                stats.record(angle, ok)
            if ok:
                out[i] = RotatedEvolution(ev, angle, attempt, CONVERGED)
                continue
            kept = best[i]
            if kept is None or _rank(ev) < _rank(kept[0]):
                best[i] = (ev, angle, attempt)
            still.append(i)
        pending = still
    for i in pending:
        ev, angle, _ = best[i]  # type: ignore[misc]
        out[i] = RotatedEvolution(ev, angle, len(angles), FAILED_ALL_ROTATIONS)
    if stats is not None:
        stats.save()
    return [r for r in out if r is not None]


__all__ = [
    "ANGLES",
    "FAILED_ALL_ROTATIONS",
    "OUTCOMES",
    "STATS_FILE",
    "RotatedEvolution",
    "RotationStats",
    "evolve_with_rotation",
    "rotate",
]
