"""A locus's connections (000 wander_loci: adjacent_to, bridges_to, contradicts) learned as
the walk goes, in the engine (real engine and offline dweller over the in-memory store),
in Postgres, through the locus API; and the fence's anchors in fence_embeddings."""

from __future__ import annotations

import uuid
from types import SimpleNamespace

import numpy as np
from sqlalchemy import select, text

from wander.adapters.bus.inprocess import InProcessBus
from wander.adapters.llm.offline import OfflineDweller
from wander.adapters.memory.inmemory_store import InMemoryStore
from wander.core.domain.models import FenceAnchor
from wander.core.engine import connections
from wander.core.engine.clock import ManualClock
from wander.core.engine.service import Interventions, NewWander, WanderEngine

SEED = "information asymmetry"


def _engine(knowledge, embedder) -> tuple[WanderEngine, InMemoryStore]:
    store = InMemoryStore()
    engine = WanderEngine(
        store=store,  # type: ignore[arg-type]
        knowledge=knowledge,
        embedder=embedder,
        dweller=OfflineDweller(knowledge),
        bus=InProcessBus(),
        clock=ManualClock(),
        project_id=f"connections-{uuid.uuid4()}",
    )
    return engine, store


async def _walk(engine: WanderEngine, steps: int, **kw):
    s = await engine.create(NewWander(seed_concept=SEED, max_steps=steps, human_checkpoint_frequency=0, **kw))
    walk = await engine.load_walk(s.id)
    return s, walk, [await engine.step(walk) for _ in range(steps)]


async def test_connections_follow_the_strategies_and_the_dweller(knowledge, embedder):
    engine, store = _engine(knowledge, embedder)
    s, walk, results = await _walk(engine, 80, random_seed=5)
    path_bridges = far_bridges = tensions = 0
    for r in results:
        by_id = {lo.id: lo for lo in walk.loci}
        target = r.to_locus
        crossed = bool(r.from_locus.domains and target.domains) and not set(r.from_locus.domains) & set(target.domains)
        bridges = {b["locus_id"]: b for b in target.bridges_to}
        event = next(e.payload for e in r.events if e.subject == "wander.step.completed")
        learned = {b["locus_id"]: b for b in event["bridges"]}
        if r.chosen.strategy == "bridging" or crossed:
            # the step itself is a bridge, its strength the step's bridge potential
            b = bridges[r.from_locus.id]
            assert b["strength"] == round(r.chosen.scores.bridge_potential, 4)
            assert b["bridge_type"] in ("bridge concept", "seed-attractor span", "domain crossing")
            assert learned[r.from_locus.id]["bridge_type"] == b["bridge_type"]
            path_bridges += 1
        else:
            assert r.from_locus.id not in learned
        for lid, b in learned.items():
            if lid == r.from_locus.id:
                continue
            # off the path: an earlier locus of other domains, near the reached one
            other = by_id[lid]
            cos = float(other.embedding @ target.embedding)
            assert b["bridge_type"] == "near across domains" and b["strength"] == round(cos, 4)
            assert 1 - cos <= connections.BRIDGE_NEAR and not set(other.domains) & set(target.domains)
            far_bridges += 1
        contra = {c["locus_id"]: c for c in target.contradicts}
        said = {c["locus_id"]: c for c in event["contradictions"]}
        if r.chosen.strategy == "tension":
            c = contra[r.from_locus.id]
            assert c["tension_description"] == (r.residue.tension or r.chosen.reason)
            assert said[r.from_locus.id] == c
            tensions += 1
        else:
            assert r.from_locus.id not in said
    assert path_bridges >= 3 and far_bridges >= 1 and tensions >= 1, (path_bridges, far_bridges, tensions)
    # what the engine holds is what it committed
    for lo in walk.loci:
        stored = await store.locus(s.id, lo.id)
        assert stored is not None and stored.bridges_to == lo.bridges_to and stored.contradicts == lo.contradicts


