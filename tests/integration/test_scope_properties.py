"""The scope invariants over 1,000 steps of wanders with random settings, on the full
corpus and the real embedder. The store plays no part in them, so the walks run on the
in-memory store (the Postgres store's step commit has its own tests): the property test
then costs seconds rather than minutes."""

import numpy as np

from wander.bootstrap.wiring import offline_engine
from wander.core.domain.geometry import cosine_distance
from wander.core.domain.models import FenceAnchor
from wander.core.engine import fence as fences
from wander.core.engine.service import NewWander


async def test_scope_properties_over_1000_random_steps(embedder, knowledge):
    """Forbidden domains are never visited, drift never exceeds its maximum, and an excluded
    fence region is never entered, over 1,000 steps of wanders with random settings."""
    engine, store, _ = offline_engine(knowledge, embedder, project_id="scope-properties")
    rng = np.random.default_rng(2026)
    seeds = ["information asymmetry", "tide pool", "market", "music", "bridge", "memory", "trust", "energy"]
    domains = ["cognition", "communication", "act", "artifact", "attribute", "state", "person", "group"]
    anchors = ["money", "emotion", "animal", "weapon"]
    vectors = dict(zip(anchors, await engine.embed(anchors)))
    total = wanders = 0
    while total < 1000:
        forbidden = list(rng.choice(domains, size=2, replace=False))
        drift = float(rng.uniform(0.7, 0.95))
        seed = str(rng.choice(seeds))
        anchor = str(rng.choice(anchors))
        s = await engine.create(
            NewWander(
                seed_concept=seed,
                max_steps=125,
                random_seed=int(rng.integers(1e6)),
                forbidden_domains=forbidden,
                max_drift_distance=drift,
                temperature=float(rng.uniform(0.3, 2.0)),
                human_checkpoint_frequency=0,
                fence=[FenceAnchor(anchor, "exclude", vectors[anchor])],
            )
        )
        await engine.run(s.id)
        session = await store.get_session(s.id)
        assert session is not None
        excluded = [a for a in session.fence if a.action == "exclude"]
        assert [a.concept for a in excluded] == [anchor]
        trace = store.traces[s.id]
        loci = store.loci[s.id]
        for t in trace:
            lo = loci[t.to_locus_id]
            assert not set(lo.domains) & set(forbidden), (lo.concept, lo.domains, forbidden)
            assert cosine_distance(lo.embedding, session.seed_embedding) <= drift + 1e-6
            assert fences.inside(excluded, lo.embedding), (lo.concept, anchor)
        total += len(trace)
        wanders += 1
        if session.stopped_reason != "max_steps":
            assert session.stopped_reason in ("loop_detected", "no_candidates_in_scope"), session.stopped_reason
    assert total >= 1000 and wanders >= 8
