"""An offline wander end to end on the real embedded Postgres and the full corpus."""

import re

import pytest

from wander.core.domain.geometry import BAND_HIGH, BAND_LOW
from wander.core.engine.service import NewWander

SEED = "information asymmetry"
ATTRACTOR = "economic opportunity in financial intelligence"
QUOTED = re.compile(r"'([^']+)'")


async def _path(app, **kw):
    session = await app.engine.create(NewWander(seed_concept=SEED, attractor=ATTRACTOR, **kw))
    await app.engine.run(session.id)
    return session.id, await app.store.trace(session.id)


async def test_fifty_step_offline_wander(app):
    sid, steps = await _path(app, max_steps=50, random_seed=7)
    assert [s.step_number for s in steps] == list(range(1, 51))
    session = await app.store.get_session(sid)
    assert session.status == "completed" and session.stopped_reason == "max_steps"
    in_band = 0
    for s in steps:
        for facet, text in s.facets().items():
            assert text and text.strip(), f"step {s.step_number} has an empty {facet}"
            assert QUOTED.search(text), f"{facet} names no concept: {text}"
            # Plain words: the figures live in the structured fields, not in the sentences.
            assert not re.search(r"\d\.\d\d", text), f"{facet} reads like a log line: {text}"
        # The facets name the two loci they are about.
        assert s.to_concept in s.connection and s.from_concept in s.connection
        assert len(s.themes) >= 3
        d = s.selection_scores["distance"]
        in_band += BAND_LOW <= d <= BAND_HIGH
    share = in_band / len(steps)
    print(f"in band: {in_band}/{len(steps)} = {share:.0%}")
    assert share >= 0.8


async def test_same_seed_same_path_and_other_seed_other_path(app):
    _, a = await _path(app, max_steps=25, random_seed=11)
    _, b = await _path(app, max_steps=25, random_seed=11)
    _, c = await _path(app, max_steps=25, random_seed=12)
    path = lambda steps: [s.to_concept for s in steps]  # noqa: E731
    assert path(a) == path(b)
    assert path(a) != path(c)


async def test_events_are_gapless_and_cover_each_step(app):
    sid, steps = await _path(app, max_steps=5, random_seed=3)
    events = await app.store.events_after(sid, 0)
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    subjects = [e.subject for e in events]
    assert subjects[0] == "wander.session.created"
    assert subjects.count("wander.step.completed") == 5
    assert subjects.count("wander.adjacencies.found") == 5
    assert subjects[-1] == "wander.session.completed"
    found = next(e for e in events if e.subject == "wander.adjacencies.found")
    assert 1 < len(found.payload["candidates"]) <= 24
    strategies = {c["strategy"] for c in found.payload["candidates"]}
    assert strategies <= {"distance_band", "bridging", "analogy", "tension"} and "distance_band" in strategies
    tail = await app.store.events_after(sid, events[-3].seq)
    assert [e.seq for e in tail] == [events[-2].seq, events[-1].seq]


async def test_bus_receives_what_the_store_wrote(app):
    received = []

    async def handler(event):
        received.append(event)

    app.bus.subscribe(handler)
    sid, _ = await _path(app, max_steps=3, random_seed=1)
    stored = await app.store.events_after(sid, 0)
    assert [(e.seq, e.subject) for e in received] == [(e.seq, e.subject) for e in stored]


async def test_forbidden_and_allowed_domains_hold(app):
    sid, steps = await _path(app, max_steps=30, random_seed=5, forbidden_domains=["cognition", "communication"])
    for s in steps:
        assert not {"cognition", "communication"} & set(s.to_domains)
    sid, steps = await _path(app, max_steps=20, random_seed=5, allowed_domains=["act", "possession"])
    for s in steps:
        assert {"act", "possession"} & set(s.to_domains)


