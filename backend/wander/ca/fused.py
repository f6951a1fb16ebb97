"""Fused CPU passes of the Wheeler CA kernel (numba), used by :mod:`wander.ca.kernel` on NumPy.

The NumPy batched kernel makes about 23 elementwise passes over its buffers per tick and
is bound by memory traffic. Here one compiled pass per frame and tick reads the frame
once and produces, cell by cell and in float32 exactly as the reference does:

- the next frame: ``x + (target - x) * k`` clipped to [-1, 1] (target +1 / -1 / the
  largest neighbour, k 0.35 / 0.35 / 0.20; a flat cell keeps its value);
- when asked, the roles of the current frame (+1 local max, -1 local min or flat,
  0 slope) into one slot of the frame's role ring;

and a second, vectorised pass sums |new - old| (each term the float32 difference, as in
the reference, added in float64) for the convergence test.

Frames are independent, so :func:`advance` evolves one frame after the other, each for
as many ticks as it can (up to a stop tick chosen by the caller: the next oscillation
check or the budget), while the frame stays in the core's cache. It stops a frame early
when the convergence estimate decides: surely converged, or too close to the threshold
to tell (status UNSURE); the caller then decides with the reference's own float32 mean
and resumes the frame if it has not converged. Everything the caller decides (oscillation
from the role ring, the unsure convergence cases, the budget) stays in Python.

Importing this module imports numba; :mod:`wander.ca.kernel` imports it lazily and falls
back to its NumPy passes when numba is missing. Compiled code is cached on disk
(``cache=True``) and :func:`warm_up` loads or compiles it once per process.
"""

from __future__ import annotations

import numpy as np
from numba import njit

ONE = np.float32(1)
MINUS_ONE = np.float32(-1)
PUSH = np.float32(0.35)  # local max / min: fraction of the gap to +1 / -1
FLOW = np.float32(0.20)  # slope: fraction of the gap to the largest neighbour

# Status of a frame after advance().
AT_STOP = 0  # reached the stop tick
CONVERGED = 1  # the estimate says converged at its tick, beyond doubt
UNSURE = 2  # the estimate is too close to the threshold: the caller decides


@njit(cache=True, nogil=True)
def _cell(x, u, d, left, right):  # type: ignore[no-untyped-def]
    """(next value, role) of one cell from its value and its four neighbours (float32).

    Written with selects only, so that loops over it vectorise."""
    mx = u if u >= d else d
    mx = mx if mx >= left else left
    mx = mx if mx >= right else right
    mn = u if u <= d else d
    mn = mn if mn <= left else left
    mn = mn if mn <= right else right
    is_max = x >= mx
    is_min = x <= mn
    extreme = is_max != is_min  # a flat cell is both: it moves by (mx - x) * k == 0
    target = ONE if is_max else MINUS_ONE
    target = target if extreme else mx
    k = PUSH if extreme else FLOW
    y = x + (target - x) * k
    y = min(max(y, MINUS_ONE), ONE)
    role = np.int8(is_max > is_min) - np.int8(is_min)  # a flat cell counts as a min
    return y, role


@njit(cache=True, nogil=True)
def _one(cur, nxt, roles, push, c, up, dn, left, right):  # type: ignore[no-untyped-def]
    """Cell at flat index ``c`` of a frame, from the flat indices of its neighbours."""
    y, r = _cell(cur[c], cur[up], cur[dn], cur[left], cur[right])
    nxt[c] = y
    if push:
        roles[c] = r


@njit(cache=True, nogil=True)
def _wrapped(cur, nxt, roles, push, h, w, i, j):  # type: ignore[no-untyped-def]
    """Cell (i, j) of a flat frame of any size, neighbours wrapping around the edges."""
    row = i * w
    up = ((i - 1) % h) * w + j
    dn = ((i + 1) % h) * w + j
    _one(cur, nxt, roles, push, row + j, up, dn, row + (j - 1) % w, row + (j + 1) % w)


@njit(cache=True, nogil=True)
def _span(x, u, d, left, right, out, roles, push):  # type: ignore[no-untyped-def]
    """The rule over equally long 1-D spans (no wrapping): the vectorised inner loop."""
    if push:
        for k in range(x.shape[0]):
            y, r = _cell(x[k], u[k], d[k], left[k], right[k])
            out[k] = y
            roles[k] = r
    else:
        for k in range(x.shape[0]):
            out[k] = _cell(x[k], u[k], d[k], left[k], right[k])[0]


@njit(cache=True, nogil=True)
def _row(cur, nxt, roles, push, w, i, i_up, i_dn):  # type: ignore[no-untyped-def]
    """Row ``i`` of a flat frame (w >= 3) whose neighbouring rows are ``i_up``, ``i_dn``."""
    c, u, d = i * w, i_up * w, i_dn * w
    _span(
        cur[c + 1 : c + w - 1],
        cur[u + 1 : u + w - 1],
        cur[d + 1 : d + w - 1],
        cur[c : c + w - 2],
        cur[c + 2 : c + w],
        nxt[c + 1 : c + w - 1],
        roles[c + 1 : c + w - 1] if push else roles,
        push,
    )
    _one(cur, nxt, roles, push, c, u, d, c + w - 1, c + 1)
    _one(cur, nxt, roles, push, c + w - 1, u + w - 1, d + w - 1, c + w - 2, c)


