"""The approximate index keeps no float32 matrix: int8 rows with a scale each, its domain reach
read from each concept's graph neighbours, and a synthetic table of variants that makes its
concepts when asked."""

from __future__ import annotations

import numpy as np
import pytest

from tests.clustered_vectors import clustered
from wander.adapters.kb.approximate_index import ApproximateIndex
from wander.adapters.kb.concept_table import ListConcepts
from wander.adapters.kb.index import KnowledgeIndex
from wander.adapters.kb.variants import VariantConcepts
from wander.core.engine.ports import KnowledgeConcept

N, DIM, CLUSTERS, DOMAINS = 1500, 24, 12, 6


def corpus() -> tuple[list[KnowledgeConcept], np.ndarray]:
    rng = np.random.default_rng(7)
    m, _ = clustered(rng, N, DIM, CLUSTERS, 0.8)
    doms = rng.integers(0, DOMAINS, N)
    concepts = [
        KnowledgeConcept(
            f"c{i}",
            f"concept {i}",
            f"gloss {i}",
            (f"d{doms[i]}",),
            opposites=(f"concept {i + 1}",) if i % 100 == 0 else (),
            broader=(f"c{i - 1}",) if i % 10 else (),
            source="synthetic",
        )
        for i in range(N)
    ]
    return concepts, m


@pytest.fixture(scope="module")
def both() -> tuple[ApproximateIndex, KnowledgeIndex, np.ndarray]:
    concepts, m = corpus()
    approx = ApproximateIndex(concepts, m)
    exact = KnowledgeIndex(concepts, approx.vectors(np.arange(N)))  # the same (dequantized) vectors
    return approx, exact, m


def test_no_float32_matrix_is_kept(both) -> None:
    approx, _, m = both
    assert not hasattr(approx, "_matrix")
    assert approx.scaled.matrix.dtype == np.int8 and approx.scaled.matrix.shape == (N, DIM)
    cos = np.einsum("ij,ij->i", approx.vectors(np.arange(N)), m)
    assert np.abs(cos - 1.0).max() < 0.005  # 24 dimensions; 384: within 0.002
    assert approx.vector(5) == pytest.approx(approx.vectors(np.array([5]))[0])


def test_domain_reach_from_graph_neighbours_counts_what_the_exact_index_counts(both) -> None:
    approx, exact, _ = both
    for threshold in (0.4, 0.5):
        got, truth = approx.domain_reach(threshold), exact.domain_reach(threshold)
        # the neighbours are a subset of every domain's members: never more (float16 sims: a tie at most)
        assert np.mean(got <= truth) > 0.99
        assert got.sum() > 0.5 * truth.sum() and got.max() >= 2
    i = int(np.argmax(approx.domain_reach(0.5)))
    near = approx.domain_neighbours(i, 0.5)
    assert len(near) == approx.domain_reach(0.5)[i]
    names = {d for d, _, _ in near}
    assert approx.concept(i).domains[0] not in names
    for d, j, s in near:
        assert approx.concept(j).domains[0] == d and s >= 0.5
        assert s == pytest.approx(float(approx.vector(j) @ approx.vector(i)), abs=2e-3)
    assert approx.domain_reach_table() is None


def test_domain_queries_match_the_exact_index(both) -> None:
    approx, exact, _ = both
    for allowed, forbidden in (([], []), (["d1", "d2"], []), ([], ["d3"]), (["d1"], ["d1"]), (["nowhere"], [])):
        assert (approx.domain_mask(allowed, forbidden) == exact.domain_mask(allowed, forbidden)).all()
    assert approx.domain_centroid("d2") == pytest.approx(exact.domain_centroid("d2"), abs=1e-5)
    assert approx.narrower(8) == exact.narrower(8) == [9]
    a, b = approx.opposite_pairs()
    assert {(int(x), int(y)) for x, y in zip(a, b)} >= {(0, 1), (1, 0), (100, 101), (101, 100)}


def test_the_same_band_draw_is_shared_and_cannot_be_changed(both) -> None:
    approx, _, _ = both
    first = approx.sample_band(approx.vector(3), 0.3, 0.7, 64, (1, 2, 7))
    again = approx.sample_band(approx.vector(3), 0.3, 0.7, 64, (1, 2, 7))
    assert first[0] is again[0] and not first[0].flags.writeable


def test_variants_are_made_when_asked_and_found_by_key_and_label() -> None:
    concepts, _ = corpus()
    base = ListConcepts(concepts[:100])
    parents = np.array([3, 3, 50, 99], dtype=np.int32)
    table = VariantConcepts(base, parents)
    assert len(table) == 104
    v = table[101]
    assert v.key == "variant:101" and v.label == "concept 3 #101" and v.domains == concepts[3].domains
    assert v.broader == ("c3",) and table.index_of("variant:101") == 101 and table.index_of("c7") == 7
    assert table.index_of("variant:104") is None and table.index_of("variant:x") is None
    assert table.find_label("concept 3 #101") == 101 and table.find_label("concept 50 #101") is None
    assert table.find_label("concept 50") == 50
    assert table.narrower(3) == [4, 100, 101] and table.narrower(100) == []
    d = base.domain_ids[concepts[50].domains[0]]
    assert 102 in table.members(d).tolist() and (table.primary[100:] == base.primary[parents]).all()
    with pytest.raises(ValueError, match="parent"):
        VariantConcepts(base, np.array([100]))
