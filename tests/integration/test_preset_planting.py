"""A preset's other seeds are planted, not visited: they reach the map as
`wander.locus.planted` and never become the wander's current locus until a step walks there."""

from __future__ import annotations

import json

from tests.wander_cli import wander
from wander.core.domain.models import Event
from wander.core.engine.presets import PRESETS
from wander.core.engine.service import NewWander

PRESET = PRESETS["meta-wander"]


def _check_planting(events: list[Event], seed_id: str) -> dict[str, str]:
    """The creation events plant every other seed and visit only the seed; later visits are
    the walk's own steps. Returns the planted loci as {id: concept}."""
    by_subject: dict[str, list[Event]] = {}
    for e in events:
        by_subject.setdefault(e.subject, []).append(e)
    planted = {e.payload["locus"]["id"]: e.payload["locus"]["concept"] for e in by_subject["wander.locus.planted"]}
    assert sorted(planted.values()) == sorted(PRESET.other_seeds)
    assert {e.payload["source"] for e in by_subject["wander.locus.planted"]} == {"preset"}
    assert all(e.payload["step_number"] == 0 for e in by_subject["wander.locus.planted"])
    visited = by_subject["wander.locus.visited"]
    at_creation = [e for e in visited if e.payload["step_number"] == 0]
    assert [e.payload["locus"]["id"] for e in at_creation] == [seed_id]
    assert not any(e.payload["injected"] for e in visited)
    # every later visit is the step's own destination, never a planted seed slipped in beside it
    completed = {
        e.payload["step_number"]: e.payload["to_locus"]["id"] for e in by_subject.get("wander.step.completed", [])
    }
    for e in visited:
        if e.payload["step_number"] > 0:
            assert e.payload["locus"]["id"] == completed[e.payload["step_number"]]
    return planted


async def test_engine_plants_a_presets_other_seeds(app):
    published: list[Event] = []

    async def watch(event: Event) -> None:
        published.append(event)

    unsubscribe = app.bus.subscribe(watch)
    try:
        session = await app.engine.create(
            NewWander(
                seed_concept=PRESET.seed_concept,
                attractor=PRESET.attractor,
                max_steps=4,
                random_seed=1,
                human_checkpoint_frequency=0,
                other_seeds=list(PRESET.other_seeds),
            )
        )
        created = [e for e in published if e.session_id == session.id]
        stored = await app.store.get_session(session.id)
        seed_id = stored.current_locus_id
        planted = _check_planting(created, seed_id)
        assert [e.subject for e in created if e.payload.get("locus", {}).get("id") in planted] == [
            "wander.locus.planted"
        ] * len(PRESET.other_seeds)
        loci = {lo.id: lo for lo in await app.store.loci(session.id)}
        assert loci[seed_id].concept == PRESET.seed_concept and loci[seed_id].visit_count == 1
        assert all(loci[pid].visit_count == 0 for pid in planted)
        assert {lo.id for lo in await app.store.loci(session.id, visited=False)} == set(planted)

        outcome = await app.engine.run(session.id)
        assert outcome.steps_completed == 4
    finally:
        unsubscribe()
    events = await app.store.events_after(session.id, 0)
    assert [e.seq for e in published if e.session_id == session.id] == [e.seq for e in events]
    _check_planting(events, seed_id)
    after = await app.store.get_session(session.id)
    last = [e for e in events if e.subject == "wander.step.completed"][-1]
    assert after.current_locus_id == last.payload["to_locus"]["id"]


async def test_cli_run_with_the_preset_plants_its_other_seeds(cli_env, app):
    out = wander(["run", "--preset", "meta-wander", "--steps", "2", "--seed", "1", "--json"], cli_env)
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    events = await app.store.events_after(summary["session_id"], 0)
    seed = [e for e in events if e.subject == "wander.locus.visited" and e.payload["step_number"] == 0]
    assert seed and seed[0].payload["locus"]["concept"] == PRESET.seed_concept
    planted = _check_planting(events, seed[0].payload["locus"]["id"])
    assert len(planted) == len(PRESET.other_seeds)
