"""Knowledge-base scale benchmark: the step's candidate generation over 14k, 100k and 1M
concepts, side by side. Prints `name: value unit` lines only.

The 14k corpus is the shipped one (its MiniLM vectors); 100k and 1M are synthetic: each
concept a shipped concept's vector plus Gaussian noise (cosine ~0.8-0.95 to its parent),
re-normalised. Each size's index (kb/scaled_vectors.py: int8 rows, coarse cells, usearch
graph) is built once and kept under the temp folder (wander-kb-scale); later runs load it.
Every size is loaded and measured in a fresh process, so its RSS is its own.

A step here is what the step's distance-band strategy asks of the knowledge base: a seeded
band draw (cosine distance 0.3-0.7 from the current locus, widened to 0.2-0.8 when it
yields too few), the drawn concepts' vectors scored against the attractor and the loci so
far, the best one taken, and its nearest neighbours (the ANN graph's hits and the two
nearest cells' members, re-scored). `exact_scan` is the
whole pass over the rows that the engine's in-memory index makes for the same band, for
comparison. Recall: the ANN's 10 nearest against exact, and the share of drawn concepts
truly in the band (1.0: the draw computes their distances). Each time is given as wall
time and as the step's own CPU time (thread time): on a machine shared with other work
(load_average, the one-minute load at the end of the size's run) the wall time measures
the queue for a core as much as the step.

Run: nice -n 10 .venv/bin/python bench/bench_kb_scale.py [--steps 300] [--sizes 14000,100000,1000000]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from wander.adapters.kb.scaled_vectors import ScaledVectors  # noqa: E402

ROOT = Path(tempfile.gettempdir()) / "wander-kb-scale"
VERSION = 3  # of the synthetic corpora and the index layout: bump to rebuild
SIZES = (14_000, 100_000, 1_000_000)
DRAW = 384  # concepts a step draws from the band (distance_band.DRAW), all of them scored here
NEIGHBOURS = 10
LOW, HIGH = 0.3, 0.7


def name(n: int) -> str:
    return "14k" if n == 14_000 else f"{n // 1000}k" if n < 1_000_000 else f"{n // 1_000_000}m"


def base_vectors() -> np.ndarray:
    """The shipped corpus's vectors (bench/corpus_cache.py), kept here once."""
    path = ROOT / "base.npy"
    if not path.is_file():
        sys.path.insert(0, str(Path(__file__).parent))
        from corpus_cache import load_index

        kb = load_index()
        ROOT.mkdir(parents=True, exist_ok=True)
        np.save(path, kb.vectors(np.arange(len(kb))).astype(np.float32))
    return np.load(path)


def synthetic(base: np.ndarray, n: int, seed: int = 0) -> np.ndarray:
    """N unit vectors: the base's own first, then each a base vector plus noise."""
    if n <= len(base):
        return base[:n].copy()
    rng = np.random.default_rng(seed)
    out = np.empty((n, base.shape[1]), dtype=np.float32)
    out[: len(base)] = base
    for s in range(len(base), n, 100_000):
        m = min(100_000, n - s)
        parents = rng.integers(0, len(base), m)
        scale = rng.uniform(0.35, 0.75, size=(m, 1)).astype(np.float32) / np.sqrt(base.shape[1])
        block = base[parents] + rng.standard_normal((m, base.shape[1]), dtype=np.float32) * scale
        out[s : s + m] = block / np.linalg.norm(block, axis=1, keepdims=True)
    return out


def folder_for(n: int) -> Path:
    key = hashlib.sha1(f"{VERSION}:{n}".encode()).hexdigest()[:10]
    return ROOT / f"{name(n)}-{key}"


def build(n: int) -> None:
    folder = folder_for(n)
    if (folder / "bench.json").is_file():
        return
    base = base_vectors()
    t = time.perf_counter()
    matrix = synthetic(base, n)
    sv = ScaledVectors.build(matrix, threads=2)
    seconds = time.perf_counter() - t
    sv.save(folder)
    (folder / "bench.json").write_text(json.dumps({"build_s": seconds, "rows": n}))


