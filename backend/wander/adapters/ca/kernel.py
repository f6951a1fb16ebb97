"""The Wheeler 3-state cellular automaton (DESIGN.md section 7), written once against ``xp``.

Update rule, von Neumann neighbours on a torus (edges wrap):

- a cell >= all four neighbours is a local max and moves toward +1 by 0.35 of the gap;
- a cell <= all four neighbours is a local min and moves toward -1 by 0.35 of the gap;
- any other cell (a slope) moves toward its largest neighbour by 0.20 of the gap;
- a cell equal to all four neighbours is flat and does not move;
- the result is clipped to [-1, 1].

In float32: ``new = x + (target - x) * k`` with ``k`` the float32 constants 0.35 / 0.20.

Outcome of an evolution (frame 0 is the seed, tick t produces frame t):

- CONVERGED at tick t when mean |frame_t - frame_{t-1}| < 1e-4 (budget 1000 ticks);
- from tick 50, every 10 ticks (t = 50, 60, ...), the roles of the cells (+1 local max,
  -1 local min, 0 slope; a flat cell counts as a min, as in the reference) over the last
  20 frames (t-19..t) are examined: a cell is periodic when its role sequence repeats
  with some period p in 2..10 and does change within the window; OSCILLATING at tick t
  when at least 1% of the cells are periodic (the reported period is the p shared by most
  periodic cells, the smallest such p on a tie);
- CHAOTIC when the budget runs out.

Convergence is checked before oscillation at the same tick.

Four implementations give bit-identical results:

- :func:`evolve_batch` on NumPy with numba installed (the default there): the fused CPU
  passes of :mod:`wander.adapters.ca.fused`. One compiled pass per frame and tick computes the
  next frame and the roles, a second sums |change|; each frame runs on its own for many
  ticks while it sits in cache, and comes back to this module's driver only where a
  decision needs all frames or the reference's own arithmetic (oscillation checks, the
  budget, a convergence estimate too close to the threshold to tell).
- :func:`evolve_batch` on CuPy (the default there): the driver below with one fused
  CUDA pass per tick (:mod:`wander.adapters.ca.cuda_tick`) in place of the elementwise passes.
- :func:`evolve_batch` on NumPy with ``fused=False`` (or CuPy with ``fused=False``, or
  frames holding NaN): the elementwise passes, B frames at once. Frames
  live in padded (H+2, W+2) buffers so that the four neighbours are plain offsets into
  one flat array (no np.roll, no copies),
  every elementwise pass runs over one contiguous span, the role history is an int8 ring
  buffer of 20 slots, the per-frame convergence sums come from one matrix-vector product
  (with the reference's exact computation only for frames within 0.2% of the threshold),
  and frames that are decided are removed from the active set (compaction), so they stop
  costing work. The batch is processed in chunks that fit in cache on NumPy; on CuPy the
  whole batch is one chunk.
- :func:`evolve_reference`: one frame at a time, np.roll neighbours and np.where
  selection, full history kept, roles recomputed from the last 20 frames at each
  detection tick: the reference design's loop, used by the benchmark and by the tests.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from . import cuda_tick
from .xp import array_module_of, backend_name, get_xp, to_numpy

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


# --------------------------------------------------------------------------------------
# The rule, one step, any shape (..., H, W): the reference formulation.


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


def _periodicity(roles: Any, xp: ModuleType) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
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
    osc, period, count = _periodicity(r.reshape(b, t, -1), xp)
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
# The reference loop: one frame at a time, the reference design's way.


def evolve_reference(
    frame: Any,
    *,
    max_ticks: int = MAX_TICKS,
    threshold: float = STABILITY_THRESHOLD,
    detect: bool = True,
    xp: ModuleType | None = None,
) -> Evolution:
    """Evolve one frame with np.roll steps, keeping every frame (as the reference does)."""
    _check_budget(max_ticks)
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
    osc = state == OSCILLATING and report is not None
    return Evolution(
        attractor=to_numpy(f),
        state=state,
        ticks=ticks,
        history=to_numpy(xp.stack(history)),
        period=report.period if osc else None,
        oscillating_cells=report.oscillating_cells if osc else 0,
    )


# --------------------------------------------------------------------------------------
# The batched kernel.


def _check_budget(max_ticks: int) -> None:
    if int(max_ticks) != max_ticks or max_ticks < 1:
        raise ValueError(f"max_ticks: must be a positive integer, got {max_ticks!r}")


def _as_batch(frames: Any, xp: ModuleType) -> Any:
    if isinstance(frames, (list, tuple)):
        frames = np.stack([to_numpy(f) for f in frames]) if frames else np.zeros((0, 1, 1))
    arr = xp.asarray(frames, dtype=xp.float32)
    if arr.ndim == 2:
        arr = arr[None]
    if arr.ndim != 3:
        raise ValueError(f"frames: expected (B, H, W) or (H, W), got shape {tuple(arr.shape)}")
    if arr.shape[1] < 1 or arr.shape[2] < 1:
        raise ValueError(f"frames: empty frame shape {tuple(arr.shape[1:])}")
    # Clip the seeds: after one step every value lies in [-1, 1] and the rule keeps it
    # there exactly (see _Batch.update), so clipping once is the same as clipping always.
    return xp.clip(arr, -1, 1)


def default_chunk_size(xp: ModuleType) -> int:
    """Frames evolved together: cache-sized chunks on NumPy, the whole batch on CuPy."""
    return 32 if backend_name(xp) == "numpy" else 1 << 30


class _Batch:
    """Buffers for evolving up to ``n`` frames; the first ``m`` rows are the active set.

    Frames are stored padded, (n, H+2, W+2), halo rows and columns holding the wrapped
    edges. In the flat view of that buffer the interior cells of all frames form one span
    [lo, hi) and the four neighbours of the span are the same span shifted by -1, +1,
    -(W+2) and +(W+2). Elementwise passes run over the whole span; the positions of the
    span that are halo cells compute garbage that the next halo refresh overwrites.
    """

    def __init__(self, frames: Any, xp: ModuleType, with_roles: bool):
        self.xp = xp
        n, h, w = frames.shape
        self.n, self.h, self.w = n, h, w
        self.w2 = w + 2
        self.fs = (h + 2) * (w + 2)
        self.lo = self.w2 + 1
        self.P = xp.zeros((n, h + 2, w + 2), dtype=xp.float32)
        self.Q = xp.zeros_like(self.P)
        self.P[:, 1:-1, 1:-1] = frames
        size = n * self.fs
        self.g = xp.zeros(size, dtype=xp.float32)  # |change| per cell, for converged()
        mask = xp.zeros((h + 2, w + 2), dtype=xp.float32)
        mask[1:-1, 1:-1] = 1
        self.mask = mask.reshape(-1)
        self.ring = xp.zeros((n, ROLE_WINDOW, h, w), dtype=xp.int8) if with_roles else None
        self._pass_buffers(size)

    def _pass_buffers(self, size: int) -> None:
        """Scratch buffers of the elementwise passes."""
        xp = self.xp
        self.mx = xp.zeros(size, dtype=xp.float32)
        self.mn = self.g  # the smallest neighbour, then the extreme step, then |change|
        self.k = xp.zeros(size, dtype=xp.float32)
        self.a = xp.empty(size, dtype=xp.bool_)  # local max (>= all four)
        self.b = xp.empty(size, dtype=xp.bool_)  # local min (<= all four)
        self.code = xp.empty(size, dtype=xp.int8)
        self.aux = xp.empty(size, dtype=xp.int8)

    # views --------------------------------------------------------------------------
    def _hi(self, m: int) -> int:
        return m * self.fs - self.lo

    def interior(self, buf: Any, m: int) -> Any:
        return buf[:m, 1:-1, 1:-1]

    def _flat_interior(self, flat: Any, m: int) -> Any:
        return flat[: m * self.fs].reshape(m, self.h + 2, self.w2)[:, 1:-1, 1:-1]

    # one tick -------------------------------------------------------------------------
    def halo(self, m: int) -> None:
        p, h, w = self.P[:m], self.h, self.w
        p[:, 1:-1, 0] = p[:, 1:-1, w]
        p[:, 1:-1, w + 1] = p[:, 1:-1, 1]
        p[:, 0, :] = p[:, h, :]
        p[:, h + 1, :] = p[:, 1, :]

    def extrema(self, m: int) -> None:
        """Largest and smallest neighbour of every cell; local max / min masks."""
        xp, lo, hi, w2 = self.xp, self.lo, self._hi(m), self.w2
        pf = self.P.reshape(-1)
        x = pf[lo:hi]
        up, dn = pf[lo - w2 : hi - w2], pf[lo + w2 : hi + w2]
        lf, rt = pf[lo - 1 : hi - 1], pf[lo + 1 : hi + 1]
        mx, mn = self.mx[lo:hi], self.mn[lo:hi]
        xp.maximum(up, dn, out=mx)
        xp.maximum(mx, lf, out=mx)
        xp.maximum(mx, rt, out=mx)
        xp.minimum(up, dn, out=mn)
        xp.minimum(mn, lf, out=mn)
        xp.minimum(mn, rt, out=mn)
        xp.greater_equal(x, mx, out=self.a[lo:hi])
        xp.less_equal(x, mn, out=self.b[lo:hi])

    def update(self, m: int, first: bool) -> None:
        """Next frames into Q (same layout), from the masks computed by extrema().

        Each cell gets exactly the reference's ``x + (target - x) * k``:

        - ``code`` = +1 on max-only cells, -1 on min-only cells, 0 on slope and flat cells;
        - target = min(max(mx, 2 code - 1), 2 code + 1): +1, -1 or mx respectively (all
          values lie in [-1, 1]); a flat cell has mx == x, so it does not move;
        - k = |code| * (0.35 - 0.20) + 0.20: 0.35 or 0.20 exactly (the difference of the
          two float32 constants is exact, and so is adding it back).

        For x and its neighbours in [-1, 1] the rounded step never overshoots its target,
        so values stay in [-1, 1]; the clip is applied on the first tick only. The step
        ``(target - x) * k`` is left, made absolute, in ``g`` for converged().
        """
        xp, lo, hi = self.xp, self.lo, self._hi(m)
        x = self.P.reshape(-1)[lo:hi]
        y = self.Q.reshape(-1)[lo:hi]
        a, b = self.a[lo:hi], self.b[lo:hi]
        code, aux = self.code[lo:hi], self.aux[lo:hi]
        k, tgt, mx = self.k[lo:hi], self.mn[lo:hi], self.mx[lo:hi]
        xp.subtract(a.view(xp.int8), b.view(xp.int8), out=code)  # +1 max, -1 min, 0 else
        xp.add(code, code, out=aux)
        xp.subtract(aux, _I8_ONE, out=aux)  # 2 code - 1
        k[...] = aux
        xp.maximum(mx, k, out=tgt)
        xp.add(k, _F32_TWO, out=k)  # 2 code + 1
        xp.minimum(tgt, k, out=tgt)
        xp.abs(code, out=aux)
        k[...] = aux
        xp.multiply(k, _PUSH_MINUS_FLOW, out=k)
        xp.add(k, FLOW, out=k)
        xp.subtract(tgt, x, out=tgt)
        xp.multiply(tgt, k, out=tgt)
        xp.add(x, tgt, out=y)
        if first:
            xp.clip(y, -1, 1, out=y)
            xp.subtract(y, x, out=tgt)
        xp.abs(tgt, out=tgt)  # |step| into g (tgt is g)

    def roles_into_ring(self, m: int, slot: int) -> None:
        """Roles of the current frames (from the masks) into ring slot ``slot``."""
        xp = self.xp
        a = self._flat_interior(self.a, m).view(xp.int8)
        b = self._flat_interior(self.b, m).view(xp.int8)
        dst = self.ring[:m, slot]
        xp.subtract(a, b, out=dst)
        dst -= a & b  # flat cells count as minima, as in the reference

    def role_window(self, m: int, t: int) -> Any:
        """The roles of the last ROLE_WINDOW frames of the active set, oldest first."""
        assert self.ring is not None
        return self.ring[:m][:, _window_slots(t)]

    def converged(self, m: int, threshold: float) -> np.ndarray:
        """Per active frame: mean |Q - P| < threshold, decided exactly as the reference.

        update() left |step| over the span in ``g``; |new - old| differs from it by at
        most half an ulp of a value in [-1, 1] per cell (2^-25 on the mean). One
        matrix-vector product with a 0/1 interior mask gives every frame's sum (the halo
        positions hold finite garbage that the mask zeroes), within N * 2^-24 (relative)
        of the exact sum; the reference's pairwise float32 mean is closer still. Frames
        whose estimate is within those errors (taken generously) of the threshold get the
        reference's own computation, on a contiguous copy so that its summation order is
        the reference's; for every other frame the estimate decides the same way.
        """
        xp = self.xp
        n_cells = self.h * self.w
        g = self.g[: m * self.fs].reshape(m, self.fs)
        est = to_numpy(g @ self.mask).astype(np.float64) / n_cells
        err = est * _BAND + _ABS_ERR + threshold * _BAND
        out = est + err < threshold
        unsure = np.flatnonzero(np.abs(est - threshold) <= err)
        if unsure.size:
            new, old = self.interior(self.Q, m), self.interior(self.P, m)
            idx = xp.asarray(unsure)
            d = xp.abs(new[idx] - old[idx])
            means = to_numpy(d.reshape(unsure.size, n_cells).mean(axis=1))
            out[unsure] = means.astype(np.float64) < threshold
        return out

    def swap(self) -> None:
        self.P, self.Q = self.Q, self.P

    def compact(self, keep: np.ndarray, m: int) -> int:
        """Keep the active rows where ``keep`` is true (order preserved); new count."""
        idx = np.flatnonzero(keep)
        k = idx.size
        if k and k < m:
            xi = self.xp.asarray(idx)
            self.P[:k] = self.P[:m][xi]
            if self.ring is not None:
                self.ring[:k] = self.ring[:m][xi]
        return k


class _CudaBatch(_Batch):
    """:class:`_Batch` on CuPy with one fused CUDA pass per tick (:mod:`wander.adapters.ca.cuda_tick`).

    Same buffers and decisions; the torus wraps inside the pass, so there is no halo to
    refresh and no masks to keep. The roles of a tick are written by that tick's update
    pass; when the driver reads the role window before the update (an oscillation check),
    the pending roles are written first by a roles-only pass.
    """

    def __init__(self, frames: Any, xp: ModuleType, with_roles: bool, track_change: bool = True):
        self._cuda = cuda_tick
        self._track_change = track_change
        self._pending_slot = -1
        super().__init__(frames, xp, with_roles)
        self._no_ring = xp.zeros((1, 1, 1, 1), dtype=xp.int8)

    def _pass_buffers(self, size: int) -> None:
        pass  # the fused pass needs no scratch

    def _tick(self, m: int, role_slot: int, write_next: bool) -> None:
        ring = self.ring if self.ring is not None else self._no_ring
        self._cuda.tick(
            self.xp,
            self.P,
            self.Q,
            self.g,
            ring,
            m,
            role_slot=role_slot,
            write_next=write_next,
            write_change=self._track_change,
        )

    def halo(self, m: int) -> None:
        pass

    def extrema(self, m: int) -> None:
        pass

    def roles_into_ring(self, m: int, slot: int) -> None:
        self._pending_slot = slot

    def role_window(self, m: int, t: int) -> Any:
        if self._pending_slot >= 0:
            self._tick(m, self._pending_slot, write_next=False)
            self._pending_slot = -1
        return super().role_window(m, t)

    def update(self, m: int, first: bool) -> None:
        self._tick(m, self._pending_slot, write_next=True)
        self._pending_slot = -1


def _new_batch(frames: Any, xp: ModuleType, with_roles: bool, cuda: bool, track_change: bool = True) -> _Batch:
    return _CudaBatch(frames, xp, with_roles, track_change) if cuda else _Batch(frames, xp, with_roles)


def _window_slots(t: int) -> list[int]:
    return [(t - ROLE_WINDOW + 1 + i) % ROLE_WINDOW for i in range(ROLE_WINDOW)]


def _evolve_chunk(
    frames: Any,
    xp: ModuleType,
    max_ticks: int,
    threshold: float,
    detect: bool,
    keep_history: bool,
    cuda: bool = False,
) -> list[Evolution]:
    n = frames.shape[0]
    eng = _new_batch(frames, xp, with_roles=detect, cuda=cuda)
    results: list[Evolution | None] = [None] * n
    ids = np.arange(n)
    m = n
    blocks: list[tuple[np.ndarray, Any]] = []
    if keep_history:
        blocks.append((ids.copy(), eng.interior(eng.P, m).copy()))
    roles_from = DETECT_START - ROLE_WINDOW + 1

    def finish(rows: np.ndarray, state: str, t: int, period=None, cells=None) -> None:
        att = to_numpy(eng.interior(eng.P, m)[xp.asarray(rows)] if rows.size < m else eng.interior(eng.P, m))
        for j, r in enumerate(rows):
            results[ids[r]] = Evolution(
                attractor=np.array(att[j], copy=True),
                state=state,
                ticks=t,
                period=int(period[j]) if period is not None else None,
                oscillating_cells=int(cells[j]) if cells is not None else 0,
            )

    t = 0
    while m:
        eng.halo(m)
        eng.extrema(m)
        if detect and t >= roles_from:
            eng.roles_into_ring(m, t % ROLE_WINDOW)
        if detect and t >= DETECT_START and t % DETECT_EVERY == 0:
            window = eng.role_window(m, t)
            osc, period, cells = _periodicity(window.reshape(m, ROLE_WINDOW, -1), xp)
            if osc.any():
                rows = np.flatnonzero(osc)
                finish(rows, OSCILLATING, t, period[rows], cells[rows])
                keep = ~osc
                m_new = eng.compact(keep, m)
                ids = ids[keep]
                m = m_new
                if m == 0:
                    break
                eng.extrema(m)  # masks of the compacted set (halo moved with the frames)
        if t >= max_ticks:
            finish(np.arange(m), CHAOTIC, t)
            break
        eng.update(m, first=(t == 0))
        done = eng.converged(m, threshold)
        if keep_history:
            blocks.append((ids.copy(), eng.interior(eng.Q, m).copy()))
        eng.swap()
        t += 1
        if done.any():
            rows = np.flatnonzero(done)
            finish(rows, CONVERGED, t)
            keep = ~done
            m_new = eng.compact(keep, m)
            ids = ids[keep]
            m = m_new

    if keep_history:
        _attach_history(results, blocks)
    return [r for r in results if r is not None]


def _attach_history(results: list[Evolution | None], blocks: list[tuple[np.ndarray, Any]]) -> None:
    host = [(ids, to_numpy(frames)) for ids, frames in blocks]
    for j, ev in enumerate(results):
        assert ev is not None
        frames = []
        for ids, block in host[: ev.ticks + 1]:
            pos = int(np.searchsorted(ids, j))
            frames.append(block[pos])
        ev.history = np.stack(frames)


# --------------------------------------------------------------------------------------
# The fused CPU path: numba passes (wander.adapters.ca.fused) and their driver.

FUSED_CHUNK = 64  # frames per chunk on the fused path: buffers and role ring stay in cache

_fused_lock = threading.Lock()
_fused_state: list[ModuleType | None] = []  # [] until probed, then [module or None]


def _fused_module(wait: bool = True) -> ModuleType | None:
    """wander.adapters.ca.fused, imported and warmed up once per process; None without numba. WAIT
    False: None while another thread is still loading it (a first start compiles it for
    10-20 s; the NumPy passes give the same results meanwhile)."""
    if not _fused_state:
        if not _fused_lock.acquire(blocking=wait):
            return None
        try:
            if not _fused_state:
                try:
                    from . import fused as module
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


def _fused_for(arr: Any, xp: ModuleType, fused: bool | None) -> ModuleType | None:
    """The fused module when this batch takes the fused CPU path, else None.

    ``fused``: None picks it on NumPy when numba is there; True insists (an error when it
    cannot run); False never. Frames holding NaN always take the NumPy passes, whose
    NaN handling (max/min propagate it) the fused passes do not copy. On CuPy ``fused``
    picks the fused CUDA pass instead (:func:`_cuda_pass_for`).
    """
    if fused is False or backend_name(xp) != "numpy":
        return None
    module = _fused_module(wait=bool(fused))
    if module is None:
        if fused:
            raise RuntimeError("fused: numba is not importable here")
        return None
    if np.isnan(arr).any():
        return None
    return module


def _cuda_pass_for(arr: Any, xp: ModuleType, fused: bool | None) -> bool:
    """Whether this batch takes the fused CUDA pass: on CuPy unless ``fused`` is False.
    Frames holding NaN take the elementwise passes, as on NumPy."""
    if fused is False or backend_name(xp) != "cupy":
        return False
    return not bool(xp.isnan(arr).any())


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


def _fused_buffers(n: int, h: int, w: int, detect: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Buffers for chunks of up to ``n`` frames, reused from chunk to chunk: two flat
    padded frame buffers (n, (h+2) * (w+2)) and the role ring (n, ROLE_WINDOW, same), or a
    dummy ring without detection. Stale values are harmless: the driver loads each
    chunk's frames, the passes refresh every halo before reading it, and a role window
    is read only after all of its slots were written for the frame at hand."""
    size = (h + 2) * (w + 2)
    P = np.zeros((n, size), dtype=np.float32)
    ring = np.empty((n, ROLE_WINDOW, size), dtype=np.int8) if detect else np.zeros((1, 1, 1), dtype=np.int8)
    return P, np.zeros_like(P), ring


