"""One fused CUDA pass per tick of the Wheeler CA kernel on CuPy, used by :mod:`wander.adapters.ca.kernel`.

The elementwise CuPy passes launch about 23 kernels per tick and move about 200 bytes
per cell through memory. This raw kernel reads the current frames once and writes, cell
by cell, in float32 exactly as the reference does:

- the next value ``x + (target - x) * k`` clipped to [-1, 1] (target +1 / -1 / the
  largest neighbour, k 0.35 / 0.35 / 0.20; a flat cell keeps its value);
- ``|next - current|``, the convergence test's term, when asked;
- the cell's role (+1 local max, -1 local min or flat, 0 slope) into one slot of the
  role ring, when asked.

Frames use the padded layout of ``_Batch`` ((n, h + 2, w + 2) float32, interior at
[1:-1, 1:-1]), but the torus wraps by index arithmetic, so the halo is never read and
needs no refresh. Every float operation is an explicitly rounded intrinsic
(``__fsub_rn``, ``__fmul_rn``, ``__fadd_rn``), which the compiler may not contract into a
fused multiply-add: the results are bit-identical with the NumPy and numba paths.

CuPy is never imported here: the module is given by the caller (the ``xp`` in use).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

_SOURCE = r"""
extern "C" __global__ void wheeler_tick(
    const float* __restrict__ cur, float* __restrict__ nxt, float* __restrict__ change,
    signed char* __restrict__ ring, const long long n_frames, const int h, const int w,
    const int window, const int slot, const int write_next, const int write_change)
{
    const int cells = h * w;
    const int w2 = w + 2;
    const long long frame_size = (long long)(h + 2) * w2;
    const long long n = n_frames * cells;
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const long long f = i / cells;
        const int rem = (int)(i - f * cells);
        const int r = rem / w + 1;
        const int c = rem - (r - 1) * w + 1;
        const int ru = r > 1 ? r - 1 : h;
        const int rd = r < h ? r + 1 : 1;
        const int cl = c > 1 ? c - 1 : w;
        const int cr = c < w ? c + 1 : 1;
        const float* frame = cur + f * frame_size;
        const int at = r * w2 + c;
        const float x = frame[at];
        const float u = frame[ru * w2 + c];
        const float d = frame[rd * w2 + c];
        const float lf = frame[r * w2 + cl];
        const float rt = frame[r * w2 + cr];
        float mx = u >= d ? u : d;
        mx = mx >= lf ? mx : lf;
        mx = mx >= rt ? mx : rt;
        float mn = u <= d ? u : d;
        mn = mn <= lf ? mn : lf;
        mn = mn <= rt ? mn : rt;
        const bool is_max = x >= mx;
        const bool is_min = x <= mn;
        if (slot >= 0) {
            // a flat cell (both) counts as a min, as in the reference
            ring[(f * window + slot) * cells + rem] = (signed char)((int)(is_max && !is_min) - (int)is_min);
        }
        if (write_next) {
            const bool extreme = is_max != is_min;
            const float target = extreme ? (is_max ? 1.0f : -1.0f) : mx;
            const float k = extreme ? 0.35f : 0.20f;
            float y = __fadd_rn(x, __fmul_rn(__fsub_rn(target, x), k));
            y = y < -1.0f ? -1.0f : (y > 1.0f ? 1.0f : y);
            nxt[f * frame_size + at] = y;
            if (write_change) {
                change[f * frame_size + at] = fabsf(__fsub_rn(y, x));
            }
        }
    }
}
"""

_BLOCK = 256
_kernels: dict[int, Any] = {}  # per CUDA device: the compiled kernel


def _kernel(cp: ModuleType) -> Any:
    device = cp.cuda.Device().id
    if device not in _kernels:
        _kernels[device] = cp.RawKernel(_SOURCE, "wheeler_tick")
    return _kernels[device]


def tick(
    cp: ModuleType,
    cur: Any,
    nxt: Any,
    change: Any,
    ring: Any,
    n_frames: int,
    *,
    role_slot: int = -1,
    write_next: bool = True,
    write_change: bool = True,
) -> None:
    """One tick of the first ``n_frames`` padded frames of ``cur`` (n, h + 2, w + 2) into
    ``nxt`` (same shape); ``|nxt - cur|`` into ``change`` (same layout, flat) with
    ``write_change``; the roles of ``cur`` into ``ring[:, role_slot]`` ((n, window, h, w)
    int8) when ``role_slot >= 0``. ``write_next=False`` writes the roles alone."""
    h, w = cur.shape[1] - 2, cur.shape[2] - 2
    n_cells = n_frames * h * w
    if n_cells == 0:
        return
    window = ring.shape[1] if ring.ndim == 4 else 1
    blocks = min((n_cells + _BLOCK - 1) // _BLOCK, 65535)
    args = (
        cur,
        nxt,
        change,
        ring,
        cp.int64(n_frames),
        cp.int32(h),
        cp.int32(w),
        cp.int32(window),
        cp.int32(role_slot),
        cp.int32(write_next),
        cp.int32(write_change),
    )
    _kernel(cp)((blocks,), (_BLOCK,), args)


def warm_up(cp: ModuleType) -> None:
    """Compile (or load from CuPy's kernel cache) the kernel once."""
    f = cp.zeros((1, 5, 5), dtype=cp.float32)
    ring = cp.zeros((1, 1, 3, 3), dtype=cp.int8)
    tick(cp, f, cp.zeros_like(f), cp.zeros(f.size, dtype=cp.float32), ring, 1, role_slot=0)
    cp.cuda.Stream.null.synchronize()
