"""The whole step over a knowledge base too large to scan (ports.BandSampler): the offline
dweller's residue, the crystallizer's gate and the themes are made without a pass over
every concept, and the dweller's pool of concepts near the pair finds what the exact rows
over the same vectors find."""

from __future__ import annotations

import asyncio
import hashlib

import numpy as np
import pytest

from tests.unit.engine.test_step_at_scale import corpus
from wander.adapters.kb.approximate_index import ApproximateIndex
from wander.adapters.kb.index import KnowledgeIndex
from wander.adapters.kb.scaled_vectors import ScaledVectors
from wander.adapters.llm.offline import OfflineDweller, pair_rows
from wander.adapters.llm.offline_facets.facts import pair_facts
from wander.bootstrap.wiring import offline_engine
from wander.core.domain.models import Locus, SourceType
from wander.core.engine import step, themes
from wander.core.engine.adjacency.senses import Senses
from wander.core.engine.service import NewWander

WHOLE = "a pass over every concept"


class HashEmbedder:
    """A text's vector from its hash: the same for the same text, in the corpus's dimension."""

    name = "hash"
    dim = 24

    def embed(self, texts):
        out = [
            np.random.default_rng(int(hashlib.sha1(t.encode()).hexdigest()[:8], 16)).standard_normal(self.dim)
            for t in texts
        ]
        m = np.array(out, dtype=np.float32).reshape(len(texts), self.dim)
        return m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-9)


@pytest.fixture(scope="module")
def kbs() -> tuple[ApproximateIndex, KnowledgeIndex]:
    concepts, m = corpus()
    # the graph built on one thread: a parallel build's graph differs from run to run, and
    # the pool it finds is compared concept for concept with the exact rows
    approx = ApproximateIndex(concepts, m, scaled=ScaledVectors.build(m, threads=1))
    return approx, KnowledgeIndex(concepts, approx.vectors(np.arange(len(concepts))))


def locus(kb, i: int) -> Locus:
    c = kb.concept(i)
    return Locus(
        id=f"l{i}",
        session_id="s",
        concept=c.label,
        embedding=kb.vector(i),
        source_type=SourceType.ADJACENT,
        domains=list(c.domains),
        kb_key=c.key,
    )


def no_whole_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ApproximateIndex, "similarities", lambda self, v: pytest.fail(WHOLE))
    monkeypatch.setattr(ApproximateIndex, "unit_similarities", lambda self, v: pytest.fail(WHOLE))
    monkeypatch.setattr(ApproximateIndex, "domain_mask", lambda self, a, f: pytest.fail(WHOLE))
    monkeypatch.setattr(KnowledgeIndex, "_compute_domain_reach", lambda self: pytest.fail(WHOLE))
    monkeypatch.setattr(Senses, "_word_index", lambda self: pytest.fail(WHOLE))


def facts(kb, a: Locus, b: Locus):
    s_a, s_b, pool = pair_rows(kb, a.embedding, b.embedding)
    return pair_facts(kb, a, b, s_a, s_b, frozenset(), None, pool=pool)


PAIRS = [(0, 1), (5, 900), (17, 18), (2500, 40), (333, 2999)]


def test_the_offline_residue_without_a_pass_over_the_corpus(kbs, monkeypatch: pytest.MonkeyPatch) -> None:
    approx, _ = kbs
    no_whole_pass(monkeypatch)
    dweller = OfflineDweller(approx)
    for i, j in PAIRS:
        r = dweller.reflect(locus(approx, i), locus(approx, j), approx.vector(7))
        assert all((r.connection, r.tension, r.bridge, r.surprise, r.possibility))
        assert r.themes and r.details["midpoint"] and r.details["filling"]


def test_the_pool_near_the_pair_finds_what_the_exact_rows_find(kbs) -> None:
    approx, exact = kbs
    for i, j in PAIRS:
        a, b = locus(exact, i), locus(exact, j)
        pool = pair_rows(approx, a.embedding, b.embedding)[2]
        assert pool is not None and len(pool) < len(approx) and pair_rows(exact, a.embedding, b.embedding)[2] is None
        pooled, whole = (facts(kb, a, b) for kb in (approx, exact))
        assert [k for k, _ in pooled.mids] == [k for k, _ in whole.mids]
        assert [s for _, s in pooled.mids] == pytest.approx([s for _, s in whole.mids], abs=1e-5)
        assert (pooled.middle, pooled.filling) == (whole.middle, whole.filling)
        assert (pooled.lean_a, pooled.lean_b) == (whole.lean_a, whole.lean_b)


def test_the_label_shares_are_read_from_a_bounded_sample(kbs, monkeypatch: pytest.MonkeyPatch) -> None:
    approx, _ = kbs
    concepts = [approx.concept(i) for i in range(len(approx))]
    monkeypatch.setattr(themes, "PATHS_READ", 1000)
    assert len(themes.corpus_paths(ApproximateIndex(concepts, scaled=approx.scaled))) == 1000
    monkeypatch.setattr(themes, "PATHS_READ", 5000)  # within the bound: every concept
    assert len(themes.corpus_paths(ApproximateIndex(concepts, scaled=approx.scaled))) == len(concepts)


def test_whole_steps_and_crystals_without_a_pass_over_the_corpus(kbs, monkeypatch: pytest.MonkeyPatch) -> None:
    approx, _ = kbs
    monkeypatch.setattr(step, "STRONG_LOCUS", 0.0)  # every stretch crystallizes: the gate is judged

    async def run(engine, clock) -> list:
        session = await engine.create(
            NewWander(
                seed_concept="concept 5",
                attractor="concept 1200",
                max_steps=40,
                random_seed=3,
                human_checkpoint_frequency=0,
            )
        )
        walk = await engine.load_walk(session.id)
        no_whole_pass(monkeypatch)
        out = []
        for _ in range(36):
            clock.advance(seconds=30)
            out.append(await engine.step(walk))
        return out

    engine, store, clock = offline_engine(approx, HashEmbedder())  # type: ignore[arg-type]
    results = asyncio.run(run(engine, clock))
    assert len(results) == 36 and all(r.residue.connection for r in results)
    crystals = list(store.crystals_by_id.values())
    assert crystals and all(c.validity.get("gloss_echo") is not None for c in crystals)
    # replay: a fresh engine (its dweller's kept searches empty) walks the same path, saying the same
    monkeypatch.undo()  # the wander's creation and loading may read every concept once
    monkeypatch.setattr(step, "STRONG_LOCUS", 0.0)
    again = asyncio.run(run(*offline_engine(approx, HashEmbedder())[::2]))  # type: ignore[arg-type]
    assert [(r.to_locus.kb_key, r.residue.connection, r.residue.possibility) for r in again] == [
        (r.to_locus.kb_key, r.residue.connection, r.residue.possibility) for r in results
    ]
