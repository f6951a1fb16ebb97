"""Fused CPU passes of the Wheeler CA kernel (numba), used by :mod:`wander.adapters.ca.kernel` on NumPy.

The NumPy batched kernel makes about 23 elementwise passes over its buffers per tick and
is bound by memory traffic. Here one compiled pass per frame and tick reads the frame
once and produces, cell by cell and in float32 exactly as the reference does:

- the next frame: ``x + (target - x) * k`` clipped to [-1, 1] (target +1 / -1 / the
  largest neighbour, k 0.35 / 0.35 / 0.20; a flat cell keeps its value);
- when asked, the roles of the current frame (+1 local max, -1 local min or flat,
  0 slope) into one slot of the frame's role ring;

and a second, vectorised pass sums |new - old| (each term the float32 difference, as in
the reference, added in float64) for the convergence test.

Frames are stored padded and flat, (h + 2) * (w + 2) values each, as in the NumPy
passes: a halo ring holds the wrapped edges, so that the four neighbours of the interior
rows are that span shifted by -(w + 2), +(w + 2), -1 and +1, and the rule runs as one
vectorised loop over it (at the halo positions inside the span it computes values that
the next halo refresh overwrites; the sum and the role windows leave those out).

Frames are independent, so :func:`advance` evolves one frame after the other, each for
as many ticks as it can (up to a stop tick chosen by the caller: the next oscillation
check or the budget), while the frame stays in the core's cache. It stops a frame early
when the convergence estimate decides: surely converged, or too close to the threshold
to tell (status UNSURE); the caller then decides with the reference's own float32 mean
and resumes the frame if it has not converged. Everything the caller decides (oscillation
from the role ring, the unsure convergence cases, the budget) stays in Python.

Importing this module imports numba; :mod:`wander.adapters.ca.kernel` imports it lazily and falls
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
def _halo(buf, h, w):  # type: ignore[no-untyped-def]
    """Refresh the halo of a padded flat frame: the wrapped edges of its interior."""
    w2 = w + 2
    for i in range(1, h + 1):
        r = i * w2
        buf[r] = buf[r + w]  # left halo: the last column
        buf[r + w + 1] = buf[r + 1]  # right halo: the first column
    last, below = h * w2, (h + 1) * w2
    for j in range(w2):
        buf[j] = buf[last + j]  # top halo: the last row
        buf[below + j] = buf[w2 + j]  # bottom halo: the first row


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
def _span_roles(x, u, d, left, right, roles):  # type: ignore[no-untyped-def]
    for k in range(x.shape[0]):
        roles[k] = _cell(x[k], u[k], d[k], left[k], right[k])[1]


@njit(cache=True, nogil=True)
def _step(cur, nxt, roles, push, h, w):  # type: ignore[no-untyped-def]
    """One tick of one padded frame ``cur`` into ``nxt``; with ``push``, the roles of
    ``cur`` into ``roles`` (same padded layout, int8)."""
    w2 = w + 2
    _halo(cur, h, w)
    lo, hi = w2 + 1, h * w2 + w + 1  # first and past-last interior cell
    _span(
        cur[lo:hi],
        cur[lo - w2 : hi - w2],
        cur[lo + w2 : hi + w2],
        cur[lo - 1 : hi - 1],
        cur[lo + 1 : hi + 1],
        nxt[lo:hi],
        roles[lo:hi] if push else roles,
        push,
    )


@njit(cache=True, nogil=True)
def _roles(cur, roles, h, w):  # type: ignore[no-untyped-def]
    """Roles of the cells of the padded frame ``cur`` into ``roles`` (no update)."""
    w2 = w + 2
    _halo(cur, h, w)
    lo, hi = w2 + 1, h * w2 + w + 1
    _span_roles(
        cur[lo:hi],
        cur[lo - w2 : hi - w2],
        cur[lo + w2 : hi + w2],
        cur[lo - 1 : hi - 1],
        cur[lo + 1 : hi + 1],
        roles[lo:hi],
    )


@njit(cache=True, nogil=True)
def _interior_mask(h, w):  # type: ignore[no-untyped-def]
    """1.0 on the interior cells of a padded flat frame, 0.0 on its halo."""
    w2 = w + 2
    mask = np.zeros((h + 2) * w2, dtype=np.float32)
    for i in range(1, h + 1):
        mask[i * w2 + 1 : i * w2 + w + 1] = 1
    return mask


# Reassociation only reorders the float64 additions of this sum (so that it vectorises);
# each term is still the float32 |new - old| (times 1, or times 0 on a halo position).
# The caller allows for the rounding of any summation order (far below its error band).
@njit(cache=True, nogil=True, fastmath={"reassoc"})
def _abs_diff_sum(a, b, mask, h, w):  # type: ignore[no-untyped-def]
    """Sum of |a - b| over the interior cells of two padded frames. Every value of both
    buffers is finite (frames without NaN, halos refreshed copies, the rest outputs of
    the rule or zeros), so the halo positions inside the span add exact zeros."""
    lo, hi = w + 3, h * (w + 2) + w + 1
    x, y, m = a[lo:hi], b[lo:hi], mask[lo:hi]
    s = 0.0
    for k in range(x.shape[0]):
        s += abs(x[k] - y[k]) * m[k]
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

    Frames are padded and flat, ``P`` and ``Q`` (n, (h + 2) * (w + 2)) float32, and so
    are the rows of the role ring ``ring`` (n, window, (h + 2) * (w + 2)) int8. Frame ``f`` is at tick
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
    mask = _interior_mask(h, w)
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
                est = _abs_diff_sum(nxt, cur, mask, h, w) / n_cells
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
    P = np.zeros((1, 25), dtype=np.float32)
    Q = np.zeros_like(P)
    ring = np.zeros((1, 20, 25), dtype=np.int8)
    state = [np.zeros(1, dtype=np.int64) for _ in range(4)]
    which, ticks, status, idx = state
    advance(P, Q, 3, 3, which, ticks, status, ring, idx, 2, 0, True, True, 1e-4, 1e-3, 2.0**-22)
