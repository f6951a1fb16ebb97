"""Wheeler CA kernel benchmark. Prints `name: value unit` lines only.

- Throughput of the batched kernel on NumPy at batch 1, 64 and 1024, in frame-ticks per
  second, over a fixed 50 ticks with detection and early stopping off (timing mode,
  ``run_ticks``).
- The one-frame-at-a-time reference loop (np.roll, np.where, full history, as the
  reference design does it) against the batched kernel on the same 1024 seed frames:
  over the fixed 50 ticks, and for full evolutions (convergence and oscillation
  detection on, until every frame is decided). Both give bit-identical results.
- With CuPy and a CUDA device: CuPy against NumPy at batch 1024, and the memory bandwidth
  the kernel achieves as a share of the device's peak (bytes counted per elementwise
  pass: each pass reads its inputs and writes its output once).

Run: PYTHONPATH=backend python bench/bench_ca.py
"""

from __future__ import annotations

import time

import numpy as np

from wander.ca.kernel import evolve_batch, evolve_reference, run_ticks, run_ticks_reference
from wander.ca.seed import hash_frames
from wander.ca.xp import cupy_available, get_xp

TICKS = 50
# Bytes each cell-tick moves through memory in the batched kernel: neighbour max/min
# (6 passes x 12 B), two comparisons (2 x 9 B), the update (112 B, see _Batch.update),
# the convergence sum (4 B).
BYTES_PER_CELL_TICK = 6 * 12 + 2 * 9 + 112 + 4


def emit(name: str, value: float, unit: str) -> None:
    print(f"{name}: {value:.4g} {unit}", flush=True)


def best_time(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main() -> None:
    frames = hash_frames([f"bench text {i}" for i in range(1024)])
    np_ = get_xp("numpy")
    run_ticks(frames[:32], 5, xp=np_)  # warm up

    for batch, repeat in ((1, 20), (64, 5), (1024, 2)):
        t = best_time(lambda: run_ticks(frames[:batch], TICKS, xp=np_), repeat)  # noqa: B023 (called at once)
        emit(f"numpy_batch{batch}_{TICKS}ticks_nodetect", batch * TICKS / t, "frame_ticks/s")

    # Reference loop over the same 1024 frames, fixed ticks.
    t0 = time.perf_counter()
    for f in frames:
        run_ticks_reference(f, TICKS)
    t_ref = time.perf_counter() - t0
    t_bat = best_time(lambda: run_ticks(frames, TICKS, xp=np_), 2)
    emit(f"reference_loop_batch1024_{TICKS}ticks_nodetect", 1024 * TICKS / t_ref, "frame_ticks/s")
    emit(f"batched_vs_reference_1024_{TICKS}ticks_nodetect", t_ref / t_bat, "x")

    # Full evolutions: detection on, every frame run until decided.
    t0 = time.perf_counter()
    ref = [evolve_reference(f) for f in frames]
    t_ref_full = time.perf_counter() - t0
    t0 = time.perf_counter()
    bat = evolve_batch(frames, xp=np_)
    t_bat_full = time.perf_counter() - t0
    same = all(
        a.state == b.state and a.ticks == b.ticks and np.array_equal(a.attractor, b.attractor)
        for a, b in zip(ref, bat)
    )
    ticks = sum(r.ticks for r in bat)
    emit("reference_loop_1024_full_evolution", t_ref_full, "s")
    emit("batched_1024_full_evolution", t_bat_full, "s")
    emit("batched_1024_full_evolution_throughput", ticks / t_bat_full, "frame_ticks/s")
    emit("batched_vs_reference_1024_full_evolution", t_ref_full / t_bat_full, "x")
    emit("batched_equals_reference_1024", 1.0 if same else 0.0, "bool")
    emit("mean_ticks_to_decide_1024", ticks / len(bat), "ticks")

    if cupy_available():
        cp = get_xp("cupy")
        gpu_frames = cp.asarray(frames)

        def gpu_run() -> None:
            run_ticks(gpu_frames, TICKS, xp=cp)
            cp.cuda.Stream.null.synchronize()

        gpu_run()
        t_gpu = best_time(gpu_run, 5)
        emit(f"cupy_batch1024_{TICKS}ticks_nodetect", 1024 * TICKS / t_gpu, "frame_ticks/s")
        emit("cupy_vs_numpy_batch1024", t_bat / t_gpu, "x")
        cells_per_s = 1024 * TICKS * frames.shape[1] * frames.shape[2] / t_gpu
        props = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)
        peak = 2 * props["memoryClockRate"] * 1e3 * props["memoryBusWidth"] / 8
        achieved = cells_per_s * BYTES_PER_CELL_TICK
        emit("cupy_achieved_bandwidth", achieved / 1e9, "GB/s")
        emit("cupy_bandwidth_share_of_peak", 100 * achieved / peak, "%")
        t0 = time.perf_counter()
        evolve_batch(gpu_frames, xp=cp)
        emit("cupy_1024_full_evolution", time.perf_counter() - t0, "s")


if __name__ == "__main__":
    main()
