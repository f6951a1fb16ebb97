"""The batched kernel on the elementwise passes: B frames at once in padded buffers, the
role history in a ring, convergence sums from one matrix-vector product, decided frames
compacted out of the active set."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np

from ..xp import backend_name, to_numpy
from . import reference
from .common import (
    _ABS_ERR,
    _BAND,
    _F32_TWO,
    _I8_ONE,
    _PUSH_MINUS_FLOW,
    CHAOTIC,
    CONVERGED,
    DETECT_EVERY,
    DETECT_START,
    FLOW,
    OSCILLATING,
    ROLE_WINDOW,
    Evolution,
    window_slots,
)


def as_batch(frames: Any, xp: ModuleType) -> Any:
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
    # there exactly (see Batch.update), so clipping once is the same as clipping always.
    return xp.clip(arr, -1, 1)


def default_chunk_size(xp: ModuleType) -> int:
    """Frames evolved together: cache-sized chunks on NumPy, the whole batch on CuPy."""
    return 32 if backend_name(xp) == "numpy" else 1 << 30


class Batch:
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
        assert self.ring is not None  # a batch made with_roles
        xp = self.xp
        a = self._flat_interior(self.a, m).view(xp.int8)
        b = self._flat_interior(self.b, m).view(xp.int8)
        dst = self.ring[:m, slot]
        xp.subtract(a, b, out=dst)
        dst -= a & b  # flat cells count as minima, as in the reference

    def role_window(self, m: int, t: int) -> Any:
        """The roles of the last ROLE_WINDOW frames of the active set, oldest first."""
        assert self.ring is not None
        return self.ring[:m][:, window_slots(t)]

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


def evolve_chunk(
    frames: Any,
    xp: ModuleType,
    max_ticks: int,
    threshold: float,
    detect: bool,
    keep_history: bool,
    batch: type[Batch] = Batch,
) -> list[Evolution]:
    """A chunk's evolution on the elementwise passes (`batch`: CudaBatch for the fused CUDA
    pass), frames leaving the active set as they are decided."""
    n = frames.shape[0]
    eng = batch(frames, xp, with_roles=detect)
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
            osc, period, cells = reference.periodicity(window.reshape(m, ROLE_WINDOW, -1), xp)
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
        attach_history(results, blocks)
    return [r for r in results if r is not None]


def attach_history(results: list[Evolution | None], blocks: list[tuple[np.ndarray, Any]]) -> None:
    host = [(ids, to_numpy(frames)) for ids, frames in blocks]
    for j, ev in enumerate(results):
        assert ev is not None
        frames = []
        for ids, block in host[: ev.ticks + 1]:
            pos = int(np.searchsorted(ids, j))
            frames.append(block[pos])
        ev.history = np.stack(frames)