def _evolve_chunk_fused(
    frames: np.ndarray,
    fz: ModuleType,
    max_ticks: int,
    threshold: float,
    detect: bool,
    keep_history: bool,
    buffers: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> list[Evolution]:
    """:func:`_evolve_chunk` on the fused passes, same decisions in the same order.

    ``fz.advance`` runs each frame on its own, tick after tick, until the next tick at
    which the driver must look at all of them (an oscillation check, the budget, or every
    tick when the history is kept) or until it converges; a frame whose convergence
    estimate is too close to the threshold comes back early and is decided here with the
    reference's own float32 mean, then resumed if it has not converged. At a check the
    role windows go through :func:`_periodicity`, as on the other paths.
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
            slots = np.asarray(_window_slots(t))
            inner = padded[1:-1, 1:-1].reshape(-1)
            window = ring[active[:, None, None], slots[None, :, None], inner[None, None, :]]  # time order
            osc, period, count = _periodicity(window, np)
            for j in np.flatnonzero(osc).tolist():
                finish(int(active[j]), OSCILLATING, t, int(period[j]), int(count[j]))
            active = active[~osc]
        if active.size and t >= max_ticks:
            for f in active.tolist():
                finish(f, CHAOTIC, t)
            active = active[:0]

    if keep_history:
        _attach_history(results, blocks)
    return [r for r in results if r is not None]


def _run_ticks_fused(arr: np.ndarray, ticks: int, fz: ModuleType) -> np.ndarray:
    n, h, w = arr.shape
    P, Q, no_ring = _fused_buffers(n, h, w, detect=False)
    P.reshape(n, h + 2, w + 2)[:, 1:-1, 1:-1] = arr
    zeros = [np.zeros(n, dtype=np.int64) for _ in range(3)]
    which, done, status = zeros
    frames = np.arange(n, dtype=np.int64)
    ticks = max(int(ticks), 0)
    fz.advance(P, Q, h, w, which, done, status, no_ring, frames, ticks, ticks + 1, False, False, 0.0, _BAND, _ABS_ERR)
    return (Q if ticks % 2 else P).reshape(n, h + 2, w + 2)[:, 1:-1, 1:-1].copy()


def evolve_batch(
    frames: Any,
    *,
    max_ticks: int = MAX_TICKS,
    threshold: float = STABILITY_THRESHOLD,
    detect: bool = True,
    keep_history: bool = False,
    xp: ModuleType | None = None,
    chunk_size: int | None = None,
    fused: bool | None = None,
) -> list[Evolution]:
    """Evolve a batch of frames (B, H, W) (or one (H, W)) to their outcomes.

    Returns one :class:`Evolution` per frame, in order, with NumPy arrays. ``detect=False``
    disables the oscillation check (frames then either converge or run out of ticks).
    ``keep_history`` stores every frame of every evolution (for bricks). ``fused``: the
    fused CPU passes (numba) on NumPy, by default when numba is installed, and the fused
    CUDA pass on CuPy; False takes the elementwise passes. Every path gives the same
    results, bit for bit.
    """
    _check_budget(max_ticks)
    xp = xp or get_xp()
    arr = _as_batch(frames, xp)
    b = arr.shape[0]
    fz = _fused_for(arr, xp, fused)
    cuda = _cuda_pass_for(arr, xp, fused)
    chunk = int(chunk_size or (FUSED_CHUNK if fz is not None else default_chunk_size(xp)))
    if chunk < 1:
        raise ValueError(f"chunk_size: must be positive, got {chunk_size!r}")
    out: list[Evolution] = []
    if fz is not None and b:
        buffers = _fused_buffers(min(chunk, b), arr.shape[1], arr.shape[2], detect)
    for s in range(0, b, chunk):
        part = arr[s : s + chunk]
        if fz is not None:
            out.extend(_evolve_chunk_fused(part, fz, max_ticks, threshold, detect, keep_history, buffers))
        else:
            out.extend(_evolve_chunk(part, xp, max_ticks, threshold, detect, keep_history, cuda))
    return out


def evolve(frame: Any, **kwargs: Any) -> Evolution:
    """Evolve one frame (H, W); keyword arguments as :func:`evolve_batch`."""
    return evolve_batch(frame, **kwargs)[0]


def run_ticks(
    frames: Any,
    ticks: int,
    *,
    xp: ModuleType | None = None,
    chunk_size: int | None = None,
    fused: bool | None = None,
) -> Any:
    """Timing mode: exactly ``ticks`` updates of every frame, no detection, no early stop.

    Returns the final frames (B, H, W) as an ``xp`` array. ``fused`` as in
    :func:`evolve_batch` (the fused CPU passes take the whole batch at once).
    """
    xp = xp or get_xp()
    arr = _as_batch(frames, xp)
    fz = _fused_for(arr, xp, fused)
    if fz is not None:
        return _run_ticks_fused(arr, ticks, fz)
    cuda = _cuda_pass_for(arr, xp, fused)
    b = arr.shape[0]
    chunk = int(chunk_size or default_chunk_size(xp))
    out = xp.empty_like(arr)
    for s in range(0, b, chunk):
        eng = _new_batch(arr[s : s + chunk], xp, with_roles=False, cuda=cuda, track_change=False)
        m = eng.n
        for t in range(ticks):
            eng.halo(m)
            eng.extrema(m)
            eng.update(m, first=(t == 0))
            eng.swap()
        out[s : s + m] = eng.interior(eng.P, m)
    return out


def run_ticks_reference(frame: Any, ticks: int) -> Any:
    """Timing mode of the reference loop: ``ticks`` np.roll steps of one frame."""
    xp = array_module_of(frame)
    f = xp.clip(xp.asarray(frame, dtype=xp.float32), -1, 1)
    for _ in range(ticks):
        f = ca_step(f, xp)
    return f


def summarize(results: Sequence[Evolution]) -> dict[str, int]:
    """Counts of each state in a list of evolutions."""
    counts = {s: 0 for s in STATES}
    for r in results:
        counts[r.state] = counts.get(r.state, 0) + 1
    return counts


__all__ = [
    "CHAOTIC",
    "CONVERGED",
    "OSCILLATING",
    "STATES",
    "Evolution",
    "OscillationReport",
    "ca_step",
    "cell_roles",
    "detect_oscillation",
    "detect_oscillation_roles",
    "evolve",
    "evolve_batch",
    "evolve_reference",
    "fused_available",
    "run_ticks",
    "run_ticks_reference",
    "summarize",
]
