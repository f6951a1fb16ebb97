"""Two clients steering one wander at the same instant: inject, fence, pause and
resume race each other and a step that is committing. Every answer is 2xx or a clean 4xx
problem (409 for a state conflict), a forced injection is taken by exactly one step, and
the event log has exactly one event per change (gapless seq) with the session's state
that of its last event.

The instants are made to coincide, not hoped for: a store write waits at a rendezvous
until both requests have read the session, and a dweller waits on an asyncio.Event so
that an injection lands while a step is under way."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import httpx
import pytest

from shared_schemas.events import Subject
from tests.api.conftest import API, create, wait_idle

STATUS_SUBJECTS = {Subject.SESSION_PAUSED, Subject.SESSION_RESUMED, Subject.SESSION_COMPLETED}
FENCE_SUBJECTS = {Subject.FENCE_ADDED, Subject.FENCE_REMOVED}


class GatedDweller:
    """The wander's dweller, but a dwell armed with hold() waits until release()."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.armed = False
        self.entered = asyncio.Event()
        self.released = asyncio.Event()

    def hold(self) -> None:
        self.armed, self.entered, self.released = True, asyncio.Event(), asyncio.Event()

    def release(self) -> None:
        self.released.set()

    async def dwell(self, request: Any) -> Any:
        if self.armed:
            self.armed = False
            self.entered.set()
            await self.released.wait()
        return await self.inner.dwell(request)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def rendezvous(monkeypatch: pytest.MonkeyPatch, store: Any, method: str, parties: int = 2, first: Any = None) -> None:
    """Hold the next `parties` calls of store.<method> until all of them have arrived (each
    caller has read the session before any of them writes), then let them write one after
    the other: those for which first(*args, **kwargs) is true first, then in arrival order."""
    original = getattr(store, method)
    waiting: list[tuple[bool, asyncio.Event, asyncio.Event]] = []

    async def conduct() -> None:
        for _, turn, done in sorted(waiting, key=lambda w: not w[0]):
            turn.set()
            await done.wait()

    async def meet(*args: Any, **kwargs: Any) -> Any:
        if len(waiting) >= parties:
            return await original(*args, **kwargs)
        turn, done = asyncio.Event(), asyncio.Event()
        waiting.append((bool(first and first(*args, **kwargs)), turn, done))
        if len(waiting) == parties:
            asyncio.get_running_loop().create_task(conduct())
        await turn.wait()
        try:
            return await original(*args, **kwargs)
        finally:
            done.set()

    monkeypatch.setattr(store, method, meet)


@pytest.fixture
def gate(app) -> GatedDweller:
    gated = GatedDweller(app.engine.ctx.dweller)
    app.engine.ctx.dweller = gated
    return gated


@pytest.fixture
async def other(server):
    """A second client, with its own connection pool."""
    async with httpx.AsyncClient(base_url=f"http://{server}", timeout=30) as c:
        yield c


def clean(*responses: httpx.Response) -> None:
    """2xx, or a 4xx problem body; never a 5xx."""
    for r in responses:
        assert r.status_code < 500, r.text
        if r.status_code >= 400:
            assert r.headers["content-type"].startswith("application/problem+json"), r.text
            assert r.json()["status"] == r.status_code and "Traceback" not in r.text


async def consistent(app, session_id: str) -> list:
    """The event log agrees with the session: seq gapless from 1, one step.completed per
    committed step, the status that of the last status event and the fence that of the
    last fence event. Returns the events.

    The session is read first, then the events: background work (the projection refit)
    may append events meanwhile; those after the session's event_seq are not its past."""
    session = await app.store.get_session(session_id)
    events = await app.store.events_after(session_id)
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert len(events) >= session.event_seq
    events = events[: session.event_seq]
    done = [e.payload["step_number"] for e in events if e.subject == Subject.STEP_COMPLETED]
    assert done == list(range(1, session.step_count + 1))
    assert [s.step_number for s in await app.store.trace(session_id)] == done
    status = [e for e in events if e.subject in STATUS_SUBJECTS]
    expected = {
        Subject.SESSION_PAUSED: "paused",
        Subject.SESSION_RESUMED: "active",
        Subject.SESSION_COMPLETED: "completed",
    }
    assert str(session.status) == (expected[Subject(status[-1].subject)] if status else "active")
    fences = [e for e in events if e.subject in FENCE_SUBJECTS]
    now = [{"concept": a.concept, "action": a.action} for a in session.fence]
    assert now == (fences[-1].payload["fence"] if fences else [])
    return events


