"""The fused CPU path: the numba passes of wander.adapters.ca.numba_passes, loaded once per process
(None without numba), and their driver, which runs each frame on its own for many ticks and
takes back every frame only where a decision needs them all."""

from __future__ import annotations

import logging
import threading
from types import ModuleType
from typing import Any

import numpy as np

from ..xp import backend_name
from . import reference
from .batched import attach_history
from .common import (
    _ABS_ERR,
    _BAND,
    CHAOTIC,
    CONVERGED,
    DETECT_EVERY,
    DETECT_START,
    OSCILLATING,
    ROLE_WINDOW,
    Evolution,
    window_slots,
)

FUSED_CHUNK = 64  # frames per chunk on the fused path: buffers and role ring stay in cache

_fused_lock = threading.Lock()
_fused_state: list[ModuleType | None] = []  # [] until probed, then [module or None]

# A short-lived process (a `wander` command) loads numba only once its CA work pays for it:
# importing numba and loading the passes' machine code costs ~0.8 s of CPU, what the NumPy
# passes spend on ~50 frames of 64 x 64 that converge in ~45 ticks (~1e7 cell-ticks). The
# NumPy passes give the same results, bit for bit.
LOAD_AFTER_CELL_TICKS = 10_000_000
_deferred: list[int] = []  # [] in a process that loads them at first use; else [cell-ticks run on NumPy so far]


def defer_loading() -> None:
    """Load the fused passes only once this process's CA work on NumPy reaches
    LOAD_AFTER_CELL_TICKS (counting the batch at hand); until then a default evolution
    (``fused=None``) takes the NumPy passes. An explicit ``fused=True`` and
    :func:`fused_available` load them at once, as before."""
    if not _deferred:
        _deferred.append(0)


def count_numpy_work(cell_ticks: int) -> None:
    """Add what an evolution on the NumPy passes ran to a deferring process's tally."""
    if _deferred:
        _deferred[0] += int(cell_ticks)


def _deferring(arr: Any, expected_ticks: int) -> bool:
    """Whether a default evolution of ARR takes the NumPy passes without loading numba."""
    if not _deferred or _fused_state:
        return False
    return _deferred[0] + int(np.prod(arr.shape)) * int(expected_ticks) < LOAD_AFTER_CELL_TICKS


def _fused_module(wait: bool = True) -> ModuleType | None:
    """wander.adapters.ca.numba_passes, imported and warmed up once per process; None without numba. WAIT
    False: None while another thread is still loading it (a first start compiles it for
    10-20 s; the NumPy passes give the same results meanwhile)."""
    if not _fused_state:
        if not _fused_lock.acquire(blocking=wait):
            return None
        try:
            if not _fused_state:
                try:
                    from .. import numba_passes as module
                except ImportError:  # numba is not installed: the NumPy passes
                    _fused_state.append(None)
                except RuntimeError as exc:  # numba found no writable place for its cache
                    logging.getLogger(__name__).warning("CA kernel: fused CPU passes off (%s)", exc)
                    _fused_state.append(None)
                else:
                    module.warm_up()  # loads the cached machine code (compiles it once)
                    _fused_state.append(module)
        finally:
            _fused_lock.release()
    return _fused_state[0]


def fused_available() -> bool:
    """Whether the fused CPU passes (numba) can run here; loads them on first call."""
    return _fused_module() is not None


def fused_for(arr: Any, xp: ModuleType, fused: bool | None, expected_ticks: int = DETECT_START) -> ModuleType | None:
    """The fused module when this batch takes the fused CPU path, else None.

    ``fused``: None picks it on NumPy when numba is there; True insists (an error when it
    cannot run); False never. Frames holding NaN always take the NumPy passes, whose
    NaN handling (max/min propagate it) the fused passes do not copy. On CuPy ``fused``
    picks the fused CUDA pass instead (:func:`cuda_pass_for`). In a process that defers
    loading (:func:`defer_loading`), None picks the NumPy passes until the work pays for
    loading numba (EXPECTED_TICKS per frame: the estimate of this batch's work).
    """
    if fused is False or backend_name(xp) != "numpy":
        return None
    if fused is None and _deferring(arr, expected_ticks):
        return None
    module = _fused_module(wait=bool(fused))
    if module is None:
        if fused:
            raise RuntimeError("fused: numba is not importable here")
        return None
    if np.isnan(arr).any():
        return None
    return module


def _is_detection_tick(t: int) -> bool:
    return t >= DETECT_START and t % DETECT_EVERY == 0


