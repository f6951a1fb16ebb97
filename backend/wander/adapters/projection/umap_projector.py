"""umap-learn behind the projection port.

The first fit in a process JIT-compiles UMAP's numba code (10-15 s of CPU); `warm_up` does
that once in the background. umap-learn compiles its functions without numba's on-disk
cache, so each process paid that again; `_import_umap` turns the cache on for them (in
Wander's cache folder), and a later process loads the compiled code in a tenth of a second.
The compiled code is the same either way."""

from __future__ import annotations

import logging
import threading
import warnings
from pathlib import Path

import numpy as np

log = logging.getLogger(__name__)
_warm = threading.Event()
_lock = threading.Lock()


def _import_umap(numba_cache: Path | None = None):
    """umap-learn, its compiled code cached in `numba_cache` (Wander's cache folder's numba/,
    passed in by the composition root; numba's own default place when None)."""
    import numba  # before umap, so that its cache folder is ours

    if numba_cache is not None:
        numba_cache.mkdir(parents=True, exist_ok=True)
        numba.config.CACHE_DIR = str(numba_cache)  # type: ignore[attr-defined]  # set from the environment at run time
    warnings.filterwarnings("ignore", module="umap")
    warnings.filterwarnings("ignore", message=".*n_jobs.*")
    import umap

    _cache_compiled_code("umap")
    return umap


def _cache_compiled_code(package: str) -> None:
    """numba's on-disk cache for every jitted function of PACKAGE that was compiled without it
    (numba skips, with a warning, any it cannot cache, and compiles those as before)."""
    import sys

    from numba.core.caching import NullCache
    from numba.core.dispatcher import Dispatcher

    for name, module in list(sys.modules.items()):
        if name == package or name.startswith(package + "."):
            for value in list(vars(module).values()):
                if isinstance(value, Dispatcher) and isinstance(getattr(value, "_cache", None), NullCache):
                    value.enable_caching()


class UmapProjector:
    name = "umap"

    def __init__(self, n_neighbors: int = 15, min_dist: float = 0.1, numba_cache: Path | None = None):
        self.n_neighbors = n_neighbors
        self.min_dist = min_dist
        self.numba_cache = numba_cache

    def fit(self, vectors: np.ndarray, seed: int = 0) -> np.ndarray:
        umap = _import_umap(self.numba_cache)
        x = np.asarray(vectors, dtype=np.float32)
        model = umap.UMAP(
            n_components=2,
            n_neighbors=max(2, min(self.n_neighbors, len(x) - 1)),
            min_dist=self.min_dist,
            metric="cosine",
            random_state=seed,
            n_jobs=1,
            init="spectral" if len(x) > 30 else "random",
        )
        with _lock:  # numba's compilation is not worth racing
            xy = model.fit_transform(x)
        _warm.set()
        return np.asarray(xy, dtype=np.float64)


def warm_up(numba_cache: Path | None = None) -> None:
    """Compile UMAP once (call from a background thread)."""
    if _warm.is_set():
        return
    try:
        rng = np.random.default_rng(0)
        UmapProjector(numba_cache=numba_cache).fit(rng.normal(size=(40, 16)).astype(np.float32))
    except Exception:  # a failed warm-up only means the first real fit pays for it
        log.exception("UMAP warm-up failed")