def injected_steps(trace) -> list[tuple[int, str]]:
    return [(s.step_number, s.to_concept) for s in trace if s.selection_scores.get("strategy") == "injected"]


async def test_an_injection_made_while_a_step_runs_goes_to_the_next_step(app, client, other, gate):
    s = await create(client, max_steps=30, random_seed=5, human_checkpoint_frequency=0, max_drift_distance=2)
    sid = s["id"]
    for _ in range(2):
        assert (await client.post(f"{API}/{sid}/step")).status_code == 200

    # A step that takes no injection is dwelling when one arrives: the next step takes it.
    gate.hold()
    stepping = asyncio.create_task(client.post(f"{API}/{sid}/step"))
    await gate.entered.wait()
    r = await other.post(f"{API}/{sid}/inject", json={"concept": "lighthouse"})
    clean(r)
    assert r.status_code == 200
    gate.release()
    first = await stepping
    assert first.status_code == 200 and first.json()["step_number"] == 3

    # A step that takes an injection is dwelling when another arrives: the step commits the
    # one it took and leaves the new one for the next step (it used to clear both).
    gate.hold()
    stepping = asyncio.create_task(client.post(f"{API}/{sid}/step"))
    await gate.entered.wait()
    r = await other.post(f"{API}/{sid}/inject", json={"concept": "harbour"})
    assert r.status_code == 200, r.text
    gate.release()
    taken = await stepping
    assert taken.status_code == 200 and taken.json()["to_locus"]["concept"] == "lighthouse"
    nxt = await client.post(f"{API}/{sid}/step")
    assert nxt.status_code == 200 and nxt.json()["to_locus"]["concept"] == "harbour", nxt.text
    assert (await client.post(f"{API}/{sid}/step")).status_code == 200

    trace = await app.store.trace(sid)
    assert injected_steps(trace) == [(4, "lighthouse"), (5, "harbour")]
    assert (await app.store.get_session(sid)).pending_injection is None
    await consistent(app, sid)


async def test_two_clients_inject_at_once_and_one_step_takes_it(app, client, other, monkeypatch):
    s = await create(client, max_steps=30, random_seed=6, human_checkpoint_frequency=0, max_drift_distance=2)
    sid = s["id"]
    assert (await client.post(f"{API}/{sid}/step")).status_code == 200

    # The same concept from both: one pending injection, visited by exactly one step.
    a, b = await asyncio.gather(
        client.post(f"{API}/{sid}/inject", json={"concept": "lighthouse"}),
        other.post(f"{API}/{sid}/inject", json={"concept": "lighthouse"}),
    )
    clean(a, b)
    assert a.status_code == b.status_code == 200
    for _ in range(2):
        assert (await client.post(f"{API}/{sid}/step")).status_code == 200
    assert injected_steps(await app.store.trace(sid)) == [(2, "lighthouse")]

    # Two concepts: the slot holds one forced visit, so one replaces the other; exactly one
    # of them is visited, once, and nothing is left pending.
    a, b = await asyncio.gather(
        client.post(f"{API}/{sid}/inject", json={"concept": "tide"}),
        other.post(f"{API}/{sid}/inject", json={"concept": "orchard"}),
    )
    clean(a, b)
    assert a.status_code == b.status_code == 200
    for _ in range(2):
        assert (await client.post(f"{API}/{sid}/step")).status_code == 200
    later = injected_steps(await app.store.trace(sid))[1:]
    assert len(later) == 1 and later[0][0] == 4 and later[0][1] in ("tide", "orchard")
    assert (await app.store.get_session(sid)).pending_injection is None
    await consistent(app, sid)


