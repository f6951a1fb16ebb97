"""The reference formulation: the rule on any shape (np.roll neighbours, np.where
selection), oscillation detection in role space, and the reference design's loop, one
frame at a time with its whole history (the benchmark's and the tests' yardstick)."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np

from ..xp import array_module_of, to_numpy
from .common import (
    CHAOTIC,
    CONVERGED,
    DETECT_EVERY,
    DETECT_START,
    FLOW,
    MAX_PERIOD,
    MAX_TICKS,
    MIN_PERIOD,
    OSCILLATING,
    OSCILLATION_FRACTION,
    PUSH,
    ROLE_WINDOW,
    STABILITY_THRESHOLD,
    Evolution,
    OscillationReport,
    check_budget,
)


def _neighbours(frame: Any, xp: ModuleType) -> tuple[Any, Any, Any, Any]:
    up = xp.roll(frame, 1, axis=-2)
    down = xp.roll(frame, -1, axis=-2)
    left = xp.roll(frame, 1, axis=-1)
    right = xp.roll(frame, -1, axis=-1)
    return up, down, left, right


def _extreme_masks(frame: Any, xp: ModuleType) -> tuple[Any, Any, tuple[Any, Any, Any, Any]]:
    n_up, n_down, n_left, n_right = nb = _neighbours(frame, xp)
    is_max = (frame >= n_up) & (frame >= n_down) & (frame >= n_left) & (frame >= n_right)
    is_min = (frame <= n_up) & (frame <= n_down) & (frame <= n_left) & (frame <= n_right)
    return is_max, is_min, nb


def ca_step(frame: Any, xp: ModuleType | None = None) -> Any:
    """One CA tick of a frame or a stack of frames (..., H, W), any H and W.

    Written the reference's way (np.roll neighbours, np.where selection), plus the
    flat-cell rule. Frames should be float32 (the kernel's type).
    """
    xp = xp or array_module_of(frame)
    is_max, is_min, nb = _extreme_masks(frame, xp)
    max_neighbour = xp.max(xp.stack(nb), axis=0)
    one = frame.dtype.type(1)
    delta = xp.zeros_like(frame)
    delta = xp.where(is_max, (one - frame) * PUSH, delta)
    delta = xp.where(is_min, (-one - frame) * PUSH, delta)
    delta = xp.where(~is_max & ~is_min, (max_neighbour - frame) * FLOW, delta)
    delta = xp.where(is_max & is_min, frame.dtype.type(0), delta)  # flat: does not move
    return xp.clip(frame + delta, -one, one)


def cell_roles(frame: Any, xp: ModuleType | None = None) -> Any:
    """Roles of the cells of a frame or stack (..., H, W) as int8: +1 max, -1 min, 0 slope.

    A flat cell (equal to its four neighbours) is both; it counts as a min (-1), as in
    the reference.
    """
    xp = xp or array_module_of(frame)
    is_max, is_min, _ = _extreme_masks(frame, xp)
    roles = xp.zeros(frame.shape, dtype=xp.int8)
    roles[is_max] = 1
    roles[is_min] = -1
    return roles


# --------------------------------------------------------------------------------------
# Oscillation detection in role space.


def periodicity(roles: Any, xp: ModuleType) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """roles (B, T, N) int8 in time order -> (oscillating, period, periodic cell count)."""
    b, t, n = roles.shape
    oscillating = np.zeros(b, dtype=bool)
    period = np.zeros(b, dtype=np.int64)
    count = np.zeros(b, dtype=np.int64)
    if b == 0 or t < MIN_PERIOD + 1:
        return oscillating, period, count
    need = OSCILLATION_FRACTION * n
    changes = (roles[:, 1:] != roles[:, :1]).any(axis=1)  # (B, N): role changes in window
    n_changing = to_numpy(changes.sum(axis=1))
    cand = np.flatnonzero(n_changing >= need)  # fewer changing cells than needed: not osc.
    if cand.size == 0:
        return oscillating, period, count
    if cand.size < b:
        idx = xp.asarray(cand)
        roles, changes = roles[idx], changes[idx]
    periodic = xp.zeros(changes.shape, dtype=bool)
    best_p = np.zeros(cand.size, dtype=np.int64)
    best_n = np.zeros(cand.size, dtype=np.int64)
    for p in range(MIN_PERIOD, min(MAX_PERIOD, t - 1) + 1):
        same = (roles[:, : t - p] == roles[:, p:]).all(axis=1)
        same &= changes
        periodic |= same
        n_p = to_numpy(same.sum(axis=1))
        better = n_p > best_n
        best_p[better] = p
        best_n[better] = n_p[better]
    n_periodic = to_numpy(periodic.sum(axis=1))
    osc = n_periodic >= need
    oscillating[cand] = osc
    count[cand] = n_periodic
    period[cand] = np.where(osc, best_p, 0)
    return oscillating, period, count


def detect_oscillation_roles(roles: Any, xp: ModuleType | None = None) -> list[OscillationReport]:
    """Periodicity of role histories (B, T, H, W) or (T, H, W), time order, oldest first."""
    xp = xp or array_module_of(roles)
    r = roles if roles.ndim == 4 else roles[None]
    b, t = r.shape[:2]
    osc, period, count = periodicity(r.reshape(b, t, -1), xp)
    return [OscillationReport(bool(o), int(p) if o else None, int(c)) for o, p, c in zip(osc, period, count)]


def detect_oscillation(history: Any, window: int = ROLE_WINDOW, xp: ModuleType | None = None) -> OscillationReport:
    """Whether the last ``window`` frames of one evolution history (T, H, W) oscillate."""
    if isinstance(history, (list, tuple)):
        xp = xp or array_module_of(history[0])
        frames = xp.stack(list(history[-window:]))
    else:
        xp = xp or array_module_of(history)
        frames = history[-window:]
    if frames.shape[0] < window:
        return OscillationReport(False, None, 0)
    return detect_oscillation_roles(cell_roles(frames, xp), xp)[0]


# --------------------------------------------------------------------------------------


def evolve_reference(
    frame: Any,
    *,
    max_ticks: int = MAX_TICKS,
    threshold: float = STABILITY_THRESHOLD,
    detect: bool = True,
    xp: ModuleType | None = None,
) -> Evolution:
    """Evolve one frame with np.roll steps, keeping every frame (as the reference does)."""
    check_budget(max_ticks)
    xp = xp or array_module_of(frame)
    f = xp.clip(xp.asarray(frame, dtype=xp.float32), -1, 1)
    history = [f.copy()]
    state, ticks, report = CHAOTIC, max_ticks, None
    for t in range(1, max_ticks + 1):
        old = f
        f = ca_step(f, xp)
        history.append(f.copy())
        if float(xp.abs(f - old).mean()) < threshold:
            state, ticks = CONVERGED, t
            break
        if detect and t >= DETECT_START and t % DETECT_EVERY == 0:
            report = detect_oscillation(history, ROLE_WINDOW, xp)
            if report.oscillating:
                state, ticks = OSCILLATING, t
                break
    decided = report if state == OSCILLATING else None  # the report of the check that decided
    return Evolution(
        attractor=to_numpy(f),
        state=state,
        ticks=ticks,
        history=to_numpy(xp.stack(history)),
        period=decided.period if decided is not None else None,
        oscillating_cells=decided.oscillating_cells if decided is not None else 0,
    )


# --------------------------------------------------------------------------------------


def run_ticks_reference(frame: Any, ticks: int) -> Any:
    """Timing mode of the reference loop: ``ticks`` np.roll steps of one frame."""
    xp = array_module_of(frame)
    f = xp.clip(xp.asarray(frame, dtype=xp.float32), -1, 1)
    for _ in range(ticks):
        f = ca_step(f, xp)
    return f
