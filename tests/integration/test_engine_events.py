"""Every event subject of 000 that reports a situation, shown arising from that situation in
the engine: the real engine and offline dweller over the in-memory store, the situation
built by the test, the events read back from what the engine committed.

budget low at its share, a fence approached within the margin, a crystal validated,
resonances detected / strengthened / confirmed and invalidated (by decay, by
contradiction), and the circuit tripped by each breaker."""

from __future__ import annotations

import uuid
from dataclasses import replace

import numpy as np
import pytest

from wander.adapters.bus.inprocess import InProcessBus
from wander.adapters.llm.offline import OfflineDweller
from wander.adapters.memory.inmemory_store import InMemoryStore
from wander.core.domain.errors import StoreUnavailable
from wander.core.domain.models import FenceAnchor, Resonance, ResonanceStatus, new_id
from wander.core.engine import fence as fences
from wander.core.engine.clock import ManualClock
from wander.core.engine.service import Interventions, NewWander, WanderEngine

SEED = "information asymmetry"
DAY_DECAY = 0.9  # 000: a resonance's strength decays 10% a day since it was last reinforced
INVALID_BELOW = 0.25


class PricedDweller:
    """The offline dweller's residue, billed as a cloud call of a fixed price: what a routed
    Anthropic dwelling costs, without a model."""

    name = "priced"

    def __init__(self, inner, cents: int):
        self.inner, self.cents = inner, cents

    async def dwell(self, request):
        residue = await self.inner.dwell(request)
        return replace(residue, route="cloud", cost_cents=self.cents)


def make_engine(knowledge, embedder, dweller=None) -> tuple[WanderEngine, InMemoryStore, ManualClock]:
    store, clock = InMemoryStore(), ManualClock()
    engine = WanderEngine(
        store=store,  # type: ignore[arg-type]
        knowledge=knowledge,
        embedder=embedder,
        dweller=dweller or OfflineDweller(knowledge),
        bus=InProcessBus(),
        clock=clock,
        project_id=f"events-{uuid.uuid4()}",
    )
    return engine, store, clock


@pytest.fixture
def parts(knowledge, embedder):
    return make_engine(knowledge, embedder)


def subjects(store: InMemoryStore, sid: str, subject: str) -> list[dict]:
    return [e.payload for e in store.events[sid] if e.subject == subject]


async def create(engine: WanderEngine, **kw):
    kw.setdefault("human_checkpoint_frequency", 0)
    return await engine.create(NewWander(seed_concept=kw.pop("seed", SEED), **kw))


# ---- budget ------------------------------------------------------------------------------


async def test_budget_low_at_its_share_then_the_budget_breaker(knowledge, embedder):
    """15 cents a dwelling on a 100-cent budget: 75 after step 5, 90 after step 6 (past the
    80% share: wander.budget.low, once), 105 after step 7 (spent: the breaker)."""
    engine, store, _ = make_engine(knowledge, embedder, PricedDweller(OfflineDweller(knowledge), 15))
    s = await create(engine, max_steps=30, cloud_budget_cents=100)
    out = await engine.run(s.id)
    assert (out.steps_completed, out.status, out.stopped_reason) == (7, "paused", "budget_exhausted")

    low = [e for e in store.events[s.id] if e.subject == "wander.budget.low"]
    assert [e.payload | {"session_id": None} for e in low] == [
        {"session_id": None, "spent_cents": 90, "budget_cents": 100, "share": 0.9}
    ]
    # in step 6's commit: after its step.completed, before step 7 starts
    seq = low[0].seq
    completed = {e.payload["step_number"]: e.seq for e in store.events[s.id] if e.subject == "wander.step.completed"}
    started = {e.payload["step_number"]: e.seq for e in store.events[s.id] if e.subject == "wander.step.started"}
    assert completed[6] < seq < started[7]

    tripped = subjects(store, s.id, "wander.circuit.tripped")
    assert [(t["reason"], t["step_number"]) for t in tripped] == [("budget_exhausted", 7)]
    assert "105 of 100" in tripped[0]["detail"]
    assert subjects(store, s.id, "wander.session.paused")[-1]["reason"] == "budget_exhausted"


async def test_no_budget_low_below_the_share(knowledge, embedder):
    engine, store, _ = make_engine(knowledge, embedder, PricedDweller(OfflineDweller(knowledge), 7))
    s = await create(engine, max_steps=11, cloud_budget_cents=100)
    await engine.run(s.id)  # 77 cents: under 80%
    assert (await store.get_session(s.id)).cloud_spent_cents == 77
    assert subjects(store, s.id, "wander.budget.low") == []


# ---- fence -------------------------------------------------------------------------------


