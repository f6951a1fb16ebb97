"""Memory bricks (seed 002): the whole evolution of a memory, seed to attractor.

A brick is saved as one compressed ``.npz``: the stacked history (T+1, H, W) float32 and
a JSON string of metadata (state, ticks, rotation, text, the cycle period of an
oscillating one, ...). Loading never unpickles.

``Brick.find_divergence_point()`` answers 002's question about an OSCILLATING brick: at
which tick did its periodicity begin? It looks at the cells' roles (+1 local max, -1 local
min, 0 slope, as the kernel's detector does), takes the cells that cycle with the brick's
period at the end of the history, and scans back from the end for the last tick whose
roles differ from those one period later: the cycle began on the tick after it.
``first_differing_tick(a, b)`` is another question: where two histories part.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .kernel import OSCILLATING, ROLE_WINDOW, Evolution, cell_roles, detect_oscillation

DEFAULT_TOLERANCE = 1e-6


@dataclass
class Brick:
    history: np.ndarray  # (T+1, H, W) float32, the seed first
    state: str
    ticks: int
    metadata: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.history = np.asarray(self.history, dtype=np.float32)
        if self.history.ndim != 3 or self.history.shape[0] < 1:
            raise ValueError(f"history: expected (T, H, W) with T >= 1, got {self.history.shape}")

    @property
    def attractor(self) -> np.ndarray:
        return self.history[-1]

    @property
    def seed(self) -> np.ndarray:
        return self.history[0]

    def __len__(self) -> int:
        return int(self.history.shape[0])

    def frame_at(self, tick: int) -> np.ndarray:
        if not 0 <= tick < len(self):
            raise IndexError(f"tick: {tick} is outside 0..{len(self) - 1}")
        return self.history[tick]

    @property
    def cycle_period(self) -> int | None:
        """The period of an oscillating brick's cycle, as recorded in its metadata."""
        p = self.metadata.get("cycle_period")
        return int(p) if p is not None else None

    def find_divergence_point(self, period: int | None = None) -> int | None:
        """The tick at which this brick's periodicity began; None when it does not cycle.

        ``period`` defaults to the one in the metadata (``cycle_period``, written for an
        OSCILLATING evolution); an OSCILLATING brick without one gets the kernel's
        detector's period over its last frames. The cells examined are those whose roles,
        over the last ROLE_WINDOW frames, repeat with that period and do change (the cells
        the detector counts as periodic for it). Scanning backwards from the end, the first
        tick t whose roles (of those cells) differ from the roles at t + period ends the
        scan: the cycle began at t + 1. A brick periodic from its seed answers 0.
        """
        if period is None:
            period = self.cycle_period
        if period is None:
            if self.state != OSCILLATING:
                return None
            period = detect_oscillation(self.history).period
            if period is None:
                return None
        if isinstance(period, bool) or not isinstance(period, (int, np.integer)) or period < 1:
            raise ValueError(f"period: must be a whole number of ticks >= 1, got {period!r}")
        period = int(period)
        n = len(self)
        if period >= n:
            return None
        roles = cell_roles(self.history).reshape(n, -1)
        window = roles[-max(ROLE_WINDOW, period + 1) :]
        cycling = (window[:-period] == window[period:]).all(axis=0) & (window[1:] != window[:1]).any(axis=0)
        cells = np.flatnonzero(cycling)
        if cells.size == 0:
            return None
        r = roles[:, cells]
        for t in range(n - period - 1, -1, -1):
            if not np.array_equal(r[t], r[t + period]):
                return t + 1
        return 0

    @classmethod
    def from_evolution(cls, ev: Evolution, metadata: dict[str, Any] | None = None) -> Brick:
        if ev.history is None:
            raise ValueError("evolution: has no history; evolve with keep_history=True")
        meta = dict(metadata or {})
        if ev.period is not None:
            meta.setdefault("cycle_period", ev.period)
            meta.setdefault("oscillating_cells", ev.oscillating_cells)
        return cls(history=ev.history, state=ev.state, ticks=ev.ticks, metadata=meta)

    def save(self, path: str | Path) -> Path:
        """Write the brick atomically as compressed .npz; returns the path."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        meta = json.dumps({"state": self.state, "ticks": self.ticks, "metadata": self.metadata})
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".brick-", suffix=".npz")
        try:
            with os.fdopen(fd, "wb") as f:
                np.savez_compressed(f, history=self.history, meta=np.array(meta))
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return path

    @classmethod
    def load(cls, path: str | Path) -> Brick:
        with np.load(Path(path), allow_pickle=False) as data:
            history = data["history"]
            meta = json.loads(str(data["meta"]))
        return cls(history=history, state=meta["state"], ticks=int(meta["ticks"]), metadata=meta["metadata"])


def _history(b: Brick | np.ndarray) -> np.ndarray:
    return b.history if isinstance(b, Brick) else np.asarray(b)


def first_differing_tick(
    brick_a: Brick | np.ndarray, brick_b: Brick | np.ndarray, tolerance: float = DEFAULT_TOLERANCE
) -> int | None:
    """First tick at which two histories differ by more than ``tolerance`` in some cell.

    When one history is a prefix of the other (within tolerance), the answer is the tick
    where the shorter one ends and the longer goes on. None when they are the same.
    """
    ha, hb = _history(brick_a), _history(brick_b)
    if ha.shape[1:] != hb.shape[1:]:
        raise ValueError(f"bricks: frame shapes differ, {ha.shape[1:]} vs {hb.shape[1:]}")
    n = min(len(ha), len(hb))
    diff = np.abs(ha[:n] - hb[:n]).reshape(n, -1).max(axis=1) > tolerance
    hits = np.flatnonzero(diff)
    if hits.size:
        return int(hits[0])
    if len(ha) != len(hb):
        return n
    return None


__all__ = ["Brick", "first_differing_tick"]
