"""Many wanders at once: ten wanders running together, in one process (the
in-process runner) and over NATS (two `wander worker` processes, five runs each at a time),
lose no step, duplicate none, and each walks exactly the trace it walks alone with the same
random seed: the same concept at every step number, steps 1..N without a gap, one
step-completed event per step and the session's events gapless.

The wanders share one project, as wanders of one person do. What they share there is the
project's resonances (a residue can reinforce another wander's theme); the walk's choice of
the next concept does not read them, so the traces must not differ. The reinforcements
themselves are another matter: see test_two_wanders_reinforcing_one_resonance_both_count.
"""

from __future__ import annotations

import asyncio
from collections import Counter

from sqlalchemy import text

from tests.integration.scale.conftest import eventually
from wander.bootstrap.wiring import make_runner
from wander.core.engine.runner import Runner
from wander.core.engine.service import NewWander

SEEDS = ("harbor", "lantern", "orchard", "glacier", "market", "tide pools", "volcano", "library", "compass", "beehive")
STEPS = 8


def wander(i: int) -> NewWander:
    return NewWander(seed_concept=SEEDS[i], max_steps=STEPS, random_seed=100 + i, human_checkpoint_frequency=0)


async def walked(db, sid: str) -> list[tuple[int, str]]:
    """(step_number, concept walked to) of every trace of the session, in step order."""
    async with db.connect() as conn:
        rows = await conn.execute(
            text(
                "SELECT t.step_number, l.concept FROM wander_traces t JOIN wander_loci l ON l.id = t.to_locus_id "
                "WHERE t.session_id = :sid ORDER BY t.step_number, t.created_at"
            ),
            {"sid": sid},
        )
        return [(r[0], r[1]) for r in rows.all()]


async def events(db, sid: str) -> list[tuple[int, str, int | None]]:
    """(seq, subject, step_number of a step-completed event) of the session's events, by seq."""
    async with db.connect() as conn:
        rows = await conn.execute(
            text(
                "SELECT seq, subject, (payload->>'step_number')::int FROM wander_events "
                "WHERE session_id = :sid ORDER BY seq"
            ),
            {"sid": sid},
        )
        return [(r[0], r[1], r[2] if r[1] == "wander.step.completed" else None) for r in rows.all()]


async def step_windows(db, sids: list[str]) -> list[tuple[object, object]]:
    """Per session, when its first and its last step were committed."""
    async with db.connect() as conn:
        rows = await conn.execute(
            text(
                "SELECT session_id::text, min(created_at), max(created_at) FROM wander_traces "
                "WHERE session_id::text = ANY(:sids) GROUP BY session_id"
            ),
            {"sids": sids},
        )
        return [(r[1], r[2]) for r in rows.all()]


def most_at_once(windows: list[tuple[object, object]]) -> int:
    """The most wanders that were between their first and their last step at one moment."""
    return max(sum(1 for a, b in windows if a <= t <= b) for t, _ in windows)


async def alone(app) -> list[list[tuple[int, str]]]:
    """Each wander run on its own, one after another, to the end: the reference traces."""
    out = []
    for i in range(len(SEEDS)):
        s = await app.engine.create(wander(i))
        outcome = await app.engine.run(s.id, STEPS)
        assert outcome.steps_completed == STEPS
        out.append(await walked(app.db, s.id))
    assert len({tuple(t) for t in out}) == len(SEEDS), "the reference wanders should differ from each other"
    return out


async def check_each(app, sids: list[str], reference: list[list[tuple[int, str]]]) -> None:
    for sid, expected in zip(sids, reference):
        session = await app.store.get_session(sid)
        assert session.step_count == STEPS and str(session.status) == "completed", (session.step_count, session.status)
        trace = await walked(app.db, sid)
        assert [n for n, _ in trace] == list(range(1, STEPS + 1)), f"steps lost or duplicated: {trace}"
        assert trace == expected, f"{sid} walked differently at once than alone:\n{trace}\n{expected}"
        evs = await events(app.db, sid)
        assert [e[0] for e in evs] == list(range(1, len(evs) + 1)), "the session's events have a gap"
        assert [e[2] for e in evs if e[2] is not None] == list(range(1, STEPS + 1))