async def test_fence_approached_names_the_candidate_within_the_margin(parts, embedder):
    """An include anchor on the seed's neighbourhood: a step emits wander.fence.approached
    exactly when one of its candidates sits inside the cone, within MARGIN of its edge."""
    engine, store, _ = parts
    anchor = FenceAnchor("information", "include", embedder.embed(["information"])[0])
    s = await create(engine, max_steps=40, fence=[anchor])
    walk = await engine.load_walk(s.id)
    warned = quiet = 0
    for _ in range(15):
        result = await engine.step(walk)
        near = [(c, fences.approaching([anchor], c.embedding)) for c in result.candidates]
        near = [(c, a) for c, a in near if a is not None]
        events = [e.payload for e in result.events if e.subject == "wander.fence.approached"]
        if not near:
            assert events == [], result.step_number
            quiet += 1
            continue
        c, (name, boundary, cos) = near[0]
        assert len(events) == 1 and events[0] | {"session_id": s.id} == {
            "session_id": s.id,
            "step_number": result.step_number,
            "concept": c.concept,
            "anchor": "information",
            "boundary": "include",
            "cosine": round(cos, 4),
        }
        recomputed = float(anchor.embedding @ np.asarray(c.embedding, dtype=np.float32))
        assert fences.INCLUDE_COS <= recomputed < fences.INCLUDE_COS + fences.MARGIN
        warned += 1
    assert warned >= 1, "no candidate came near the fence: the situation was not built"


async def test_fence_approached_at_an_exclude_anchor(parts, embedder):
    """An exclude anchor placed at a cosine just under its cone's edge from one of the first
    step's candidates (found by a twin wander without the fence): the step warns of it."""
    engine, store, _ = parts
    twin = await create(engine, max_steps=40)
    probe = await engine.step(await engine.load_walk(twin.id))
    v = np.asarray(probe.candidates[-1].embedding, dtype=np.float32)
    other = embedder.embed(["volcanic eruption"])[0]
    other = other - (other @ v) * v
    other /= np.linalg.norm(other)
    edge = fences.EXCLUDE_COS - fences.MARGIN / 2
    anchor = FenceAnchor("made anchor", "exclude", (edge * v + np.sqrt(1 - edge**2) * other).astype(np.float32))

    s = await create(engine, max_steps=40, fence=[anchor])
    result = await engine.step(await engine.load_walk(s.id))
    events = [e.payload for e in result.events if e.subject == "wander.fence.approached"]
    assert len(events) == 1 and (events[0]["anchor"], events[0]["boundary"]) == ("made anchor", "exclude")
    named = next(c for c in result.candidates if c.concept == events[0]["concept"])
    cos = float(anchor.embedding @ np.asarray(named.embedding, dtype=np.float32))
    assert fences.EXCLUDE_COS - fences.MARGIN <= cos < fences.EXCLUDE_COS and events[0]["cosine"] == round(cos, 4)


# ---- crystals and resonances over a walk -------------------------------------------------


@pytest.fixture(scope="module")
async def long_walk(knowledge, embedder):
    """An offline wander walked until a crystal passes the gate (at most 300 steps), every
    step's result kept: the crystal and resonance events are checked against what each
    step did."""
    engine, store, clock = make_engine(knowledge, embedder)
    s = await create(engine, seed="tide pool", max_steps=400, random_seed=3)
    results: list = []
    while len(results) < 300 and not any(
        r.crystal is not None and r.crystal.validity["verdict"] == "accepted" for r in results
    ):
        await engine.run(s.id, n_steps=30, on_step=results.append)
    return engine, store, clock, s, results


async def test_crystal_formed_and_validated_follow_the_gate(long_walk):
    engine, store, _, s, results = long_walk
    made = [r for r in results if r.crystal is not None]
    assert made, "a long wander crystallizes"
    verdicts = set()
    for r in made:
        c, subjects_ = r.crystal, [e.subject for e in r.events]
        verdict = c.validity["verdict"]
        verdicts.add(verdict)
        formed = [e.payload for e in r.events if e.subject == "wander.crystal.formed"]
        validated = [e.payload for e in r.events if e.subject == "wander.crystal.validated"]
        assert len(formed) == (verdict != "rejected"), (verdict, subjects_)
        if verdict == "accepted":  # 000: "crystal passed validation", V >= 0.7
            assert validated == [{"session_id": s.id, "crystal_id": c.id, "V": c.validity["V"]}]
            assert c.validity["V"] >= 0.7
        else:
            assert validated == [], verdict
    assert "accepted" in verdicts, f"no crystal passed the gate in {len(results)} steps: {verdicts}"
    every = [e for e in store.events[s.id] if e.subject == "wander.crystal.validated"]
    assert len(every) == sum(r.crystal.validity["verdict"] == "accepted" for r in made)


