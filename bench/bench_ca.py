"""Wheeler CA kernel benchmark. Prints `name: value unit` lines only.

- Throughput of the batched kernel on NumPy arrays at batch 1, 64 and 1024, in
  frame-ticks per second, over a fixed 50 ticks with detection and early stopping off
  (timing mode, ``run_ticks``), on its default path: the fused CPU passes (numba,
  ``wander.adapters.ca.numba_passes``) when numba is installed, else the NumPy passes.
- The one-frame-at-a-time reference loop (np.roll, np.where, full history, as the
  reference design does it) against the batched kernel on the same 1024 seed frames:
  over the fixed 50 ticks, and for full evolutions (convergence and oscillation
  detection on, until every frame is decided). All paths give bit-identical results.
  The machine may be shared, so the ratios are measured within one process with the
  runs interleaved: the reference loop runs in four blocks of 256 frames, each followed
  by one run of the batched kernel over all 1024 (and of the NumPy passes, for the
  fixed ticks); the ratio is the reference's total over the batched runs' median (wall
  clock; ``..._cpu_time``: the same in process CPU time, which other jobs disturb less),
  and ``..._min_pair`` is the smallest wall-clock ratio of one block (x4) to the run
  after it.
- With CuPy and a CUDA device: CuPy's default path (one fused CUDA pass per tick,
  ``wander.adapters.ca.cuda_tick``) against the NumPy passes, the fused CPU passes and the
  reference loop at batch 1024, the elementwise passes on CuPy against the same passes on
  NumPy, the memory bandwidth each achieves as a share of the device's peak (bytes
  counted per pass: each pass reads its inputs and writes its output once), and full
  evolutions on CuPy against the reference loop and the fused CPU passes; the results
  are checked bit for bit against the CPU's.

Run: PYTHONPATH=backend python bench/bench_ca.py
"""

from __future__ import annotations

import time

import numpy as np

from wander.adapters.ca.kernel import evolve_batch, evolve_reference, fused_available, run_ticks, run_ticks_reference
from wander.adapters.ca.seed import hash_frames
from wander.adapters.ca.xp import cupy_available, get_xp, to_numpy

TICKS = 50
# Bytes each cell-tick moves through memory in the batched kernel: neighbour max/min
# (6 passes x 12 B), two comparisons (2 x 9 B), the update (112 B, see _Batch.update),
# the convergence sum (4 B).
BYTES_PER_CELL_TICK = 6 * 12 + 2 * 9 + 112 + 4
# The fused CUDA pass reads each cell once (its neighbours come from cache) and writes
# its next value: 8 bytes per cell-tick in timing mode.
BYTES_PER_CELL_TICK_FUSED = 4 + 4


def emit(name: str, value: float, unit: str) -> None:
    print(f"{name}: {value:.4g} {unit}", flush=True)