async def test_two_steps_at_once_take_a_forced_injection_once(app, client, other):
    s = await create(client, max_steps=30, random_seed=8, human_checkpoint_frequency=0, max_drift_distance=2)
    sid = s["id"]
    assert (await client.post(f"{API}/{sid}/inject", json={"concept": "lighthouse"})).status_code == 200
    a, b = await asyncio.gather(client.post(f"{API}/{sid}/step"), other.post(f"{API}/{sid}/step"))
    clean(a, b)
    # One commits step 1; the other finds step 1 taken (409) or, had it started after, steps on.
    assert 200 in (a.status_code, b.status_code) and {a.status_code, b.status_code} <= {200, 409}
    assert injected_steps(await app.store.trace(sid)) == [(1, "lighthouse")]
    await consistent(app, sid)


async def test_two_fences_at_once_both_stand(app, client, other, monkeypatch):
    s = await create(client, max_steps=30, random_seed=5, human_checkpoint_frequency=0, max_drift_distance=2)
    sid = s["id"]
    # Both requests have read the (empty) fence before either writes: each change still
    # applies to the fence as it is, so neither anchor is lost (it used to be).
    rendezvous(monkeypatch, app.store, "set_fence")
    a, b = await asyncio.gather(
        client.post(f"{API}/{sid}/fence", json={"concept": "weapon", "action": "exclude"}),
        other.post(f"{API}/{sid}/fence", json={"concept": "ocean", "action": "include"}),
    )
    clean(a, b)
    assert a.status_code == b.status_code == 200
    session = await app.store.get_session(sid)
    assert {(x.concept, x.action) for x in session.fence} == {("weapon", "exclude"), ("ocean", "include")}
    events = await consistent(app, sid)
    added = [e.payload["concept"] for e in events if e.subject == Subject.FENCE_ADDED]
    assert sorted(added) == ["ocean", "weapon"]

    # The same anchor re-aimed by both, and a removal racing an addition.
    rendezvous(monkeypatch, app.store, "set_fence")
    a, b = await asyncio.gather(
        client.post(f"{API}/{sid}/fence", json={"concept": "weapon", "action": "include"}),
        other.request("DELETE", f"{API}/{sid}/fence", params={"concept": "ocean"}),
    )
    clean(a, b)
    assert a.status_code == b.status_code == 200
    session = await app.store.get_session(sid)
    assert [(x.concept, x.action) for x in session.fence] == [("weapon", "include")]
    rendezvous(monkeypatch, app.store, "set_fence")
    a, b = await asyncio.gather(
        client.request("DELETE", f"{API}/{sid}/fence", params={"concept": "weapon"}),
        other.request("DELETE", f"{API}/{sid}/fence", params={"concept": "weapon"}),
    )
    clean(a, b)
    # One removes it; the other finds it gone (422 naming the field), with no second event.
    assert sorted([a.status_code, b.status_code]) == [200, 422]
    events = await consistent(app, sid)
    assert Counter(e.subject for e in events if e.subject in FENCE_SUBJECTS) == {
        Subject.FENCE_ADDED: 3,
        Subject.FENCE_REMOVED: 2,
    }
    assert (await app.store.get_session(sid)).fence == []