async def test_vectors_read_back_bit_for_bit_as_float32(app):
    """Vectors travel as binary real[] both ways (store/columns.py PackedVector)."""
    import numpy as np

    session = await app.engine.create(NewWander(seed_concept=SEED, attractor=ATTRACTOR, max_steps=5))
    await app.engine.run(session.id)
    loci = [lo for lo in await app.store.loci(session.id) if lo.kb_key]
    assert len(loci) >= 5
    for lo in loci:
        assert isinstance(lo.embedding, np.ndarray) and lo.embedding.dtype == np.float32
        np.testing.assert_array_equal(lo.embedding, app.knowledge.vector(app.knowledge.index_of(lo.kb_key)))
    stored = await app.store.get_session(session.id)
    assert stored.attractor_embedding is not None and stored.attractor_embedding.dtype == np.float32
    assert abs(float(np.linalg.norm(stored.attractor_embedding)) - 1.0) < 1e-5


async def test_step_of_a_stale_walk_is_refused_and_nothing_written(app):
    from wander.core.domain.errors import StepAlreadyCommitted

    session = await app.engine.create(NewWander(seed_concept=SEED, max_steps=10))
    walk_a = await app.engine.load_walk(session.id)
    walk_b = await app.engine.load_walk(session.id)
    await app.engine.step(walk_a)
    with pytest.raises(StepAlreadyCommitted):
        await app.engine.step(walk_b)
    assert await app.store.step_numbers(session.id) == [1]


async def test_a_wander_paused_while_its_step_runs_gets_nothing_of_that_step(app):
    from wander.core.domain.errors import Conflict
    from wander.core.domain.models import SessionStatus

    session = await app.engine.create(NewWander(seed_concept=SEED, attractor=ATTRACTOR, max_steps=10))
    await app.engine.step(await app.engine.load_walk(session.id))
    loci_before = {lo.id for lo in await app.store.loci(session.id)}
    start_step = app.store.start_step

    async def start_then_pause(session_id, events):
        started = await start_step(session_id, events)
        await app.engine.set_status(session_id, SessionStatus.PAUSED, "by hand")  # a person, mid-step
        return started

    app.store.start_step = start_then_pause
    try:
        with pytest.raises(Conflict):
            await app.engine.step(await app.engine.load_walk(session.id))
    finally:
        app.store.start_step = start_step
    # The step's commit wrote none of its parts: no trace, no locus, no event of its own.
    assert await app.store.step_numbers(session.id) == [1]
    assert {lo.id for lo in await app.store.loci(session.id)} == loci_before
    events = await app.store.events_after(session.id)
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert [e.subject.rsplit(".", 2)[-2:] for e in events[-2:]] == [["step", "started"], ["session", "paused"]]
    session_row = await app.store.get_session(session.id)
    assert session_row.step_count == 1 and session_row.event_seq == events[-1].seq


async def test_pause_stops_a_run_between_steps(app):
    from wander.core.domain.models import SessionStatus

    session = await app.engine.create(NewWander(seed_concept=SEED, max_steps=100))

    async def pause_at_three(result):
        if result.step_number == 3:
            await app.engine.set_status(session.id, SessionStatus.PAUSED, "by hand")

    outcome = await app.engine.run(session.id, on_step=pause_at_three)
    assert outcome.steps_completed == 3 and outcome.status == "paused"
    await app.engine.set_status(session.id, SessionStatus.ACTIVE)
    outcome = await app.engine.run(session.id, n_steps=2)
    assert outcome.steps_completed == 2
    assert await app.store.step_numbers(session.id) == [1, 2, 3, 4, 5]


async def test_no_candidate_in_scope_trips_a_breaker_not_a_crash(app):
    session = await app.engine.create(NewWander(seed_concept="x", allowed_domains=["astrology"], max_steps=10))
    outcome = await app.engine.run(session.id)
    assert outcome.status == "completed" and outcome.stopped_reason == "no_candidates_in_scope"
    subjects = [e.subject for e in await app.store.events_after(session.id, 0)]
    assert "wander.circuit.tripped" in subjects
