"""The distance band over a knowledge base that draws its band (ports.BandSampler): the
strategy scores a bounded seeded draw instead of every concept, keeps to the band, and a
replay (same seed, same step) puts forward the same candidates."""

from __future__ import annotations

import numpy as np
import pytest

from tests.clustered_vectors import clustered
from wander.adapters.kb.approximate_index import ApproximateIndex
from wander.adapters.kb.index import KnowledgeIndex
from wander.core.domain.models import Locus, Session, SourceType
from wander.core.engine.adjacency import distance_band as band
from wander.core.engine.ports import BandSampler, KnowledgeConcept, WalkState
from wander.core.engine.walk import Walk

N, DIM, CLUSTERS = 2000, 24, 10


def corpus() -> tuple[list[KnowledgeConcept], np.ndarray]:
    m, which = clustered(np.random.default_rng(4), N, DIM, CLUSTERS, 0.9)
    concepts = [
        KnowledgeConcept(f"c{i}", f"concept {i}", f"gloss {i}", (f"d{which[i]}",), source="synthetic") for i in range(N)
    ]
    return concepts, m


@pytest.fixture(scope="module")
def kb() -> ApproximateIndex:
    concepts, m = corpus()
    return ApproximateIndex(concepts, m)


def make_walk(kb: KnowledgeIndex, random_seed: int = 3, at: int = 0) -> Walk:
    v = kb.vector(at)
    session = Session(
        id="s",
        project_id="p",
        name="w",
        seed_concept="concept 0",
        seed_embedding=kb.vector(0),
        attractor="concept 1",
        attractor_embedding=kb.vector(1),
        max_drift_distance=2.0,
        max_steps=100,
        step_count=5,
        random_seed=random_seed,
        current_locus_id=f"l{at}",
    )
    locus = Locus(
        id=f"l{at}",
        session_id="s",
        concept=f"concept {at}",
        embedding=v,
        source_type=SourceType.SEED,
        domains=list(kb.concept(at).domains),
        kb_key=f"c{at}",
    )
    return Walk(WalkState(session=session, loci=[locus], recent_themes=[]), kb)


def test_only_the_large_index_draws_its_band(kb: ApproximateIndex) -> None:
    concepts, m = corpus()
    assert isinstance(kb, BandSampler)
    assert not isinstance(KnowledgeIndex(concepts, m), BandSampler)


def test_the_band_is_drawn_not_scanned_and_kept_to(kb: ApproximateIndex, monkeypatch: pytest.MonkeyPatch) -> None:
    walk = make_walk(kb)
    asked: list[int] = []
    real = type(kb).sample_band

    def counting(self, v, low, high, k, seed):
        asked.append(k)
        return real(self, v, low, high, k, seed)

    monkeypatch.setattr(type(kb), "similarities", lambda self, v: pytest.fail("a whole pass over the corpus"))
    monkeypatch.setattr(type(kb), "sample_band", counting)
    found = [c for c in band.distance_band(walk) if c.locus_id is None]
    assert found and asked and all(k == band.DRAW for k in asked)
    here = kb.vector(0)
    for c in found:
        i = kb.index_of(c.kb_key)
        assert i is not None and i != 0
        exact = 1.0 - float(kb.vector(i) @ here)
        assert 0.3 - 1e-6 <= exact <= 0.7 + 1e-6
        assert c.distance == pytest.approx(exact, abs=1e-5)
        # the reason names the drawn distance to two places (from the int8 rows, to the
        # locus's unit direction: within a rounding and the rows' quantization)
        assert float(c.reason.split("cosine distance ")[1].split()[0]) == pytest.approx(exact, abs=0.008)


def test_a_replay_puts_forward_the_same_candidates(kb: ApproximateIndex) -> None:
    first = [(c.kb_key, c.reason) for c in band.distance_band(make_walk(kb, random_seed=3))]
    again = [(c.kb_key, c.reason) for c in band.distance_band(make_walk(kb, random_seed=3))]
    other = [(c.kb_key, c.reason) for c in band.distance_band(make_walk(kb, random_seed=4))]
    assert first == again
    assert first != other


def test_nearest_comes_from_the_graph_with_exact_similarities(kb: ApproximateIndex) -> None:
    v = 2.0 * kb.vector(17)  # the port's similarity is the row's dot product with v, as in the exact index
    got = kb.nearest(v, 5)
    exact = KnowledgeIndex([kb.concept(i) for i in range(len(kb))], kb.vectors(np.arange(len(kb)))).nearest(v, 5)
    assert got[0][0] == 17 and got[0][1] == pytest.approx(2.0, abs=1e-3)  # int8 rows: unit within 1e-4
    assert len({i for i, _ in got} & {i for i, _ in exact}) >= 4


def test_added_concepts_join_the_walk_of_a_new_wander() -> None:
    concepts, m = corpus()
    small = ApproximateIndex(concepts[:1500], m[:1500])
    grown = small.grown(concepts[1500:], m[1500:])
    assert len(grown) == N and len(small) == 1500
    assert grown.index_of("c1700") == 1700 and grown.nearest(m[1700], 1)[0][0] == 1700
    # the index a wander under way holds never answers with a concept it does not have
    assert all(i < 1500 for i, _ in small.nearest(m[1700], 5))
    idx, _ = small.sample_band(m[1700], 0.3, 0.7, N, (1,))
    assert len(idx) and (idx < 1500).all()
    drawn = {c.kb_key for s in range(20) for c in band.distance_band(make_walk(grown, random_seed=s))}
    assert any(int(key[1:]) >= 1500 for key in drawn if key)
    with pytest.raises(ValueError, match="already"):
        grown.grown(concepts[:1], m[:1])
    with pytest.raises(ValueError, match="grown already"):
        small.grown(concepts[:1], m[:1])
