"""Projection benchmark (the archive's UMAP and PCA plots). Prints `name: value unit` lines only.

Data: synthetic MiniLM-like vectors (384-d, unit length, 40 Gaussian clusters), so the
figures do not depend on a database; a wander's loci are of this size and shape.

- umap_first_fit_s: the first UMAP fit in a process (numba JIT included, 300 points).
- umap_fit_s at 1k and 5k loci (warm), and PCA at 5k for comparison.
- umap_transform_ms_p50: placing ONE new locus between refits with Wander's transform
  (inverse-distance-weighted mean of its 5 nearest fitted neighbours, against the 5k fit);
  umap_native_transform_ms_p50: umap-learn's own transform of one point (against the 1k
  fit), which re-runs its optimiser.
- memory: peak resident set size of the process, and its growth over the 5k fit.

Run: PYTHONPATH=backend python bench/bench_umap.py
"""

from __future__ import annotations

import resource
import time

import numpy as np

from wander.adapters.projection.pca_projector import PcaProjector
from wander.adapters.projection.umap_projector import UmapProjector, _import_umap
from wander.bootstrap.settings import load_settings
from wander.core.archive import fit as proj

NUMBA_CACHE = load_settings().cache_dir / "numba"  # where `wander serve` keeps UMAP's compiled code


def emit(name: str, value: float, unit: str) -> None:
    print(f"{name}: {value:.4g} {unit}", flush=True)


def data(n: int, dim: int = 384, clusters: int = 40, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(clusters, dim))
    x = centres[rng.integers(0, clusters, n)] + rng.normal(scale=0.8, size=(n, dim))
    return proj.unit(x)


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed(fn) -> tuple[float, object]:
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def main() -> None:
    umap = UmapProjector(numba_cache=NUMBA_CACHE)
    first, _ = timed(lambda: umap.fit(data(300, seed=1)))
    emit("umap_first_fit_s", first, "s")
    fits = {}
    for n in (1000, 5000):
        x = data(n)
        before = rss_mb()
        secs, fits[n] = timed(lambda n=n, x=x: proj.fit([str(i) for i in range(n)], x, projector=umap))
        emit(f"umap_fit_s_{n // 1000}k", secs, "s")
        if n == 5000:
            emit("umap_fit_5k_rss_growth_mb", rss_mb() - before, "MB")
    x5 = data(5000)
    secs, _ = timed(lambda: proj.fit([str(i) for i in range(5000)], x5, projector=PcaProjector()))
    emit("pca_fit_s_5k", secs, "s")
    umap_fit5 = fits[5000]
    new = data(200, seed=7)
    times = []
    for v in new:
        t = time.perf_counter()
        umap_fit5.transform(v[None, :])
        times.append((time.perf_counter() - t) * 1000)
    emit("umap_transform_ms_p50", float(np.percentile(times, 50)), "ms")
    emit("umap_transform_ms_p95", float(np.percentile(times, 95)), "ms")
    # umap-learn's own transform, for comparison (1k fit; a few points: each costs an optimisation)
    lib = _import_umap(NUMBA_CACHE)
    model = lib.UMAP(n_components=2, n_neighbors=15, metric="cosine", random_state=0, n_jobs=1).fit(data(1000))
    model.transform(new[:1])  # compile
    native = []
    for v in new[1:21]:
        t = time.perf_counter()
        model.transform(v[None, :])
        native.append((time.perf_counter() - t) * 1000)
    emit("umap_native_transform_ms_p50", float(np.percentile(native, 50)), "ms")
    emit("peak_rss_mb", rss_mb(), "MB")


if __name__ == "__main__":
    main()