def rss_mb() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def measure(n: int, steps: int, seed: int = 1) -> dict[str, float]:
    folder = folder_for(n)
    t = time.perf_counter()
    sv = ScaledVectors.load(folder)
    load_s = time.perf_counter() - t
    rng = np.random.default_rng(seed)
    times, cpu, drawn, in_band = [], [], 0, 0
    for walk in range(3):
        visited = np.zeros(len(sv), dtype=bool)
        cur = int(rng.integers(len(sv)))
        attractor = sv.rows(np.array([int(rng.integers(len(sv)))]))[0]
        loci = [sv.rows(np.array([cur]))[0]]
        visited[cur] = True
        for step in range(steps // 3):
            t, c = time.perf_counter(), time.thread_time()
            v = loci[-1]
            idx = np.zeros(0, dtype=np.int64)
            for low, high in ((LOW, HIGH), (0.2, 0.8)):
                draw = sv.sample_band(v, low, high, DRAW, (seed, walk, step, 7))
                idx = draw.indices[~visited[draw.indices]]
                if len(idx) >= 8:
                    break
            if len(idx) == 0:
                break
            vec = sv.rows(idx)
            dist = 1.0 - vec @ v
            novelty = 1.0 - (vec @ np.stack(loci[-64:]).T).max(axis=1)
            score = 0.4 * (1.0 - np.abs(dist - 0.5) / 0.2) + 0.3 * (vec @ attractor) + 0.3 * novelty
            best = int(np.argmax(score))
            near = sv.nearest(vec[best], NEIGHBOURS)
            times.append(time.perf_counter() - t)
            cpu.append(time.thread_time() - c)
            drawn += len(draw.indices)
            in_band += int(((draw.distances >= low - 0.003) & (draw.distances <= high + 0.003)).sum())
            cur = int(idx[best])
            visited[cur] = True
            loci.append(vec[best])
            assert near
    rss_after_walk = rss_mb()
    # for comparison: the exact band as a whole pass over the rows, and the ANN's recall
    exact_ms, exact_cpu, recall = [], [], []
    for q in rng.integers(0, len(sv), 20 if len(sv) <= 100_000 else 8):  # a whole pass each
        v = sv.rows(np.array([q]))[0]
        t, c = time.perf_counter(), time.thread_time()
        sims = sv.similarities(v)
        band = np.flatnonzero((sims <= 1 - LOW) & (sims >= 1 - HIGH))
        exact_ms.append(time.perf_counter() - t)
        exact_cpu.append(time.thread_time() - c)
        truth = set(np.argpartition(-sims, NEIGHBOURS)[:NEIGHBOURS].tolist())
        recall.append(len(truth & {i for i, _ in sv.nearest(v, NEIGHBOURS)}) / NEIGHBOURS)
        del band
    ms, cpu_ms = np.array(times) * 1000, np.array(cpu) * 1000
    return {
        "step_p50": float(np.percentile(ms, 50)),
        "step_p95": float(np.percentile(ms, 95)),
        "step_cpu_p50": float(np.percentile(cpu_ms, 50)),
        "step_cpu_p95": float(np.percentile(cpu_ms, 95)),
        "steps": float(len(ms)),
        "memory": rss_after_walk,
        "peak_memory": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "load": load_s,
        "build": json.loads((folder / "bench.json").read_text())["build_s"],
        "exact_scan": float(np.median(exact_ms) * 1000),
        "exact_scan_cpu": float(np.median(exact_cpu) * 1000),
        "load_average": os.getloadavg()[0],
        "nn_recall_at_10": float(np.mean(recall)),
        "band_precision": in_band / max(1, drawn),
        "cells": float(len(sv.cells.centroids)),
    }


UNITS = {
    "step_p50": "ms",
    "step_p95": "ms",
    "step_cpu_p50": "ms",
    "step_cpu_p95": "ms",
    "steps": "",
    "memory": "MB",
    "peak_memory": "MB",
    "load": "s",
    "build": "s",
    "exact_scan": "ms",
    "exact_scan_cpu": "ms",
    "load_average": "",
    "nn_recall_at_10": "",
    "band_precision": "",
    "cells": "",
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--sizes", default=",".join(str(s) for s in SIZES))
    ap.add_argument("--build", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--measure", type=int, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.build:
        build(a.build)
        return
    if a.measure:
        print(json.dumps(measure(a.measure, a.steps)))
        return
    sizes = [int(s) for s in a.sizes.split(",")]
    results = {}
    for n in sizes:
        # each in its own process: a build's peak and one size's RSS do not count for another
        subprocess.run([sys.executable, __file__, "--build", str(n)], check=True)
        out = subprocess.run(
            [sys.executable, __file__, "--measure", str(n), "--steps", str(a.steps)],
            check=True,
            capture_output=True,
            text=True,
        )
        results[n] = json.loads(out.stdout.strip().splitlines()[-1])
    for metric, unit in UNITS.items():
        for n in sizes:
            value = results[n][metric]
            shown = (
                f"{value:.0f}"
                if unit in ("MB", "") and value >= 10
                else f"{value:.3g}"
                if unit == ""
                else f"{value:.1f}"
            )
            print(f"kb_scale_{metric}_{name(n)}: {shown} {unit}".rstrip())


if __name__ == "__main__":
    main()
