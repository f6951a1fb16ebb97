"""The walk's rules, over several random seeds and pairs the quality bench does
not use, with the real engine, corpus and offline dweller against the in-memory Store:
every strategy at work in the band, each step saying why, no puns, the attractor felt late
without collapsing onto it, and a bridge between the seed's and the attractor's
neighbourhoods."""

import dataclasses
from collections import Counter

import numpy as np
import pytest

from wander.bootstrap.wiring import offline_engine
from wander.core.domain.models import WHYS
from wander.core.engine.adjacency.common import WHY
from wander.core.engine.adjacency.distance_band import TOWARD, TOWARD_K, distance_band, toward_draws
from wander.core.engine.adjacency.senses import senses_of
from wander.core.engine.candidates import gather_candidates
from wander.core.engine.service import NewWander

STEPS = 300
STRATEGIES = ("distance_band", "bridging", "analogy", "tension")


async def walk_through(knowledge, embedder, seed, attractor, random_seed, steps=STEPS):
    engine, store, clock = offline_engine(knowledge, embedder)
    session = await engine.create(
        NewWander(
            seed_concept=seed,
            attractor=attractor,
            max_steps=steps,
            random_seed=random_seed,
            human_checkpoint_frequency=0,
        )
    )
    walk = await engine.load_walk(session.id)
    results = []
    while walk.session.status == "active":
        clock.advance(seconds=30)
        results.append(await engine.step(walk))
    assert len(results) == steps, walk.session.stopped_reason
    return session, results, store