async def test_pause_and_resume_at_once_leave_one_order(app, client, other, monkeypatch):
    s = await create(client, max_steps=30, random_seed=5, human_checkpoint_frequency=0, max_drift_distance=2)
    sid = s["id"]
    assert (await client.post(f"{API}/{sid}/step")).status_code == 200

    rendezvous(monkeypatch, app.store, "set_status")
    a, b = await asyncio.gather(client.post(f"{API}/{sid}/pause"), other.post(f"{API}/{sid}/pause"))
    clean(a, b)
    assert sorted([a.status_code, b.status_code]) == [200, 409]

    # Both resumes read "paused"; only one may say it resumed the wander (the other used to
    # write a second wander.session.resumed for no change).
    rendezvous(monkeypatch, app.store, "set_status")
    a, b = await asyncio.gather(client.post(f"{API}/{sid}/resume"), other.post(f"{API}/{sid}/resume"))
    clean(a, b)
    assert sorted([a.status_code, b.status_code]) == [200, 409]
    events = await consistent(app, sid)
    assert Counter(e.subject for e in events if e.subject in STATUS_SUBJECTS) == {
        Subject.SESSION_PAUSED: 1,
        Subject.SESSION_RESUMED: 1,
    }

    # A resume that reads "active" (a run a crash left active: no change, no event) while
    # a pause commits: it must not make the wander active again without an event.
    rendezvous(monkeypatch, app.store, "set_status", first=lambda _sid, status, *a, **k: status == "paused")
    pause, resume = await asyncio.gather(
        other.post(f"{API}/{sid}/pause"), app.engine.resume(sid), return_exceptions=True
    )
    assert not isinstance(pause, BaseException)
    clean(pause)
    assert pause.status_code == 200 and type(resume).__name__ == "Conflict", resume  # the pause went first
    await consistent(app, sid)

    # Pause and resume from two clients on the paused wander, a few times over.
    for _ in range(3):
        a, b = await asyncio.gather(client.post(f"{API}/{sid}/resume"), other.post(f"{API}/{sid}/pause"))
        clean(a, b)
        await consistent(app, sid)


async def test_a_pause_while_a_step_runs_wins_and_the_step_writes_nothing(app, client, other, gate):
    s = await create(client, max_steps=30, random_seed=5, human_checkpoint_frequency=0, max_drift_distance=2)
    sid = s["id"]
    assert (await client.post(f"{API}/{sid}/step")).status_code == 200
    gate.hold()
    stepping = asyncio.create_task(client.post(f"{API}/{sid}/step"))
    await gate.entered.wait()
    paused = await other.post(f"{API}/{sid}/pause")
    assert paused.status_code == 200
    gate.release()
    step = await stepping
    clean(step)
    assert step.status_code == 409
    session = await app.store.get_session(sid)
    assert session.step_count == 1 and str(session.status) == "paused"
    await consistent(app, sid)


async def test_steering_a_running_wander_from_two_clients(app, client, other):
    s = await create(client, max_steps=40, random_seed=9, human_checkpoint_frequency=0, max_drift_distance=2)
    sid = s["id"]
    r = await client.post(f"{API}/{sid}/wander", json={"n_steps": 12})
    assert r.status_code == 202, r.text
    # No delay between steps: the injections and fences land while steps commit.
    answers = await asyncio.gather(
        client.post(f"{API}/{sid}/inject", json={"concept": "lighthouse"}),
        other.post(f"{API}/{sid}/fence", json={"concept": "weapon", "action": "exclude"}),
        other.post(f"{API}/{sid}/inject", json={"concept": "lighthouse", "force_visit": False}),
        client.post(f"{API}/{sid}/fence", json={"concept": "volcano", "action": "exclude"}),
    )
    clean(*answers)
    assert all(a.status_code == 200 for a in answers)
    await wait_idle(client, sid)
    session = await app.store.get_session(sid)
    if session.pending_injection is not None:  # the run ended before a step could take it
        assert (await client.post(f"{API}/{sid}/step")).status_code == 200
    assert [c for _, c in injected_steps(await app.store.trace(sid))] == ["lighthouse"]
    assert {a.concept for a in (await app.store.get_session(sid)).fence} == {"weapon", "volcano"}
    await consistent(app, sid)