def best_time(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


class Clock:
    """Wall-clock and process CPU time of one block of work."""

    def __enter__(self) -> Clock:
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall = time.perf_counter() - self.wall
        self.cpu = time.process_time() - self.cpu


def interleaved(reference_block, batched_runs, blocks: int = 4):
    """Reference blocks interleaved with runs of each batched variant.

    ``reference_block(i)`` runs block i of the reference loop; ``batched_runs`` maps a
    name to a function running that variant over the whole batch. Returns the clocks of
    the reference blocks and, per variant, of its runs.
    """
    ref: list[Clock] = []
    runs: dict[str, list[Clock]] = {name: [] for name in batched_runs}
    for i in range(blocks):
        with Clock() as c:
            reference_block(i)
        ref.append(c)
        for name, fn in batched_runs.items():
            with Clock() as c:
                fn()
            runs[name].append(c)
    return ref, runs


def wall(clocks: list[Clock]) -> list[float]:
    return [c.wall for c in clocks]


def emit_ratio(name: str, ref: list[Clock], runs: list[Clock]) -> None:
    """Reference total over the runs' median (wall clock, and process CPU time, which a
    shared machine disturbs less), and the worst block-to-run pair (wall clock)."""
    emit(name, sum(wall(ref)) / float(np.median(wall(runs))), "x")
    emit(f"{name}_cpu_time", sum(c.cpu for c in ref) / float(np.median([c.cpu for c in runs])), "x")
    emit(f"{name}_min_pair", min(len(ref) * r.wall / b.wall for r, b in zip(ref, runs)), "x")


def warm_up_and_batches(frames: np.ndarray, np_) -> None:
    """Whether the fused CPU passes load, and the batched kernel's throughput at batch 1, 64, 1024."""
    t0 = time.perf_counter()
    has_fused = fused_available()  # numba: loads the cached machine code, or compiles it once
    emit("fused_cpu_kernel", 1.0 if has_fused else 0.0, "bool")
    emit("fused_cpu_first_use", time.perf_counter() - t0, "s")
    run_ticks(frames[:32], 5, xp=np_)  # warm up
    run_ticks(frames[:32], 5, xp=np_, fused=False)

    for batch, repeat in ((1, 20), (64, 5), (1024, 2)):
        t = best_time(lambda: run_ticks(frames[:batch], TICKS, xp=np_), repeat)  # noqa: B023 (called at once)
        emit(f"numpy_batch{batch}_{TICKS}ticks_nodetect", batch * TICKS / t, "frame_ticks/s")


def fixed_ticks(frames: np.ndarray, np_, finals: dict[str, np.ndarray]) -> tuple[float, float, float]:
    """Reference loop over the same 1024 frames, fixed ticks, interleaved with the batched
    kernel (default path) and the NumPy passes; their seconds (reference, batched, NumPy
    passes). Leaves each batched variant's final frames in `finals`."""
    block = len(frames) // 4

    def keep(name: str, fn):
        def run() -> None:
            finals[name] = fn()

        return run

    ref_clocks, runs = interleaved(
        lambda i: [run_ticks_reference(f, TICKS) for f in frames[i * block : (i + 1) * block]],
        {
            "batched": keep("batched", lambda: run_ticks(frames, TICKS, xp=np_)),
            "numpy_passes": keep("numpy_passes", lambda: run_ticks(frames, TICKS, xp=np_, fused=False)),
        },
    )
    t_ref = sum(wall(ref_clocks))
    t_bat = float(np.median(wall(runs["batched"])))
    t_np = float(np.median(wall(runs["numpy_passes"])))
    emit(f"reference_loop_batch1024_{TICKS}ticks_nodetect", 1024 * TICKS / t_ref, "frame_ticks/s")
    emit(f"batched_batch1024_{TICKS}ticks_nodetect", 1024 * TICKS / t_bat, "frame_ticks/s")
    emit(f"numpy_passes_batch1024_{TICKS}ticks_nodetect", 1024 * TICKS / t_np, "frame_ticks/s")
    emit_ratio(f"batched_vs_reference_1024_{TICKS}ticks_nodetect", ref_clocks, runs["batched"])
    emit_ratio(f"numpy_passes_vs_reference_1024_{TICKS}ticks_nodetect", ref_clocks, runs["numpy_passes"])
    emit(f"fused_vs_numpy_passes_1024_{TICKS}ticks_nodetect", t_np / t_bat, "x")
    same_ticks = np.array_equal(finals["batched"].view(np.int32), finals["numpy_passes"].view(np.int32))
    emit("batched_equals_numpy_passes_1024_ticks", 1.0 if same_ticks else 0.0, "bool")
    return t_ref, t_bat, t_np


def full_evolutions(frames: np.ndarray, np_) -> tuple[list, float, float]:
    """Full evolutions: detection on, every frame run until decided, interleaved the same
    way; the reference's results and the seconds of the reference and the batched kernel."""
    block = len(frames) // 4
    ref: list = []
    bat_runs: list[list] = []
    ref_full_clocks, full_runs = interleaved(
        lambda i: ref.extend(evolve_reference(f) for f in frames[i * block : (i + 1) * block]),
        {"batched": lambda: bat_runs.append(evolve_batch(frames, xp=np_))},
    )
    bat = bat_runs[-1]
    t_ref_full = sum(wall(ref_full_clocks))
    t_bat_full = float(np.median(wall(full_runs["batched"])))
    same = all(
        a.state == b.state
        and a.ticks == b.ticks
        and np.array_equal(a.attractor.view(np.int32), b.attractor.view(np.int32))
        for a, b in zip(ref, bat)
    )
    ticks = sum(r.ticks for r in bat)
    emit("reference_loop_1024_full_evolution", t_ref_full, "s")
    emit("batched_1024_full_evolution", t_bat_full, "s")
    emit("reference_loop_1024_full_evolution_throughput", ticks / t_ref_full, "frame_ticks/s")
    emit("batched_1024_full_evolution_throughput", ticks / t_bat_full, "frame_ticks/s")
    emit_ratio("batched_vs_reference_1024_full_evolution", ref_full_clocks, full_runs["batched"])
    emit("batched_equals_reference_1024", 1.0 if same else 0.0, "bool")
    emit("mean_ticks_to_decide_1024", ticks / len(bat), "ticks")
    return ref, t_ref_full, t_bat_full


def on_cupy(frames: np.ndarray, finals: dict[str, np.ndarray], cpu: tuple[float, float, float], full: tuple) -> None:
    """CuPy's default path and its elementwise passes against the CPU's figures (`cpu`:
    reference, batched, NumPy passes seconds at fixed ticks; `full`: the reference's full
    evolutions, their seconds and the batched kernel's), checked bit for bit."""
    t_ref, t_bat, t_np = cpu
    ref, t_ref_full, t_bat_full = full
    cp = get_xp("cupy")
    gpu_frames = cp.asarray(frames)

    def gpu_run(fused: bool | None = None):
        def run() -> None:
            finals["cupy" if fused is None else "cupy_passes"] = run_ticks(gpu_frames, TICKS, xp=cp, fused=fused)
            cp.cuda.Stream.null.synchronize()

        return run

    gpu_run()()  # compiles the fused pass (or loads it from CuPy's kernel cache)
    gpu_run(False)()  # and the elementwise passes
    t_gpu = best_time(gpu_run(), 20)
    t_gpu_passes = best_time(gpu_run(False), 5)
    emit(f"cupy_batch1024_{TICKS}ticks_nodetect", 1024 * TICKS / t_gpu, "frame_ticks/s")
    emit("cupy_vs_numpy_batch1024", t_np / t_gpu, "x")  # CuPy's default path (the fused CUDA pass)
    emit("cupy_vs_fused_cpu_batch1024", t_bat / t_gpu, "x")
    emit("cupy_vs_reference_batch1024", t_ref / t_gpu, "x")
    emit(f"cupy_passes_batch1024_{TICKS}ticks_nodetect", 1024 * TICKS / t_gpu_passes, "frame_ticks/s")
    emit("cupy_passes_vs_numpy_batch1024", t_np / t_gpu_passes, "x")  # the same elementwise code on each xp
    same_gpu = all(
        np.array_equal(to_numpy(finals[name]).view(np.int32), finals["batched"].view(np.int32))
        for name in ("cupy", "cupy_passes")
    )
    emit("cupy_equals_numpy_1024_ticks", 1.0 if same_gpu else 0.0, "bool")
    cells_per_s = 1024 * TICKS * frames.shape[1] * frames.shape[2] / t_gpu
    props = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)
    peak = 2 * props["memoryClockRate"] * 1e3 * props["memoryBusWidth"] / 8
    achieved = cells_per_s * BYTES_PER_CELL_TICK_FUSED
    emit("cupy_achieved_bandwidth", achieved / 1e9, "GB/s")
    emit("cupy_bandwidth_share_of_peak", 100 * achieved / peak, "%")
    passes = 1024 * TICKS * frames.shape[1] * frames.shape[2] / t_gpu_passes * BYTES_PER_CELL_TICK
    emit("cupy_passes_bandwidth_share_of_peak", 100 * passes / peak, "%")
    evolve_batch(gpu_frames[:8], xp=cp)  # first use of the detection path's CuPy kernels
    gpu_full: list = []
    t_full = best_time(lambda: gpu_full.append(evolve_batch(gpu_frames, xp=cp)), 3)
    emit("cupy_1024_full_evolution", t_full, "s")
    emit("cupy_vs_reference_1024_full_evolution", t_ref_full / t_full, "x")
    emit("cupy_vs_fused_cpu_1024_full_evolution", t_bat_full / t_full, "x")
    same_full = all(
        a.state == b.state
        and a.ticks == b.ticks
        and a.period == b.period
        and np.array_equal(a.attractor.view(np.int32), b.attractor.view(np.int32))
        for a, b in zip(ref, gpu_full[-1])
    )
    emit("cupy_equals_reference_1024", 1.0 if same_full else 0.0, "bool")


def main() -> None:
    frames = hash_frames([f"bench text {i}" for i in range(1024)])
    np_ = get_xp("numpy")
    warm_up_and_batches(frames, np_)
    finals: dict[str, np.ndarray] = {}
    cpu = fixed_ticks(frames, np_, finals)
    full = full_evolutions(frames, np_)
    if cupy_available():
        on_cupy(frames, finals, cpu, full)


if __name__ == "__main__":
    main()
