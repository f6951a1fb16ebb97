"""The automaton's states, thresholds and float32 constants, shared by every implementation
of the kernel, and what an evolution gives back."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

CONVERGED = "CONVERGED"
OSCILLATING = "OSCILLATING"
CHAOTIC = "CHAOTIC"
STATES = (CONVERGED, OSCILLATING, CHAOTIC)

MAX_TICKS = 1000
STABILITY_THRESHOLD = 1e-4
DETECT_START = 50
DETECT_EVERY = 10
ROLE_WINDOW = 20
MIN_PERIOD = 2
MAX_PERIOD = 10
OSCILLATION_FRACTION = 0.01

PUSH = np.float32(0.35)  # local max / min: fraction of the gap to +1 / -1
FLOW = np.float32(0.20)  # slope: fraction of the gap to the largest neighbour
_PUSH_MINUS_FLOW = PUSH - FLOW  # exact in float32 (Sterbenz), and FLOW + it == PUSH
_F32_TWO = np.float32(2)
_I8_ONE = np.int8(1)

# Error allowance of the fast convergence estimate, relative and absolute (on the mean
# |change|); within it the reference computation decides. The true errors are below
# 2.5e-4 relative and 2^-25 absolute.
_BAND = 1e-3
_ABS_ERR = 2.0**-22


@dataclass
class Evolution:
    """Outcome of evolving one frame."""

    attractor: np.ndarray  # final frame (H, W) float32
    state: str  # CONVERGED | OSCILLATING | CHAOTIC
    ticks: int  # ticks run (frame index of the attractor)
    history: np.ndarray | None = None  # (ticks + 1, H, W) float32, seed first, when kept
    period: int | None = None  # for OSCILLATING
    oscillating_cells: int = 0  # periodic cells at the deciding check (OSCILLATING)


@dataclass
class OscillationReport:
    oscillating: bool
    period: int | None
    oscillating_cells: int


def check_budget(max_ticks: int) -> None:
    if int(max_ticks) != max_ticks or max_ticks < 1:
        raise ValueError(f"max_ticks: must be a positive integer, got {max_ticks!r}")


def window_slots(t: int) -> list[int]:
    return [(t - ROLE_WINDOW + 1 + i) % ROLE_WINDOW for i in range(ROLE_WINDOW)]