async def test_resonance_detected_strengthened_confirmed_as_the_themes_recur(long_walk):
    """Each step with themes either detects a resonance (a new candidate, one occurrence) or
    reinforces one (one more occurrence): strengthened while it stays a candidate, confirmed
    the step it reaches 4 occurrences and strength 3."""
    engine, store, _, s, results = long_walk
    seen: dict[str, int] = {}
    counts = {"detected": 0, "strengthened": 0, "confirmed": 0}
    for r in results:
        events = [e for e in r.events if e.subject.startswith("wander.resonance.")]
        if r.residue.failed or not r.residue.themes:
            assert events == []
            continue
        assert len(events) == 1, [e.subject for e in events]
        kind, res = events[0].subject.rsplit(".", 1)[1], events[0].payload["resonance"]
        counts[kind] += 1
        if kind == "detected":
            assert res["id"] not in seen and (res["occurrences"], res["status"]) == (1, "candidate")
            assert r.resonances_detected == 1
        else:
            before = seen.get(res["id"])
            if before is not None:  # one of this wander's own; another wander's is new to it
                assert res["occurrences"] == before + 1, res
            assert events[0].payload["similarity"] >= 0.8
            if kind == "confirmed":
                assert res["status"] == "confirmed" and res["occurrences"] >= 4 and res["strength"] >= 3.0
            else:
                assert res["status"] in ("candidate", "confirmed")
                if res["status"] == "candidate":
                    assert res["occurrences"] < 4 or res["strength"] < 3.0, res
        seen[res["id"]] = res["occurrences"]
    assert all(counts.values()), counts


async def test_resonances_decayed_below_the_floor_are_invalidated(parts):
    """15 days without reinforcement: strength x 0.9^15 (about 0.21). Those that fall under
    0.25 are invalidated at the next step; stronger ones stay."""
    engine, store, clock = parts
    s = await create(engine, max_steps=100, random_seed=2)
    await engine.run(s.id, n_steps=30)
    before = {r.id: (r.strength, r.last_reinforced_at) for r in store.resonances.values() if r.status != "invalidated"}
    clock.advance(days=15)
    result = await engine.step(await engine.load_walk(s.id))
    touched = {e.payload["resonance"]["id"] for e in result.events if e.subject.startswith("wander.resonance.")}
    fell = kept = 0
    for rid, (strength, last) in before.items():
        if rid in touched:
            continue
        days = (clock.now() - last).total_seconds() / 86400
        status = store.resonances[rid].status
        if strength * DAY_DECAY**days < INVALID_BELOW:
            assert status == ResonanceStatus.INVALIDATED, (rid, strength, days)
            fell += 1
        else:
            assert status != ResonanceStatus.INVALIDATED, (rid, strength, days)
            kept += 1
    assert fell and kept, (fell, kept)
    # an invalidated resonance is no longer matched: the walk no longer holds it
    walk = await engine.load_walk(s.id)
    assert not {r.id for r in walk.resonances if r.status == ResonanceStatus.INVALIDATED}


async def test_a_visit_to_an_opposite_halves_a_resonance_and_invalidates_a_weak_one(parts, knowledge, embedder):
    """Two resonances on a theme with a corpus opposite: one at 0.4 (halved to 0.2:
    invalidated), one at 2.0 (halved to 1.0: it stays). The wander is sent to the opposite."""
    engine, store, clock = parts
    theme = next(w for w in ("peace", "victory", "success", "light", "order", "good") if _opposites(knowledge, w))
    opposite = _opposites(knowledge, theme)[0]
    s = await create(engine, max_steps=50, seed="harbour")
    await engine.run(s.id, n_steps=2)
    elsewhere = embedder.embed(["crystal lattice of a salt"])[0]  # not matched by the next residue

    def planted(strength: float) -> Resonance:
        r = Resonance(
            id=new_id(),
            project_id=engine.project_id,
            session_id=s.id,
            themes=[theme],
            embedding=elsewhere,
            strength=strength,
            occurrences=2,
            last_reinforced_at=clock.now(),
            created_at=clock.now(),
        )
        store.resonances[r.id] = r
        return r

    weak, strong = planted(0.4), planted(2.0)
    await Interventions(engine).inject(s.id, opposite)
    result = await engine.step(await engine.load_walk(s.id))
    assert result.to_locus.concept == opposite
    assert store.resonances[weak.id].status == ResonanceStatus.INVALIDATED
    kept = store.resonances[strong.id]
    assert kept.status == ResonanceStatus.CANDIDATE and kept.strength == pytest.approx(1.0)

    # an unrelated visit leaves a resonance's strength alone
    calm = planted(0.4)
    await Interventions(engine).inject(s.id, "teapot")
    await engine.step(await engine.load_walk(s.id))
    assert store.resonances[calm.id].status == ResonanceStatus.CANDIDATE
    assert store.resonances[calm.id].strength == pytest.approx(0.4)


