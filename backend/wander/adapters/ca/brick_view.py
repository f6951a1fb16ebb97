"""What a brick viewer needs of a brick (002's scrub viewer): its outcome and every frame,
quantised to one byte a cell.

A cell's value x in [-1, 1] becomes the byte round((x + 1) * 127.5), so 0 is -1, 255 is +1
and x = byte / 127.5 - 1 within 1/255: the frames of a 50-tick brick take 51 x 4096 bytes
instead of four times that, and a picture of them loses nothing a person can see. The
frames are stacked seed first, row-major, as one run of bytes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .bricks import Brick
from .rotation import evolve_with_rotation, outcome_of
from .seed import hash_frame


@dataclass(frozen=True)
class BrickView:
    state: str  # CONVERGED | OSCILLATING | CHAOTIC: the kept evolution's
    outcome: str  # the rotation retry's: CONVERGED | FAILED_ALL_ROTATIONS
    ticks: int
    angle: int  # the rotation whose evolution was kept
    attempts: int
    cycle_period: int | None  # an oscillating brick's
    divergence_tick: int | None  # where its cycle began (Brick.find_divergence_point)
    height: int
    width: int
    frames: bytes  # (ticks + 1) * height * width quantised cells, seed first

    @property
    def frame_count(self) -> int:
        return len(self.frames) // (self.height * self.width)


def quantise(history: np.ndarray) -> bytes:
    """One byte a cell: round((x + 1) * 127.5), NaN as 0 (the kernel clips before it runs)."""
    h = np.nan_to_num(np.clip(np.asarray(history, dtype=np.float32), -1.0, 1.0))
    return np.rint((h + 1.0) * 127.5).astype(np.uint8).tobytes()


def dequantise(data: bytes, height: int, width: int) -> np.ndarray:
    """The frames (T, height, width) float32 back from :func:`quantise`'s bytes."""
    q = np.frombuffer(data, dtype=np.uint8)
    return (q.astype(np.float32) / np.float32(127.5) - 1.0).reshape(-1, height, width)


def view_of(brick: Brick) -> BrickView:
    meta = brick.metadata
    outcome = meta.get("rotation_outcome")
    if outcome is None:  # a brick saved when the outcome was a flag
        failed = meta.get("failed_all_rotations")
        outcome = outcome_of(brick.state) if failed is None else outcome_of("" if failed else "CONVERGED")
    _, height, width = brick.history.shape
    return BrickView(
        state=brick.state,
        outcome=str(outcome),
        ticks=brick.ticks,
        angle=int(meta.get("rotation_used", 0)),
        attempts=int(meta.get("attempts", 1)),
        cycle_period=brick.cycle_period,
        divergence_tick=brick.find_divergence_point(),
        height=int(height),
        width=int(width),
        frames=quantise(brick.history),
    )


def text_brick(text: str) -> Brick:
    """The brick of a text's hash seed after rotation retry, as `wander memory store` and a
    crystal's attractor picture evolve it (nothing is stored)."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError("text: must be a non-empty string")
    res = evolve_with_rotation(hash_frame(text), keep_history=True)[0]
    meta = {"text": text, "rotation_used": res.angle, "attempts": res.attempts, "rotation_outcome": res.outcome}
    return Brick.from_evolution(res.evolution, meta)


__all__ = ["BrickView", "dequantise", "quantise", "text_brick", "view_of"]
