"""A step over a knowledge base too large to scan (ports.BandSampler): all four strategies put
forward candidates without a pass over every concept (no similarity row, no corpus x domain
table, no word index, no domain mask per step), and the walk's per-concept values, read by
index, agree with the exact walk's rows over the same vectors."""

from __future__ import annotations

import asyncio
import dataclasses

import numpy as np
import pytest

from tests.clustered_vectors import clustered
from wander.adapters.kb.approximate_index import ApproximateIndex
from wander.adapters.kb.index import KnowledgeIndex
from wander.adapters.kb.scaled_vectors import ScaledVectors
from wander.core.domain.models import Locus, Session, SourceType
from wander.core.engine.adjacency.senses import Senses
from wander.core.engine.candidates import gather_candidates
from wander.core.engine.ports import KnowledgeConcept, WalkState
from wander.core.engine.walk import Walk

N, DIM, CLUSTERS, DOMAINS = 3000, 24, 12, 8


def corpus() -> tuple[list[KnowledgeConcept], np.ndarray]:
    rng = np.random.default_rng(11)
    m, _ = clustered(rng, N, DIM, CLUSTERS, 0.9)
    doms = rng.integers(0, DOMAINS, N)
    concepts = [
        KnowledgeConcept(
            f"c{i}",
            f"concept {i}",
            f"gloss {i}",
            (f"d{doms[i]}",),
            opposites=(f"concept {(i * 7) % N}",) if i % 5 == 0 else (),
            broader=(f"c{i - 1}",) if i % 10 else (),
            source="synthetic",
        )
        for i in range(N)
    ]
    return concepts, m


@pytest.fixture(scope="module")
def kbs() -> tuple[ApproximateIndex, KnowledgeIndex]:
    concepts, m = corpus()
    # the graph built on one thread: a parallel build's graph differs from run to run, and the
    # values read by index are compared with the exact rows to 1e-5
    approx = ApproximateIndex(concepts, m, scaled=ScaledVectors.build(m, threads=1))
    return approx, KnowledgeIndex(concepts, approx.vectors(np.arange(N)))


def walk_over(kb, steps: int = 40, seed: int = 0, attractor: int = 1, drift: float = 0.8) -> Walk:
    session = Session(
        id="s",
        project_id="p",
        name="w",
        seed_concept=kb.concept(seed).label,
        seed_embedding=kb.vector(seed),
        attractor=kb.concept(attractor).label,
        attractor_embedding=kb.vector(attractor),
        max_drift_distance=drift,
        max_steps=steps,
        random_seed=5,
        current_locus_id="l0",
    )
    locus = Locus(
        id="l0",
        session_id="s",
        concept=kb.concept(seed).label,
        embedding=kb.vector(seed),
        source_type=SourceType.SEED,
        domains=list(kb.concept(seed).domains),
        kb_key=kb.concept(seed).key,
    )
    return Walk(WalkState(session=session, loci=[locus], recent_themes=[]), kb)


def arrive(walk: Walk, step: int) -> None:
    found = asyncio.run(gather_candidates(walk))
    pick = found[step % min(3, len(found))]
    here = walk.current
    locus = walk.by_id.get(pick.locus_id or "") or Locus(
        id=f"l{step + 1}",
        session_id="s",
        concept=pick.concept,
        embedding=np.asarray(pick.embedding, dtype=np.float32),
        source_type=SourceType.ADJACENT,
        domains=list(pick.domains),
        kb_key=pick.kb_key,
    )
    walk.add_locus(locus)
    walk.relations.append((here, locus))
    walk.session = dataclasses.replace(walk.session, current_locus_id=locus.id, step_count=step + 1)
    walk.strategies = getattr(walk, "strategies", []) + [c.strategy for c in found]  # type: ignore[attr-defined]


def test_all_four_strategies_without_a_pass_over_the_corpus(kbs, monkeypatch: pytest.MonkeyPatch) -> None:
    approx, _ = kbs
    walk = walk_over(approx)
    whole = "a pass over every concept"
    monkeypatch.setattr(ApproximateIndex, "similarities", lambda self, v: pytest.fail(whole))
    monkeypatch.setattr(ApproximateIndex, "domain_mask", lambda self, a, f: pytest.fail(whole))
    monkeypatch.setattr(KnowledgeIndex, "_compute_domain_reach", lambda self: pytest.fail(whole))
    monkeypatch.setattr(Senses, "_word_index", lambda self: pytest.fail(whole))
    for step in range(36):  # into the last fifth, where the attractor's field narrows
        arrive(walk, step)
    assert {"distance_band", "bridging", "analogy", "tension"} <= set(walk.strategies)  # type: ignore[attr-defined]
    assert len({lo.kb_key for lo in walk.loci}) == len(walk.loci)  # no concept visited twice as new


def test_the_walk_values_read_by_index_agree_with_the_exact_rows(kbs) -> None:
    approx, exact = kbs
    lazy, rows = walk_over(approx, drift=0.75), walk_over(exact, drift=0.75)
    idx = np.random.default_rng(2).choice(N, size=500, replace=False)
    assert lazy.seed_sims[idx] == pytest.approx(rows.seed_sims[idx], abs=1e-5)
    assert lazy.pull_sims[idx] == pytest.approx(rows.pull_sims[idx], abs=1e-5)
    assert float(lazy.pull_sims[idx[0]]) == pytest.approx(float(rows.pull_sims[idx[0]]), abs=1e-5)
    assert (lazy.scope_mask[idx] == rows.scope_mask[idx]).all() and 0 < rows.scope_mask[idx].sum() < len(idx)
    assert (lazy.open_mask[idx] == rows.open_mask[idx]).all()
    # percentile ranks from a sample of the concepts (all 3,000 here: exact)
    assert lazy.span[idx] == pytest.approx(rows.span[idx], abs=0.01)
    assert lazy.pull_baseline == pytest.approx(rows.pull_baseline, abs=1e-5)
    assert lazy.pull_floor_reach == pytest.approx(rows.pull_floor_reach, abs=1e-5)
    assert lazy.pull_floor_seed == pytest.approx(rows.pull_floor_seed, abs=1e-5)
    assert lazy.pull_floor_open == pytest.approx(rows.pull_floor_open, abs=1e-5)
    assert lazy.pull_floor_core == pytest.approx(rows.pull_floor_core, abs=1e-5)
    for walk in (lazy, rows):
        walk._visited_mask[int(idx[0])] = True
        walk._n_visited += 1
    assert lazy.visited_mask[idx].tolist() == rows.visited_mask[idx].tolist()
    assert lazy.pull_floor_core == pytest.approx(rows.pull_floor_core, abs=1e-5)
    with pytest.raises(TypeError, match="by index"):
        lazy.pull_sims[rows.scope_mask]
