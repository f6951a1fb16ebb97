"""The large knowledge base's vectors: the bounded distance-band sampler over coarse cells and
the ANN graph's nearest neighbours, on small synthetic corpora (clustered unit vectors)."""

from __future__ import annotations

import numpy as np
import pytest

from wander.adapters.kb.cells import Cells
from wander.adapters.kb.scaled_vectors import ScaledVectors, quantize

LOW, HIGH = 0.3, 0.7


def corpus(n: int = 3000, dim: int = 48, centres: int = 40, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    c = rng.standard_normal((centres, dim)).astype(np.float32)
    m = c[rng.integers(0, centres, n)] + rng.uniform(0.4, 1.2, (n, 1)).astype(np.float32) * rng.standard_normal(
        (n, dim)
    ).astype(np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


@pytest.fixture(scope="module")
def matrix() -> np.ndarray:
    return corpus()


@pytest.fixture(scope="module")
def sv(matrix: np.ndarray) -> ScaledVectors:
    return ScaledVectors.build(matrix, quantized=False, threads=1)


def exact_band(matrix: np.ndarray, v: np.ndarray, low: float = LOW, high: float = HIGH) -> set[int]:
    d = 1.0 - matrix @ v
    return set(np.flatnonzero((d >= low) & (d <= high)).tolist())


def test_draw_holds_only_band_members_with_their_true_distances(sv: ScaledVectors, matrix: np.ndarray) -> None:
    for q in range(0, 300, 7):
        v = matrix[q]
        draw = sv.sample_band(v, LOW, HIGH, 50, (1, q))
        assert len(draw.indices) > 0
        assert set(draw.indices.tolist()) <= exact_band(matrix, v)
        np.testing.assert_allclose(draw.distances, 1.0 - matrix[draw.indices] @ v, atol=1e-5)


def test_draw_is_bounded_by_its_budget_and_k(sv: ScaledVectors, matrix: np.ndarray) -> None:
    for budget in (64, 300, 1000):
        draw = sv.sample_band(matrix[5], LOW, HIGH, 20, (2,), budget=budget)
        assert draw.scanned <= budget
        assert len(draw.indices) <= 20
        assert draw.cells_read <= len(sv.cells.centroids)


def test_same_seed_same_draw_and_another_seed_another(sv: ScaledVectors, matrix: np.ndarray) -> None:
    a = sv.sample_band(matrix[11], LOW, HIGH, 30, (7, 3), budget=500)
    b = sv.sample_band(matrix[11], LOW, HIGH, 30, (7, 3), budget=500)
    c = sv.sample_band(matrix[11], LOW, HIGH, 30, (7, 4), budget=500)
    assert a.indices.tolist() == b.indices.tolist()
    assert a.indices.tolist() != c.indices.tolist()


def test_cells_left_out_hold_no_band_member(sv: ScaledVectors, matrix: np.ndarray) -> None:
    """The bound on a cell's members (centroid angle +- the cell's radius) never drops one;
    a narrow band near the query leaves most cells out."""
    pruned = 0
    for low, high in ((LOW, HIGH), (0.0, 0.2), (0.9, 1.1)):
        for q in range(0, 3000, 97):
            cand, _ = sv.cells.reachable(matrix[q], low, high)
            reachable = set(np.concatenate([sv.cells.cell_members(int(c)) for c in cand]).tolist())
            assert exact_band(matrix, matrix[q], low, high) <= reachable
            pruned += len(sv.cells.centroids) - len(cand)
    assert pruned > 0


def test_an_unbounded_draw_is_the_exact_band(sv: ScaledVectors, matrix: np.ndarray) -> None:
    v = matrix[42]
    draw = sv.sample_band(v, LOW, HIGH, len(matrix), (0,), budget=len(matrix))
    assert set(draw.indices.tolist()) == exact_band(matrix, v)


def test_bounded_draws_recall_the_exact_band(sv: ScaledVectors, matrix: np.ndarray) -> None:
    """Draws of a quarter of the corpus each, over 30 seeds, find 90% of the band."""
    for q in (3, 500, 1700):
        band = exact_band(matrix, matrix[q])
        found: set[int] = set()
        for s in range(30):
            found |= set(sv.sample_band(matrix[q], LOW, HIGH, len(matrix), (s,), budget=750).indices.tolist())
        assert len(found & band) / len(band) >= 0.9


def test_no_band_no_draw(sv: ScaledVectors, matrix: np.ndarray) -> None:
    assert len(sv.sample_band(np.zeros(matrix.shape[1], np.float32), LOW, HIGH, 10, (1,)).indices) == 0
    assert len(sv.sample_band(matrix[0], 1.9, 2.0, 10, (1,)).indices) == 0


def test_nearest_neighbours_recall(sv: ScaledVectors, matrix: np.ndarray) -> None:
    rng = np.random.default_rng(3)
    recalls = []
    for q in rng.choice(len(matrix), 100, replace=False):
        v = matrix[q]
        truth = set(np.argsort(-(matrix @ v))[:10].tolist())
        got = sv.nearest(v, 10)
        assert [s for _, s in got] == sorted((s for _, s in got), reverse=True)
        np.testing.assert_allclose([s for _, s in got], matrix[[i for i, _ in got]] @ v, atol=1e-5)
        recalls.append(len(truth & {i for i, _ in got}) / 10)
    assert np.mean(recalls) >= 0.95


def test_nearest_leaves_out_the_excluded(sv: ScaledVectors, matrix: np.ndarray) -> None:
    first = sv.nearest(matrix[9], 3)
    assert first[0][0] == 9
    again = sv.nearest(matrix[9], 3, exclude=[9])
    assert 9 not in [i for i, _ in again] and len(again) == 3


def test_added_concepts_are_found_and_drawn(matrix: np.ndarray) -> None:
    grown = ScaledVectors.build(matrix[:2000], quantized=False, threads=1)
    new = grown.add(matrix[2000:])
    assert list(new) == list(range(2000, 3000)) and len(grown) == 3000
    assert grown.nearest(matrix[2500], 1)[0][0] == 2500
    v = matrix[2600]
    draw = grown.sample_band(v, LOW, HIGH, 3000, (0,), budget=3000)
    assert set(draw.indices.tolist()) == exact_band(matrix, v)
    assert any(i >= 2000 for i in draw.indices)


def test_added_vectors_of_the_wrong_width_are_refused(sv: ScaledVectors) -> None:
    with pytest.raises(ValueError, match="expected"):
        sv.add(np.zeros((2, 5), np.float32))


def test_saved_and_loaded_it_draws_the_same(tmp_path, matrix: np.ndarray) -> None:
    built = ScaledVectors.build(matrix, threads=1)  # int8 rows, as at scale
    built.save(tmp_path / "kb")
    loaded = ScaledVectors.load(tmp_path / "kb")
    a = built.sample_band(matrix[1], LOW, HIGH, 40, (5,), budget=600)
    b = loaded.sample_band(matrix[1], LOW, HIGH, 40, (5,), budget=600)
    assert a.indices.tolist() == b.indices.tolist()
    assert built.nearest(matrix[1], 5) == loaded.nearest(matrix[1], 5)


def test_int8_rows_keep_cosines_within_a_few_thousandths(matrix: np.ndarray) -> None:
    codes, step = quantize(matrix)
    rows = codes.astype(np.float32) * step[:, None]
    assert np.abs(rows @ matrix[7] - matrix @ matrix[7]).max() < 0.005


def test_cells_of_an_empty_corpus_are_refused() -> None:
    with pytest.raises(ValueError, match="no vectors"):
        Cells.build(np.zeros((0, 8), np.float32))


def test_a_bounded_draw_reads_where_the_band_is(sv: ScaledVectors, matrix: np.ndarray) -> None:
    """The cells' estimate of their band members (their mean's similarity and spread) leads
    the draw to them: band members per member read beat the band's share of the corpus."""
    found = read = in_band = 0
    for q in range(0, 3000, 300):
        draw = sv.sample_band(matrix[q], LOW, HIGH, len(matrix), (q,), budget=600)
        found, read = found + len(draw.indices), read + draw.scanned
        in_band += len(exact_band(matrix, matrix[q]))
    assert found / read >= 1.5 * in_band / (10 * len(matrix))


def test_cells_kept_without_their_sums_get_them_on_load(tmp_path, sv: ScaledVectors, matrix: np.ndarray) -> None:
    sv.save(tmp_path / "kb")
    with np.load(tmp_path / "kb" / "cells.npz") as z:
        old = {k: z[k] for k in ("centroids", "assignment", "member_sims")}
    np.savez(tmp_path / "kb" / "cells.npz", **old)
    loaded = ScaledVectors.load(tmp_path / "kb")
    a = sv.sample_band(matrix[8], LOW, HIGH, 40, (5,), budget=600)
    b = loaded.sample_band(matrix[8], LOW, HIGH, 40, (5,), budget=600)
    assert a.indices.tolist() == b.indices.tolist()
    with np.load(tmp_path / "kb" / "cells.npz") as z:
        assert "sums" in z.files


def test_the_graph_alone_finds_most_nearest_neighbours(sv: ScaledVectors, matrix: np.ndarray) -> None:
    """Without the nearest cells' members, the usearch graph's own hits, re-scored."""
    recalls = []
    for q in range(0, 3000, 30):
        v = matrix[q]
        truth = set(np.argsort(-(matrix @ v))[:10].tolist())
        got = sv.ann.search(v, 10, sv.dots)
        recalls.append(len(truth & {i for i, _ in got}) / 10)
    assert np.mean(recalls) >= 0.9
