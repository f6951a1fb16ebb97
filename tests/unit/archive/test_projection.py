"""The projection port: PCA and UMAP adapters on small data, and transform between refits."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from wander.adapters.projection import projection as proj
from wander.adapters.projection.pca_projector import PcaProjector
from wander.core.archive import fit as core_fit


def clusters(n_per: int = 15, dim: int = 32, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Three well separated clusters of unit vectors and their labels."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(3, dim)) * 4
    x = np.concatenate([c + rng.normal(scale=0.3, size=(n_per, dim)) for c in centres])
    return core_fit.unit(x), np.repeat(np.arange(3), n_per)


def separated(xy: np.ndarray, labels: np.ndarray) -> float:
    """Mean distance between cluster centres over mean spread inside clusters."""
    centres = np.array([xy[labels == k].mean(axis=0) for k in range(3)])
    between = np.mean([np.linalg.norm(centres[i] - centres[j]) for i in range(3) for j in range(i + 1, 3)])
    within = np.mean([np.linalg.norm(xy[labels == k] - centres[k], axis=1).mean() for k in range(3)])
    return between / within


def test_pca_fit_is_normalised_deterministic_and_keeps_clusters_apart():
    x, labels = clusters()
    ids = [f"l{i}" for i in range(len(x))]
    a = core_fit.fit(ids, x, projector=PcaProjector())
    b = core_fit.fit(ids, x, projector=PcaProjector())
    assert a.method == "pca" and a.fit_id == b.fit_id and a.fit_id.startswith("pca-")
    assert np.array_equal(a.xy, b.xy)
    assert np.abs(a.xy).max() == pytest.approx(1.0)
    assert separated(a.xy, labels) > 3
    assert set(a.points()) == set(ids)


def test_umap_adapter_fits_small_data_and_separates_clusters():
    x, labels = clusters()
    # UMAP's compiled code where the app keeps it (the cache folder's numba/), in the folder the
    # suite's processes share (tests/conftest.py; `make test` gives the e2e server the same one,
    # which compiles UMAP as it starts): compiled once per checkout, not in every run of this test
    umap = proj.make_projector("umap", len(x), numba_cache=Path(os.environ["WANDER_CACHE_DIR"]) / "numba")
    fit = core_fit.fit([f"l{i}" for i in range(len(x))], x, seed=3, projector=umap)
    assert fit.method == "umap" and fit.xy.shape == (45, 2)
    assert np.isfinite(fit.xy).all()
    assert separated(fit.xy, labels) > 3


def test_few_points_fall_back_to_pca_and_an_unknown_method_is_refused():
    assert proj.make_projector("umap", 5).name == "pca"
    with pytest.raises(ValueError, match="WANDER_PROJECTION"):
        proj.make_projector("tsne", 100)


def test_the_projectors_port_chooses_by_the_name_it_was_given(tmp_path):
    umap = proj.Projectors("UMAP", numba_cache=tmp_path / "numba")
    assert umap.for_points(proj.MIN_UMAP_POINTS).name == "umap" and umap.for_points(5).name == "pca"
    assert umap.for_points(proj.MIN_UMAP_POINTS).numba_cache == tmp_path / "numba"
    pca = proj.Projectors("pca")
    assert pca.for_points(1000).name == "pca"
    pca.warm_up()  # nothing to compile
    with pytest.raises(ValueError, match="WANDER_PROJECTION"):
        proj.Projectors("tsne")


def test_transform_places_a_new_point_among_its_nearest_fitted_neighbours():
    x, labels = clusters()
    fit = core_fit.fit([f"l{i}" for i in range(len(x))], x, projector=PcaProjector())
    rng = np.random.default_rng(9)
    for k in range(3):
        member = x[labels == k][0]
        new = member + rng.normal(scale=0.01, size=member.shape)
        (p,) = fit.transform(new[None, :])
        dists = [np.linalg.norm(p - fit.xy[labels == j].mean(axis=0)) for j in range(3)]
        assert int(np.argmin(dists)) == k
    # a point the fit already holds lands (almost) where the fit put it
    (p,) = fit.transform(x[:1])
    assert np.linalg.norm(p - fit.xy[0]) < 0.05
