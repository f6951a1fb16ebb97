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
  passes of :mod:`wander.adapters.ca.numba_passes`. One compiled pass per frame and tick computes the
  next frame and the roles, a second sums |change|; each frame runs on its own for many
  ticks while it sits in cache, and comes back to its driver (kernel/fused.py) only where a
  decision needs all frames or the reference's own arithmetic (oscillation checks, the
  budget, a convergence estimate too close to the threshold to tell).
- :func:`evolve_batch` on CuPy (the default there): the batched driver (kernel/batched.py)
  with one fused CUDA pass per tick (kernel/cuda.py, :mod:`wander.adapters.ca.cuda_tick`)
  in place of the elementwise passes.
- :func:`evolve_batch` on NumPy with ``fused=False`` (or CuPy with ``fused=False``, or
  frames holding NaN): the elementwise passes of kernel/batched.py, B frames at once. Frames
  live in padded (H+2, W+2) buffers so that the four neighbours are plain offsets into
  one flat array (no np.roll, no copies),
  every elementwise pass runs over one contiguous span, the role history is an int8 ring
  buffer of 20 slots, the per-frame convergence sums come from one matrix-vector product
  (with the reference's exact computation only for frames within 0.2% of the threshold),
  and frames that are decided are removed from the active set (compaction), so they stop
  costing work. The batch is processed in chunks that fit in cache on NumPy; on CuPy the
  whole batch is one chunk.
- :func:`evolve_reference` (kernel/reference.py): one frame at a time, np.roll neighbours
  and np.where selection, full history kept, roles recomputed from the last 20 frames at each
  detection tick: the reference design's loop, used by the benchmark and by the tests.

The states, thresholds and constants they share are in kernel/common.py; this module
chooses the path and keeps the public names.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any

from ..xp import get_xp
from . import batched
from . import fused as fused_driver
from .batched import as_batch
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
    STATES,
    Evolution,
    OscillationReport,
    check_budget,
)
from .cuda import CudaBatch, cuda_pass_for, new_batch
from .fused import fused_available
from .reference import (
    ca_step,
    cell_roles,
    detect_oscillation,
    detect_oscillation_roles,
    evolve_reference,
    run_ticks_reference,
)


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
    check_budget(max_ticks)
    xp = xp or get_xp()
    arr = as_batch(frames, xp)
    b = arr.shape[0]
    fz = fused_driver.fused_for(arr, xp, fused)
    batch = CudaBatch if cuda_pass_for(arr, xp, fused) else batched.Batch
    chunk = int(chunk_size or (fused_driver.FUSED_CHUNK if fz is not None else batched.default_chunk_size(xp)))
    if chunk < 1:
        raise ValueError(f"chunk_size: must be positive, got {chunk_size!r}")
    out: list[Evolution] = []
    if fz is not None and b:
        buffers = fused_driver.fused_buffers(min(chunk, b), arr.shape[1], arr.shape[2], detect)
    for s in range(0, b, chunk):
        part = arr[s : s + chunk]
        if fz is not None:
            out.extend(fused_driver.evolve_chunk_fused(part, fz, max_ticks, threshold, detect, keep_history, buffers))
        else:
            done = batched.evolve_chunk(part, xp, max_ticks, threshold, detect, keep_history, batch)
            fused_driver.count_numpy_work(sum(e.ticks for e in done) * arr.shape[1] * arr.shape[2])
            out.extend(done)
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
    arr = as_batch(frames, xp)
    fz = fused_driver.fused_for(arr, xp, fused, expected_ticks=ticks)
    if fz is not None:
        return fused_driver.run_ticks_fused(arr, ticks, fz)
    fused_driver.count_numpy_work(int(arr.size) * max(int(ticks), 0))
    cuda = cuda_pass_for(arr, xp, fused)
    b = arr.shape[0]
    chunk = int(chunk_size or batched.default_chunk_size(xp))
    out = xp.empty_like(arr)
    for s in range(0, b, chunk):
        eng = new_batch(arr[s : s + chunk], xp, with_roles=False, cuda=cuda, track_change=False)
        m = eng.n
        for t in range(ticks):
            eng.halo(m)
            eng.extrema(m)
            eng.update(m, first=(t == 0))
            eng.swap()
        out[s : s + m] = eng.interior(eng.P, m)
    return out


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
    "DETECT_EVERY",
    "DETECT_START",
    "FLOW",
    "MAX_PERIOD",
    "MAX_TICKS",
    "MIN_PERIOD",
    "OSCILLATION_FRACTION",
    "PUSH",
    "ROLE_WINDOW",
    "STABILITY_THRESHOLD",
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
