import numpy as np
import pytest

from wander.core.domain import geometry as g


def test_normalize_rows_and_zero_vector():
    m = g.normalize(np.array([[3.0, 4.0], [0.0, 0.0]]))
    assert np.allclose(m[0], [0.6, 0.8])
    assert np.all(m[1] == 0)


def test_cosine_and_distance():
    assert g.cosine([1, 0], [0, 1]) == pytest.approx(0.0)
    assert g.cosine_distance([1, 0], [-1, 0]) == pytest.approx(2.0)
    assert g.cosine_distance([1, 1], [2, 2]) == pytest.approx(0.0, abs=1e-6)


def test_band_edges_are_inclusive():
    d = np.array([0.29, 0.3, 0.5, 0.7, 0.71])
    assert g.in_band(d).tolist() == [False, True, True, True, False]


def test_band_centrality_peaks_mid_band():
    c = g.band_centrality(np.array([0.3, 0.4, 0.5, 0.7, 0.9]))
    assert c.tolist() == pytest.approx([0.0, 0.5, 1.0, 0.0, 0.0])


def test_midpoint_is_equidistant():
    a, b = g.normalize(np.array([1.0, 0.2, 0.0])), g.normalize(np.array([0.0, 1.0, 0.3]))
    m = g.midpoint(a, b)
    assert g.cosine(m, a) == pytest.approx(g.cosine(m, b))


def test_offset_points_from_b_to_a():
    a, b = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    o = g.offset(a, b)
    assert g.cosine(o, a) > 0 > g.cosine(o, b)


def test_distances_to_and_max_similarity():
    m = g.normalize(np.array([[1.0, 0.0], [0.0, 1.0]]))
    assert g.distances_to(m, np.array([1.0, 0.0])).tolist() == pytest.approx([0.0, 1.0])
    assert g.max_similarity(np.zeros((0, 2)), np.array([1.0, 0.0])) == 0.0
