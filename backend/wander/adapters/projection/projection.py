"""The projectors by name: UMAP (umap-learn) or PCA, chosen from WANDER_PROJECTION by the
composition root. The fit itself (normalising, the fit id, placing new loci between refits)
is core's (wander.core.archive.fit); this only picks and makes the projector."""

from __future__ import annotations

from pathlib import Path

from wander.adapters.projection.pca_projector import PcaProjector
from wander.adapters.projection.umap_projector import UmapProjector, warm_up  # umap-learn itself loads on first fit
from wander.core.archive.fit import Projector

MIN_UMAP_POINTS = 12  # below this UMAP's neighbour graph is degenerate: PCA instead
METHODS = ("umap", "pca")


def make_projector(name: str, n_points: int | None = None, numba_cache: Path | None = None) -> Projector:
    """`umap` or `pca` (WANDER_PROJECTION); PCA for a handful of points either way."""
    name = name.lower()
    if name not in METHODS:
        raise ValueError(f"WANDER_PROJECTION: must be umap or pca (got {name!r})")
    if name == "umap" and (n_points is None or n_points >= MIN_UMAP_POINTS):
        return UmapProjector(numba_cache=numba_cache)
    return PcaProjector()


class Projectors:
    """The archivist's projection port (wander.core.archive.ports.Projectors): the projector
    named at start-up, for a given number of points, and UMAP's one-off compilation."""

    def __init__(self, name: str = "umap", numba_cache: Path | None = None):
        self.name = name.lower()
        self.numba_cache = numba_cache
        if self.name not in METHODS:
            raise ValueError(f"WANDER_PROJECTION: must be umap or pca (got {name!r})")

    def for_points(self, n: int | None) -> Projector:
        return make_projector(self.name, n_points=n, numba_cache=self.numba_cache)

    def warm_up(self) -> None:
        """Compile UMAP now (call from a background thread); nothing to do for PCA."""
        if self.name == "umap":
            warm_up(self.numba_cache)
