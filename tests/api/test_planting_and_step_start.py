"""Planting a concept never moves the walk's current locus, and a step's wander.step.started
goes out live: before the step's outcome is written, and once."""

from tests.api.conftest import API, create


async def test_planting_never_moves_current_and_start_is_live(client, app):
    s = await create(client, max_steps=10, random_seed=2)
    sid = s["id"]
    await client.post(f"{API}/{sid}/inject", json={"concept": "harbour", "force_visit": False})
    events = await app.store.events_after(sid, 0)
    planted = [e for e in events if e.payload.get("locus", {}).get("concept") == "harbour"]
    assert [e.subject for e in planted] == ["wander.locus.planted"]
    assert planted[0].payload["source"] == "inject"

    seen: list[str] = []
    at_start: list[str] = []

    async def watch(event):
        seen.append(event.subject)
        if event.subject == "wander.step.started":  # what the outbox holds when the start goes out
            at_start.extend(e.subject for e in await app.store.events_after(sid, 0))

    unsubscribe = app.bus.subscribe(watch, session_id=sid)
    try:
        assert (await client.post(f"{API}/{sid}/step")).status_code == 200
    finally:
        unsubscribe()
    assert seen[0] == "wander.step.started" and seen[-1] == "wander.step.completed"
    assert at_start[-1] == "wander.step.started" and "wander.step.completed" not in at_start
    subjects = [e.subject for e in await app.store.events_after(sid, 0)]
    assert subjects.count("wander.step.started") == 1
    assert subjects.index("wander.step.started") < subjects.index("wander.step.completed")
