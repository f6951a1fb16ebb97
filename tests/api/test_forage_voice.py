"""Reuben's voice in a real foraging run: every attempt's line in the run's events fits what
happened and none repeats; the sandwiches' commentary and the farewell are his; switched off
(WANDER_REUBEN=0) the same run speaks in plain statements."""

from __future__ import annotations

from wander.bootstrap.foraging import make_forager
from wander.core.sandwich.model import ATTEMPTED
from wander.core.sandwich.reuben import LINES, Reuben


def voiced(moment: str) -> set[str]:
    return {t.split("{")[0] for t in LINES[moment] + LINES.get(moment.split(":")[0], ())}


async def test_a_run_in_reubens_voice_never_repeats_a_line(app):
    summary = await make_forager(app, seed=7).run(patience=30, max_attempts=14)
    events = await app.sandwiches.events_after(summary.run_id)
    lines = [e.payload["reuben"] for e in events if e.subject == ATTEMPTED]
    plain = {Reuben(enabled=False).say(e.payload["outcome"]) for e in events if e.subject == ATTEMPTED}
    spoken = [x for x in lines if x not in plain and not x.startswith(("Made ", "Marginal: ", "Rejected for"))]
    assert len(lines) == summary.attempts and len(spoken) == len(set(spoken)) >= 5
    for e in events:
        if e.subject == ATTEMPTED and e.payload["outcome"] == "rejected" and not e.payload["review"]:
            assert any(e.payload["reuben"].startswith(p) for p in voiced("rejected") if p) or e.payload[
                "reuben"
            ].startswith("Rejected for")
    made = await app.sandwiches.sandwiches(limit=50)
    assert made and all(s.reuben_commentary and not s.reuben_commentary.startswith("Made ") for s in made)
    assert summary.farewell in {t for t in LINES["rest"]}


async def test_switched_off_the_forager_speaks_plainly(app):
    app.settings = app.settings.model_copy(update={"forage": app.settings.forage.model_copy(update={"voice": False})})
    summary = await make_forager(app, seed=7).run(patience=30, max_attempts=6)
    events = await app.sandwiches.events_after(summary.run_id)
    lines = [e.payload["reuben"] for e in events if e.subject == ATTEMPTED]
    assert all(
        x.startswith(("Made ", "Marginal: ", "Rejected for", "No bread", "No filling", "Trivial", "Already"))
        for x in lines
    ), lines
    assert summary.farewell == "Foraging finished."