def _next_stop(t: int, max_ticks: int, detect: bool, keep_history: bool) -> int:
    """The tick after ``t`` at which the driver next needs every frame in hand."""
    if keep_history:
        return t + 1
    if not detect:
        return max_ticks
    nxt = DETECT_START if t < DETECT_START else (t // DETECT_EVERY + 1) * DETECT_EVERY
    return min(nxt, max_ticks)


def fused_buffers(n: int, h: int, w: int, detect: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Buffers for chunks of up to ``n`` frames, reused from chunk to chunk: two flat
    padded frame buffers (n, (h+2) * (w+2)) and the role ring (n, ROLE_WINDOW, same), or a
    dummy ring without detection. Stale values are harmless: the driver loads each
    chunk's frames, the passes refresh every halo before reading it, and a role window
    is read only after all of its slots were written for the frame at hand."""
    size = (h + 2) * (w + 2)
    P = np.zeros((n, size), dtype=np.float32)
    ring = np.empty((n, ROLE_WINDOW, size), dtype=np.int8) if detect else np.zeros((1, 1, 1), dtype=np.int8)
    return P, np.zeros_like(P), ring


def evolve_chunk_fused(
    frames: np.ndarray,
    fz: ModuleType,
    max_ticks: int,
    threshold: float,
    detect: bool,
    keep_history: bool,
    buffers: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> list[Evolution]:
    """:func:`batched.evolve_chunk` on the fused passes, same decisions in the same order.

    ``fz.advance`` runs each frame on its own, tick after tick, until the next tick at
    which the driver must look at all of them (an oscillation check, the budget, or every
    tick when the history is kept) or until it converges; a frame whose convergence
    estimate is too close to the threshold comes back early and is decided here with the
    reference's own float32 mean, then resumed if it has not converged. At a check the
    role windows go through :func:`reference.periodicity`, as on the other paths.
    """
    n, h, w = frames.shape
    padded = np.arange((h + 2) * (w + 2)).reshape(h + 2, w + 2)  # flat positions
    P, Q = buffers[0][:n], buffers[1][:n]
    P.reshape(n, h + 2, w + 2)[:, 1:-1, 1:-1] = frames
    which = np.zeros(n, dtype=np.int64)  # 0: frame f's current values are P[f], 1: Q[f]
    ticks = np.zeros(n, dtype=np.int64)
    status = np.zeros(n, dtype=np.int64)
    ring = buffers[2][:n] if detect else buffers[2]
    roles_from = DETECT_START - ROLE_WINDOW + 1 if detect else max_ticks + 1
    results: list[Evolution | None] = [None] * n
    blocks: list[tuple[np.ndarray, Any]] = []
    if keep_history:
        blocks.append((np.arange(n), frames.copy()))

    def frame_of(f: int, current: bool = True) -> np.ndarray:
        on_p = (which[f] == 0) == current
        return (P if on_p else Q)[f].reshape(padded.shape)[1:-1, 1:-1]

    def finish(f: int, state: str, t: int, period: int | None = None, osc_cells: int = 0) -> None:
        results[f] = Evolution(
            attractor=frame_of(f).copy(), state=state, ticks=int(t), period=period, oscillating_cells=osc_cells
        )

    active = np.arange(n, dtype=np.int64)
    t = 0
    while active.size:
        t_stop = _next_stop(t, max_ticks, detect, keep_history)
        stop_roles = detect and _is_detection_tick(t_stop)
        todo = active
        while todo.size:
            args = (todo, int(t_stop), int(roles_from), stop_roles, True, float(threshold), _BAND, _ABS_ERR)
            fz.advance(P, Q, h, w, which, ticks, status, ring, *args)
            resume = []
            for f in todo[status[todo] == fz.UNSURE].tolist():
                # as the reference: the difference is a fresh contiguous (h, w) array
                mean = float(np.abs(frame_of(f) - frame_of(f, current=False)).mean())
                if mean < threshold:
                    status[f] = fz.CONVERGED
                else:
                    resume.append(f)
            todo = np.array(resume, dtype=np.int64)
        done = status[active] == fz.CONVERGED
        for f in active[done].tolist():
            finish(f, CONVERGED, ticks[f])
        if keep_history:
            blocks.append((active.copy(), np.stack([frame_of(f) for f in active.tolist()])))
        active = active[~done]
        t = t_stop
        if active.size and detect and _is_detection_tick(t):
            osc, period, count = reference.periodicity(_role_windows(ring, active, t, padded), np)
            for j in np.flatnonzero(osc).tolist():
                finish(int(active[j]), OSCILLATING, t, int(period[j]), int(count[j]))
            active = active[~osc]
        if active.size and t >= max_ticks:
            for f in active.tolist():
                finish(f, CHAOTIC, t)
            active = active[:0]

    if keep_history:
        attach_history(results, blocks)
    return [r for r in results if r is not None]


def _role_windows(ring: np.ndarray, active: np.ndarray, t: int, padded: np.ndarray) -> np.ndarray:
    """The active frames' role windows at check tick ``t`` (interior cells), in time order."""
    slots = np.asarray(window_slots(t))
    inner = padded[1:-1, 1:-1].reshape(-1)
    return ring[active[:, None, None], slots[None, :, None], inner[None, None, :]]


def run_ticks_fused(arr: np.ndarray, ticks: int, fz: ModuleType) -> np.ndarray:
    n, h, w = arr.shape
    P, Q, no_ring = fused_buffers(n, h, w, detect=False)
    P.reshape(n, h + 2, w + 2)[:, 1:-1, 1:-1] = arr
    zeros = [np.zeros(n, dtype=np.int64) for _ in range(3)]
    which, done, status = zeros
    frames = np.arange(n, dtype=np.int64)
    ticks = max(int(ticks), 0)
    fz.advance(P, Q, h, w, which, done, status, no_ring, frames, ticks, ticks + 1, False, False, 0.0, _BAND, _ABS_ERR)
    return (Q if ticks % 2 else P).reshape(n, h + 2, w + 2)[:, 1:-1, 1:-1].copy()