@pytest.mark.parametrize(
    "seed, attractor, random_seed",
    [("orchard", "cryptography", 2), ("orchard", "cryptography", 5), ("river delta", "music composition", 9)],
)
async def test_a_wander_uses_every_strategy_says_why_and_heads_for_its_attractor(
    knowledge, embedder, seed, attractor, random_seed
):
    session, results, store = await walk_through(knowledge, embedder, seed, attractor, random_seed)
    n = len(results)

    # Every strategy at work: each supplies at least 10% of the chosen steps, none more than
    # 60%, and at least 90% of the steps stay in the 0.3-0.7 band.
    shares = Counter(r.chosen.strategy for r in results)
    assert all(shares[s] >= 0.1 * n for s in STRATEGIES), shares
    assert max(shares.values()) <= 0.6 * n, shares
    assert sum(0.3 <= r.chosen.distance <= 0.7 for r in results) >= 0.9 * n

    # Each step says why, in the trace and the step.completed event, as its strategy has it.
    traces = {t.step_number: t for t in store.traces[session.id]}
    assert len(traces) == n
    for r in results:
        assert r.chosen.why in WHYS, r.chosen
        expected = {WHY[r.chosen.strategy]} | (
            {"toward the attractor"} if r.chosen.strategy == "distance_band" else set()
        )
        assert r.chosen.why in expected, (r.chosen.strategy, r.chosen.why)
        if r.chosen.why == "toward the attractor":  # it says so because it gains on the attractor
            attr = np.asarray(session.attractor_embedding)
            assert float(r.to_locus.embedding @ attr) > float(r.from_locus.embedding @ attr), r.chosen
        completed = [e for e in r.events if e.subject == "wander.step.completed"]
        assert completed and completed[0].payload["why"] == r.chosen.why
        assert completed[0].payload["strategy"] == r.chosen.strategy
        assert traces[r.step_number].selection_scores["why"] == r.chosen.why

    # Senses kept apart: no step to another sense of the current concept's word.
    kb = knowledge
    senses = senses_of(kb)
    puns = [
        (r.from_locus.concept, r.to_locus.concept)
        for r in results
        if senses.is_pun(
            kb.index_of(r.from_locus.kb_key) if r.from_locus.kb_key else None,
            kb.index_of(r.to_locus.kb_key) if r.to_locus.kb_key else None,
            r.from_locus.concept,
            r.to_locus.concept,
        )
    ]
    assert len(puns) <= 0.02 * n, puns

    # The attractor felt and seen: by the last third the loci (their labels, as a person
    # reads them) are nearer the attractor than the seed is, without collapsing onto it.
    seed_v, attr_v = embedder.embed([seed, attractor])
    third = results[-(n // 3) :]
    labels = embedder.embed([r.to_locus.concept for r in third])
    assert float((labels @ attr_v).mean()) > float(seed_v @ attr_v)
    assert len({r.to_locus.id for r in third}) >= 0.6 * len(third)

    # A bridge: a locus among the tenth of the corpus nearest the seed and the tenth nearest
    # the attractor.
    q_seed = np.quantile(kb.similarities(seed_v), 0.9)
    q_attr = np.quantile(kb.similarities(attr_v), 0.9)
    bridges = [
        r.to_locus.concept
        for r in results
        if float(np.asarray(r.to_locus.embedding) @ seed_v) >= q_seed
        and float(np.asarray(r.to_locus.embedding) @ attr_v) >= q_attr
    ]
    assert bridges


async def test_another_sense_of_the_current_word_is_never_a_candidate(knowledge, embedder):
    kb = knowledge
    work, paint = kb.find_label("wash (work)"), kb.find_label("wash (water-base paint)")
    assert work is not None and paint is not None
    # without the rule it could be one: the two senses sit in the band from each other
    assert 0.3 <= 1.0 - float(kb.vector(work) @ kb.vector(paint)) <= 0.7
    for random_seed in (1, 4, 8):
        engine, _, clock = offline_engine(kb, embedder)
        session = await engine.create(
            NewWander(seed_concept="wash (work)", attractor="painting", max_steps=20, random_seed=random_seed)
        )
        walk = await engine.load_walk(session.id)
        assert walk.current.kb_key == kb.concept(work).key
        candidates = await gather_candidates(walk)
        assert candidates
        assert kb.concept(paint).key not in {c.kb_key for c in candidates}
        puns = set(senses_of(kb).puns(work).tolist())
        assert not [c.concept for c in candidates if c.kb_key and kb.index_of(c.kb_key) in puns]


async def test_the_attractors_neighbourhood_is_in_scope_and_drift_holds(knowledge, embedder):
    # From the seed alone, 'tide pools' kept no concept near 'how software tests should
    # work'; the attractor's neighbourhood is in scope now, and every locus is within the
    # maximum drift of the seed or of the attractor.
    engine, store, clock = offline_engine(knowledge, embedder)
    for random_seed in (3, 6):
        s = await engine.create(
            NewWander(
                seed_concept="tide pools",
                attractor="how software tests should work",
                max_steps=60,
                random_seed=random_seed,
                human_checkpoint_frequency=0,
            )
        )
        walk = await engine.load_walk(s.id)
        testing = knowledge.find_label("testing (experiment)")
        assert walk.scope_mask[testing]
        while walk.session.status == "active":
            clock.advance(seconds=30)
            r = await engine.step(walk)
            v = np.asarray(r.to_locus.embedding)
            near = max(float(v @ s.seed_embedding), float(v @ s.attractor_embedding))
            assert 1.0 - near <= s.max_drift_distance + 1e-6, r.to_locus.concept
        assert walk.session.step_count == 60, walk.session.stopped_reason


async def test_the_bands_draws_toward_the_attractor_follow_its_ramp(knowledge, embedder):
    # The attractor is felt gradually (Walk.focus rises from zero): the band draws nothing
    # for the direction of its step toward it at the first step, all TOWARD_K once the field
    # has narrowed, in between as many as the attractor weighs.
    for seed, attractor, random_seed in (("surgery", "team sports", 2), ("beekeeping", "city traffic", 5)):
        engine, _, _ = offline_engine(knowledge, embedder)
        session = await engine.create(
            NewWander(seed_concept=seed, attractor=attractor, max_steps=100, random_seed=random_seed)
        )
        walk = await engine.load_walk(session.id)
        assert toward_draws(walk) == 0
        assert not [c for c in await gather_candidates(walk) if c.reason.endswith(TOWARD)]
        walk.session = dataclasses.replace(walk.session, step_count=49)
        assert 0 < toward_draws(walk) < TOWARD_K
        walk.session = dataclasses.replace(walk.session, step_count=95)
        assert toward_draws(walk) == TOWARD_K
        # late, the band's best of its pool are mostly those draws already
        assert [c for c in distance_band(walk) if c.reason.endswith(TOWARD) or c.why == "toward the attractor"]


def test_sense_slips_through_a_compound_a_gloss_or_a_path_are_puns(knowledge):
    # 'haircut' -> 'cut' (a share of the profits) and 'test drive' -> 'vehicle (medium)' were
    # steps of bench wanders; 'taxi' is a kind of the other vehicle
    kb = knowledge
    senses = senses_of(kb)

    def pun(a, b):
        i, j = kb.find_label(a), kb.find_label(b)
        assert i is not None and j is not None, (a, b)
        return senses.is_pun(i, j) and j in set(senses.puns(i).tolist()) and i in set(senses.puns(j).tolist())

    assert pun("haircut", "cut")
    assert pun("test drive", "vehicle (medium)")
    assert pun("vehicle (medium)", "taxi") and pun("car", "vehicle (medium)")
    assert not pun("taxi", "car") and not pun("car", "vehicle (transport)")  # kin
    assert not pun("test drive", "vehicle (transport)")