def _opposites(knowledge, label: str) -> list[str]:
    i = knowledge.find_label(label)
    return [] if i is None else [knowledge.concept(j).label for j in knowledge.opposites(i)]


# ---- circuit breakers --------------------------------------------------------------------


def tripped(store: InMemoryStore, sid: str) -> list[tuple[str, str]]:
    return [(t["reason"], str(t.get("step_number"))) for t in subjects(store, sid, "wander.circuit.tripped")]


async def test_loop_detected_trips_the_circuit(parts):
    engine, store, _ = parts
    s = await create(engine, max_steps=60)
    for i in range(20):  # back and forth between two concepts
        await Interventions(engine).inject(s.id, "information" if i % 2 else "asymmetry")
        await engine.run(s.id, n_steps=1)
        if (await store.get_session(s.id)).status != "active":
            break
    session = await store.get_session(s.id)
    assert (session.status, session.stopped_reason) == ("paused", "loop_detected")
    # 12 steps on a set of at most 3 loci (the seed's step and the 11 forced ones)
    assert tripped(store, s.id) == [("loop_detected", str(session.step_count))] and session.step_count == 12
    assert subjects(store, s.id, "wander.session.paused")[-1]["reason"] == "loop_detected"


async def test_drift_exceeded_trips_the_circuit(parts):
    engine, store, _ = parts
    s = await create(engine, max_steps=20, max_drift_distance=0.6)
    await engine.run(s.id, n_steps=2)
    await Interventions(engine).inject(s.id, "volcanic eruption")
    out = await engine.run(s.id, n_steps=3)
    assert (out.steps_completed, out.status, out.stopped_reason) == (1, "paused", "drift_exceeded")
    [(reason, step)] = tripped(store, s.id)
    assert (reason, step) == ("drift_exceeded", "3")
    detail = subjects(store, s.id, "wander.circuit.tripped")[0]["detail"]
    assert "volcanic eruption" in detail and "(max 0.6)" in detail


async def test_no_candidate_in_scope_trips_the_circuit_and_completes(parts, embedder):
    """A fence that includes only a cone far from everything the walk can reach."""
    engine, store, _ = parts
    far = -embedder.embed([SEED])[0]  # the seed's antipode: no concept near the seed is inside
    s = await create(engine, max_steps=20, fence=[FenceAnchor("antipode", "include", far.astype(np.float32))])
    out = await engine.run(s.id, n_steps=5)
    assert (out.steps_completed, out.status, out.stopped_reason) == (0, "completed", "no_candidates_in_scope")
    assert [r for r, _ in tripped(store, s.id)] == ["no_candidates_in_scope"]
    assert subjects(store, s.id, "wander.session.completed")[-1]["reason"] == "no_candidates_in_scope"


async def test_a_store_that_cannot_write_trips_the_circuit_and_pauses(parts):
    engine, store, _ = parts
    s = await create(engine, max_steps=20)
    await engine.run(s.id, n_steps=2)
    commit = store.commit_step

    async def unavailable(_commit):
        raise StoreUnavailable("the database went away")

    store.commit_step = unavailable  # type: ignore[method-assign]
    out = await engine.run(s.id, n_steps=5)
    assert (out.steps_completed, out.status, out.stopped_reason) == (0, "paused", "store_unavailable")
    assert tripped(store, s.id) == [("store_unavailable", "3")]
    # the cause gone, a resume continues from the last committed step
    store.commit_step = commit  # type: ignore[method-assign]
    await engine.resume(s.id)
    out = await engine.run(s.id, n_steps=2)
    assert out.steps_completed == 2 and (await store.get_session(s.id)).step_count == 4


async def test_a_checkpoint_and_max_steps_stop_without_tripping(parts):
    engine, store, _ = parts
    s = await create(engine, max_steps=6, human_checkpoint_frequency=4)
    out = await engine.run(s.id)
    assert (out.steps_completed, out.stopped_reason) == (4, "checkpoint")
    await engine.resume(s.id)
    out = await engine.run(s.id)
    assert (out.steps_completed, out.status, out.stopped_reason) == (2, "completed", "max_steps")
    assert tripped(store, s.id) == []
    assert [p["reason"] for p in subjects(store, s.id, "wander.session.paused")] == ["checkpoint"]