async def test_ten_wanders_at_once_in_one_process(app):
    reference = await alone(app)
    runner = make_runner(app)
    assert isinstance(runner, Runner)
    sids = [(await app.engine.create(wander(i))).id for i in range(len(SEEDS))]
    tasks = [await runner.start(sid, STEPS) for sid in sids]  # no delay between steps
    outcomes = await asyncio.gather(*tasks)
    assert [o.steps_completed for o in outcomes] == [STEPS] * len(SEEDS)
    await check_each(app, sids, reference)
    at_once = most_at_once(await step_windows(app.db, sids))
    print(f"wanders between their first and last step at one moment: {at_once}")
    # they really ran together: a sequential runner gives 1, one capped at k runs gives k. Not all
    # ten need to be inside their windows at one instant: eight steps take under a second here, and
    # one wander's first step can commit (in the connection pool's order) after the quickest
    # other wander's last one, as it did on a quiet machine
    assert at_once >= len(SEEDS) - 2


async def test_ten_wanders_at_once_over_two_workers(scale_app, nats_server, worker_env, spawn_worker, db_url):
    worker_env.update(WANDER_DATABASE_URL=db_url, WANDER_NATS_URL=nats_server.url, WANDER_WORKER_CONCURRENCY="5")
    workers = [spawn_worker(worker_env, wid) for wid in ("w-1", "w-2")]
    reference = await alone(scale_app)  # in this process, while the workers start
    await asyncio.gather(*(w.wait_ready() for w in workers))
    runner = make_runner(scale_app)
    assert not isinstance(runner, Runner)  # the runs go to the queue
    sids = []
    for i in range(len(SEEDS)):
        s = await scale_app.engine.create(wander(i))
        sids.append(s.id)
    for sid in sids:
        await runner.start(sid, STEPS)

    async def all_completed():
        sessions = [await scale_app.store.get_session(sid) for sid in sids]
        return all(str(s.status) == "completed" for s in sessions)

    await eventually(all_completed, 300, "ten wanders to complete", interval=0.25)
    await check_each(scale_app, sids, reference)
    async with scale_app.db.connect() as conn:
        rows = await conn.execute(
            text("SELECT DISTINCT worker_id FROM wander_traces WHERE session_id::text = ANY(:sids)"), {"sids": sids}
        )
        used = {r[0] for r in rows.all()}
    assert used == {"w-1", "w-2"}, f"both workers should have run wanders: {used}"
    at_once = most_at_once(await step_windows(scale_app.db, sids))
    print(f"wanders between their first and last step at one moment: {at_once}")
    assert at_once > 2  # more than one run per worker at a time
    assert all(w.alive() for w in workers)


async def resonance_counts(db, rid: str) -> tuple[int, int]:
    """(occurrences the row holds, 1 + the reinforcements its events announced)."""
    async with db.connect() as conn:
        held = (
            await conn.execute(text("SELECT occurrences FROM wander_resonances WHERE id::text = :r"), {"r": rid})
        ).scalar_one()
        bumps = (
            await conn.execute(
                text(
                    "SELECT count(*) FROM wander_events WHERE payload->'resonance'->>'id' = :r "
                    "AND subject IN ('wander.resonance.strengthened', 'wander.resonance.confirmed')"
                ),
                {"r": rid},
            )
        ).scalar_one()
    return held, 1 + bumps


async def test_two_wanders_reinforcing_one_resonance_both_count(app):
    """A wander walked once leaves resonances in the project. Two more wanders with the same
    seed and random seed walk the same first step, whose themes match the first wander's
    resonance; both are loaded before either steps (as runs that start together are), then
    each takes its step. Both reinforcements should count."""
    first = await app.engine.create(wander(0))
    await app.engine.run(first.id, 1)
    a = await app.engine.create(wander(0))
    b = await app.engine.create(wander(0))
    walk_a = await app.engine.load_walk(a.id)
    walk_b = await app.engine.load_walk(b.id)
    step_a = await app.engine.step(walk_a)
    step_b = await app.engine.step(walk_b)
    reinforced = [
        e.payload["resonance"]["id"]
        for e in step_a.events + step_b.events
        if e.subject in ("wander.resonance.strengthened", "wander.resonance.confirmed")
    ]
    shared = [rid for rid, n in Counter(reinforced).items() if n == 2]
    assert shared, f"the two steps should reinforce one resonance of the first wander: {reinforced}"
    held, announced = await resonance_counts(app.db, shared[0])
    assert held == announced, f"the resonance holds {held} occurrences; its events announced {announced}"
