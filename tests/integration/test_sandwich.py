"""SANDWICH foraging against the real corpus, embedder and Postgres: the autonomous loop and
its patience, the directed modes (files, a URL, a topic), the foraging log and the run's own
outbox, the ingredient and relation tables, the analysis queries and the 8.1 metrics."""

from __future__ import annotations

import json

from sqlalchemy import text

from tests.api.conftest import free_port
from tests.wander_cli import wander
from wander.bootstrap.foraging import make_forager
from wander.core.sandwich.model import MADE, OUTCOMES, SOURCE_ERROR, SUBJECTS

NOTES = {
    "economics/markets.md": "# Markets\n\nIn a market, a buyer and a seller meet at a price. The seller knows the "
    "quality of the goods; the buyer does not. This asymmetry of information is why warranties, reputation and "
    "trust matter: they carry knowledge from the seller to the buyer, and the price settles between supply and "
    "demand.\n\n# Rivers\n\nA river carries sediment from the mountain to the sea. Where it meets the ocean, the "
    "delta spreads the sediment into channels between the land and the water.",
    "biology/cell.html": "<html><head><title>The cell</title></head><body><h1>Membranes</h1><p>The membrane of a "
    "cell sits between the cytoplasm and the environment. Proteins in the membrane act as channels and pumps, "
    "moving ions between inside and outside; the gradient stores energy for the cell.</p>"
    "<script>ignored()</script></body></html>",
}


async def rows(app, sql: str, **params):
    async with app.db.connect() as conn:
        return [dict(r._mapping) for r in (await conn.execute(text(sql), params)).all()]


async def test_autonomous_loop_logs_every_attempt_and_discriminates(app):
    events = []
    app.bus.subscribe(lambda e: _append(events, e))
    summary = await make_forager(app, seed=7).run(patience=3, max_attempts=25)
    log = await rows(app, "SELECT * FROM foraging_log WHERE run_id = :r ORDER BY ts, id", r=summary.run_id)
    assert len(log) == summary.attempts >= 3
    assert all(r["curiosity_prompt"] and r["outcome"] in OUTCOMES and r["outcome_rationale"] for r in log)
    assert summary.made >= 1, summary.outcomes
    assert summary.made < summary.attempts, "the forager must turn some content down"
    if summary.attempts < 25:  # ended by patience: the last 3 attempts failed in a row
        assert all(r["outcome"] != MADE for r in log[-3:])
    # the run's outbox: gapless, started .. attempts .. finished, same as what the bus carried
    stored = await app.sandwiches.events_after(summary.run_id)
    assert [e.seq for e in stored] == list(range(1, len(stored) + 1))
    assert stored[0].subject == SUBJECTS[0] and stored[-1].subject == SUBJECTS[3]
    assert sum(e.subject == SUBJECTS[1] for e in stored) == summary.attempts
    assert sum(e.subject == SUBJECTS[2] for e in stored) == summary.made
    assert [(e.seq, e.subject) for e in events if e.session_id == summary.run_id] == [
        (e.seq, e.subject) for e in stored
    ]
    # ingredients and relations, updated with every stored sandwich
    junction = await rows(app, "SELECT role, COUNT(*) AS n FROM sandwich_ingredients GROUP BY role")
    assert {r["role"]: r["n"] for r in junction} == {
        "bread_top": summary.made,
        "bread_bottom": summary.made,
        "filling": summary.made,
    }
    usage = await rows(app, "SELECT SUM(usage_count) AS n FROM sandwich_ingredient_catalog")
    assert usage[0]["n"] == 3 * summary.made
    for s in await app.sandwiches.sandwiches():
        assert s.validity_score >= 0.7 and s.bread_top != s.filling != s.bread_bottom


async def _append(events, e):
    events.append(e)


async def test_directed_files_topic_duplicates_and_source_errors(app, tmp_path):
    for rel, body in NOTES.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(body)
    forager = make_forager(app, seed=1)
    first = await forager.run(patience=10, source=str(tmp_path))
    log = await app.sandwiches.log(first.run_id)
    assert first.mode == "directed" and first.attempts == 3  # two Markdown sections, one HTML section
    assert {r.source_kind for r in log} == {"file"}
    assert not any("ignored()" in (r.source_title or "") for r in log)
    again = await forager.run(patience=10, source=str(tmp_path))
    assert again.outcomes == {"already_seen": 3}
    topic = await forager.run(patience=2, topic="the immune system and vaccines")
    assert topic.attempts == 1 and (await app.sandwiches.log(topic.run_id))[0].source_kind == "topic"
    for target, words in (
        (str(tmp_path / "nope"), "does not exist"),
        (f"http://127.0.0.1:{free_port()}/page", "refused: 127.0.0.1, a loopback address"),
        ("https://nowhere.invalid/page", "cannot resolve nowhere.invalid"),
        ("nosuchsource:query", "no source named 'nosuchsource'"),
    ):
        failed = await forager.run(patience=2, source=target)
        entry = (await app.sandwiches.log(failed.run_id))[0]
        assert failed.status == "failed" and entry.outcome == SOURCE_ERROR and words in entry.outcome_rationale
        assert (await app.sandwiches.run(failed.run_id)).status == "failed"


def test_cli_forage_and_corpus(cli_env):
    out = wander(["forage", "--patience", "2", "--max-attempts", "6", "--seed", "5", "--json"], cli_env, timeout=600)
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["attempts"] >= 2 and sum(summary["outcomes"].values()) == summary["attempts"]
    stats = wander(["corpus", "stats", "--json"], cli_env, timeout=600)
    assert stats.returncode == 0, stats.stderr
    assert json.loads(stats.stdout)["counts"]["attempts"] == summary["attempts"]
    bad = wander(["forage", "--patience", "0"], cli_env)
    assert bad.returncode == 2 and "patience" in bad.stderr and "Traceback" not in bad.stderr