def test_learn_keeps_one_entry_per_locus_and_reads_corpus_opposites(knowledge):
    """A step back over a known bridge replaces its entry; a locus whose corpus opposite the
    walk has met contradicts it, in words that name both."""
    from wander.core.domain.models import Candidate, Locus, Residue, Scores, SourceType

    kb = knowledge
    i = next(i for i in range(len(kb)) if kb.opposites(i) and kb.concept(i).domains)
    j = kb.opposites(i)[0]

    def locus(k: int) -> Locus:
        c = kb.concept(k)
        return Locus(str(uuid.uuid4()), "s", c.label, kb.vector(k), SourceType.ADJACENT, list(c.domains), kb_key=c.key)

    a, b = locus(j), locus(i)
    walk = SimpleNamespace(
        knowledge=kb, loci=[], by_kb_key={a.kb_key: a}, loci_matrix=np.zeros((0, kb.dim), dtype=np.float32)
    )
    residue = Residue("c", "they pull apart", "", "s", "p", [], 0.5, 0.1, "offline")
    chosen = Candidate(b.concept, b.embedding, b.domains, "tension", "opposite", 0.5, scores=Scores(0.5, 0.5, 0.9, 0.5))
    learned = connections.learn(walk, a, b, chosen, residue)  # type: ignore[arg-type]
    # the step's own tension, in the dweller's words (the corpus opposite is that same locus)
    assert [(c["locus_id"], c["tension_description"]) for c in learned.contradictions] == [(a.id, "they pull apart")]
    a2 = locus(j)
    a2.id = "other"
    walk.by_kb_key = {a2.kb_key: a2}
    connections.learn(walk, a2, b, chosen, residue)  # type: ignore[arg-type]
    assert [c["locus_id"] for c in b.contradicts] == [a.id, "other"]
    again = Residue("c", "again", "", "s", "p", [], 0.5, 0.1, "offline")
    learned = connections.learn(walk, a, b, chosen, again)  # type: ignore[arg-type]
    corpus = f"'{b.concept}' and '{a2.concept}' are opposites in the corpus"
    assert [(c["locus_id"], c["tension_description"]) for c in learned.contradictions] == [
        (a.id, "again"),
        ("other", corpus),  # not the step's: the corpus's opposite, the walk met it earlier
    ]
    # one entry per locus, the latest
    assert [(c["locus_id"], c["tension_description"]) for c in b.contradicts] == [(a.id, "again"), ("other", corpus)]
    plain = Candidate(b.concept, b.embedding, b.domains, "distance_band", "", 0.5, scores=Scores(0.5, 0.5, 0.1, 0.5))
    far = connections.learn(walk, locus(i), b, plain, residue)  # type: ignore[arg-type]
    assert far.bridges == [] and [c["locus_id"] for c in far.contradictions] == ["other"]


async def test_connections_and_fence_embeddings_in_postgres(app):
    engine = app.engine
    anchor = FenceAnchor("information", "include", app.embedder.embed(["information"])[0])
    s = await engine.create(
        NewWander(seed_concept=SEED, max_steps=40, human_checkpoint_frequency=0, random_seed=5, fence=[anchor])
    )
    walk = await engine.load_walk(s.id)
    for _ in range(30):
        await engine.step(walk)
    stored = {lo.id: lo for lo in await app.store.loci(s.id)}
    assert any(lo.bridges_to for lo in walk.loci)
    for lo in walk.loci:
        assert stored[lo.id].bridges_to == lo.bridges_to and stored[lo.id].contradicts == lo.contradicts
    # a reload reads them back
    again = await engine.load_walk(s.id)
    assert {lo.id: lo.bridges_to for lo in again.loci} == {lo.id: lo.bridges_to for lo in walk.loci}

    async def column() -> list[np.ndarray]:
        async with app.db.connect() as conn:
            raw = (
                await conn.execute(
                    text("SELECT fence_embeddings::text[] FROM wander_sessions WHERE id = :id"), {"id": s.id}
                )
            ).scalar_one()
        return [np.array([float(x) for x in v.strip("[]").split(",")], dtype=np.float32) for v in raw or []]

    got = await column()
    assert len(got) == 1 and np.allclose(got[0], anchor.embedding, atol=1e-6)
    await Interventions(engine).fence(s.id, "weapon", "exclude")
    got = await column()
    weapon = app.embedder.embed(["weapon"])[0]
    assert len(got) == 2 and np.allclose(got[1], weapon, atol=1e-6) and np.allclose(got[0], anchor.embedding, atol=1e-6)
    await Interventions(engine).unfence(s.id, "information")
    got = await column()
    assert len(got) == 1 and np.allclose(got[0], weapon, atol=1e-6)
    await Interventions(engine).unfence(s.id, "weapon")
    assert await column() == []
    # the session still reads (its row holds a vector[] now and then)
    async with app.db.connect() as conn:
        assert (await conn.execute(select(text("1")))).scalar_one() == 1
    assert (await app.store.get_session(s.id)).fence == []
