"""The vectors shipped with Wander fit the corpus it ships and the model it ships: every
concept's text has its row, and rows spread over the corpus, embedded again by MiniLM, are
within 0.999 cosine of the float16 rows (else: `make kb`, or scripts/build_vectors.py)."""

from __future__ import annotations

import numpy as np

from wander.adapters.kb import corpus, shipped_vectors

SAMPLE = 96


def test_shipped_vectors_cover_the_corpus_and_agree_with_the_model(embedder):
    texts = [c.embed_text for c in corpus.load_corpus()]
    shipped = shipped_vectors.load(embedder.name)
    assert shipped is not None, f"{shipped_vectors.VECTORS_FILE} missing or unreadable: run scripts/build_vectors.py"
    matrix, found = shipped.lookup(texts)
    assert found.all(), f"{(~found).sum()} corpus texts have no shipped vector: run scripts/build_vectors.py"
    rows = np.linspace(0, len(texts) - 1, SAMPLE).astype(int)
    fresh = embedder.embed([texts[i] for i in rows])
    cosines = (fresh * matrix[rows]).sum(axis=1)
    assert cosines.min() >= 0.999, f"lowest cosine {cosines.min():.5f} (row {rows[cosines.argmin()]})"
    assert np.allclose(np.linalg.norm(matrix, axis=1), 1.0, atol=1e-5)


def test_the_shipped_domain_neighbourhoods_fit_the_shipped_corpus_and_vectors(embedder):
    """A new machine's knowledge index (the shipped corpus with its shipped vectors, as
    ensure_corpus loads them) finds its domain neighbourhoods shipped, equal to computed ones."""
    from wander.adapters.kb import reach_cache
    from wander.adapters.kb.index import KnowledgeIndex
    from wander.core.engine.ports import KnowledgeConcept

    concepts = corpus.load_corpus()
    shipped = shipped_vectors.load(embedder.name)
    assert shipped is not None
    matrix, _ = shipped.lookup([c.embed_text for c in concepts])

    def index() -> KnowledgeIndex:
        kcs = [
            KnowledgeConcept(c.key, c.label, c.gloss, tuple(c.domains), (), (), "wordnet", tuple(c.broader))
            for c in concepts
        ]
        return KnowledgeIndex(kcs, matrix)

    restored = index()
    assert reach_cache.restore(restored, None), (
        "no shipped domain-reach table for this corpus: run scripts/build_vectors.py"
    )
    computed = index()
    computed.prepare_domain_reach()
    shipped_reach, shipped_domains = restored.domain_reach_table()
    reach, domains = computed.domain_reach_table()
    np.testing.assert_array_equal(shipped_domains, domains)
    # The same sums in another order: a CPU of another kind (its BLAS kernels) rounds the
    # last bits otherwise (up to 1e-6 apart on an AMD EPYC, against the table shipped)
    np.testing.assert_allclose(shipped_reach, reach, rtol=0, atol=1e-5)