@njit(cache=True, nogil=True)
def _step(cur, nxt, roles, push, h, w):  # type: ignore[no-untyped-def]
    """One tick of one flat frame ``cur`` (h * w,) into ``nxt``; with ``push``, the roles
    of ``cur`` into ``roles`` (h * w,) int8. Neighbours wrap around the edges.

    Rows 1..h-2 are one flat span whose up / down / left / right neighbours are the span
    shifted by -w, +w, -1, +1; that is right except in the first and last columns, which
    are then recomputed with wrapping, as are the first and last rows.
    """
    n = h * w
    if h >= 3 and w >= 3:
        lo, hi = w, n - w
        _span(
            cur[lo:hi],
            cur[lo - w : hi - w],
            cur[lo + w : hi + w],
            cur[lo - 1 : hi - 1],
            cur[lo + 1 : hi + 1],
            nxt[lo:hi],
            roles[lo:hi] if push else roles,
            push,
        )
        for i in range(1, h - 1):
            c = i * w
            _one(cur, nxt, roles, push, c, c - w, c + w, c + w - 1, c + 1)
            c += w - 1
            _one(cur, nxt, roles, push, c, c - w, c + w, c - 1, c - w + 1)
        _row(cur, nxt, roles, push, w, 0, h - 1, 1)
        _row(cur, nxt, roles, push, w, h - 1, h - 2, 0)
    else:
        for i in range(h):
            for j in range(w):
                _wrapped(cur, nxt, roles, push, h, w, i, j)


@njit(cache=True, nogil=True)
def _roles(cur, roles, h, w):  # type: ignore[no-untyped-def]
    """Roles of the cells of the flat frame ``cur`` into ``roles`` (no update kept)."""
    for i in range(h):
        for j in range(w):
            c = i * w + j
            up = ((i - 1) % h) * w + j
            dn = ((i + 1) % h) * w + j
            left = i * w + (j - 1) % w
            right = i * w + (j + 1) % w
            roles[c] = _cell(cur[c], cur[up], cur[dn], cur[left], cur[right])[1]


# Reassociation only reorders the float64 additions of this sum (so that it vectorises);
# each term is still the float32 |new - old|. The caller allows for the rounding of any
# summation order (it is far below its error band).
@njit(cache=True, nogil=True, fastmath={"reassoc"})
def _abs_diff_sum(a, b):  # type: ignore[no-untyped-def]
    s = 0.0
    for k in range(a.shape[0]):
        s += abs(a[k] - b[k])
    return s


@njit(cache=True, nogil=True)
def advance(  # type: ignore[no-untyped-def]
    P,
    Q,
    h,
    w,
    which,
    ticks,
    status,
    ring,
    frames,
    t_stop,
    roles_from,
    stop_roles,
    check,
    threshold,
    band,
    abs_err,
):
    """Evolve the frames ``frames`` (indices into the batch) up to tick ``t_stop``.

    Frames are flat, ``P`` and ``Q`` (n, h * w) float32. Frame ``f`` is at tick
    ``ticks[f]``; its current values are in ``P[f]`` when
    ``which[f] == 0``, else in ``Q[f]``, and the other buffer holds the previous frame.
    Each tick t: roles of frame t into ``ring[f, t % window]`` when ``t >= roles_from``,
    frame t + 1 into the other buffer; then, with ``check``, the convergence estimate
    mean |frame t+1 - frame t| against ``threshold`` (error allowance ``band`` relative
    plus ``abs_err``): the frame stops with CONVERGED when it is surely below, UNSURE when
    it is too close to tell. A frame that reaches ``t_stop`` stops with AT_STOP, its roles
    at ``t_stop`` written first when ``stop_roles``. ``ring`` has one row per frame, or a
    single dummy row when ``roles_from`` is beyond every tick run.
    """
    n_cells = h * w
    window = ring.shape[1]
    for q in range(frames.shape[0]):
        f = frames[q]
        t = ticks[f]
        par = which[f]
        st = AT_STOP
        while t < t_stop:
            if par == 0:
                cur = P[f]
                nxt = Q[f]
            else:
                cur = Q[f]
                nxt = P[f]
            if t >= roles_from:
                _step(cur, nxt, ring[f, t % window], True, h, w)
            else:
                _step(cur, nxt, ring[0, 0], False, h, w)
            t += 1
            par = 1 - par
            if check:
                est = _abs_diff_sum(nxt, cur) / n_cells
                err = est * band + abs_err + threshold * band
                if est + err < threshold:
                    st = CONVERGED
                    break
                if abs(est - threshold) <= err:
                    st = UNSURE
                    break
        if st == AT_STOP and stop_roles and t >= roles_from:
            _roles(P[f] if par == 0 else Q[f], ring[f, t % window], h, w)
        ticks[f] = t
        which[f] = par
        status[f] = st


def warm_up() -> None:
    """Load (or compile, the first time) every specialisation the kernel uses."""
    P = np.zeros((1, 9), dtype=np.float32)
    Q = np.zeros_like(P)
    ring = np.zeros((1, 20, 9), dtype=np.int8)
    state = [np.zeros(1, dtype=np.int64) for _ in range(4)]
    which, ticks, status, idx = state
    advance(P, Q, 3, 3, which, ticks, status, ring, idx, 2, 0, True, True, 1e-4, 1e-3, 2.0**-22)
