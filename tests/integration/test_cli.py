"""The `wander` command against the test database: in this process (tests/wander_cli.py), and
as a real process where the process is what is tested (its exit code and output through the
entry point, a kill midway)."""

import asyncio
import json
import os
import signal
import subprocess
import time

import pytest

from tests.wander_cli import WANDER, wander, wander_process


def list_sessions(env) -> list[dict]:
    out = wander(["sessions", "--json"], env)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def count_sessions(env) -> int:
    """Read through the store: a CLI start only to count would cost seconds per check."""
    return asyncio.run(_count_sessions(env["WANDER_DATABASE_URL"]))


async def _count_sessions(db_url: str) -> int:
    from wander.adapters.postgres.database import make_engine
    from wander.adapters.postgres.repository import PostgresStore

    db = make_engine(db_url)
    try:
        return len(await PostgresStore(db).list_sessions())
    finally:
        await db.dispose()


@pytest.mark.parametrize(
    "args, field",
    [
        (["run", "   "], "seed"),
        (["run", ""], "seed"),
        (["run", "x", "--steps", "0"], "steps"),
        (["run", "x", "--steps", "-3"], "steps"),
        (["run", "x", "--steps", "100000000"], "steps"),
        (["run", "x", "--temperature", "0"], "temperature"),
        (["run", "x", "--temperature", "-1"], "temperature"),
        (["run", "x", "--domains", "not-a-domain"], "allowed_domains"),
        (["run", "x", "--forbid", "nonsense"], "forbidden_domains"),
        (["resume", "00000000-0000-0000-0000-00000000abcd"], "session"),
        (["resume", "not-a-uuid"], "session"),
        (["show", "not-a-uuid"], "session"),
        (["kb", "import", "/definitely/not/here"], "path"),
        (["sessions", "--status", "sleeping"], "status"),
    ],
)
def test_bad_input_is_one_line_exit_2_nothing_written(args, field, cli_env):
    out = wander(args, cli_env)
    assert out.returncode == 2, (out.stdout, out.stderr)
    lines = [line for line in out.stderr.strip().splitlines() if line.strip()]
    assert len(lines) == 1, out.stderr
    assert "error:" in lines[0] and field in lines[0], lines[0]
    assert "Traceback" not in out.stderr
    assert count_sessions(cli_env) == 0


def test_the_real_command_answers_bad_input_with_one_line_and_exit_2(cli_env):
    """Through the entry point (`python -m wander.faces.cli`), in a process of its own."""
    out = wander_process(["run", "x", "--steps", "0"], cli_env)
    assert out.returncode == 2, (out.stdout, out.stderr)
    lines = [line for line in out.stderr.strip().splitlines() if line.strip()]
    assert len(lines) == 1, out.stderr
    assert "error:" in lines[0] and "steps" in lines[0], lines[0]
    assert "Traceback" not in out.stderr
    assert count_sessions(cli_env) == 0


def test_unreadable_import_file(cli_env, tmp_path):
    bad = tmp_path / "notes.md"
    bad.write_bytes(b"\xff\xfe\xfa not utf-8 \xff")
    out = wander(["kb", "import", str(bad)], cli_env)
    assert out.returncode == 2 and "path" in out.stderr and "cannot read" in out.stderr


def count_crystals(env, session_id: str) -> int:
    return asyncio.run(_count_crystals(env["WANDER_DATABASE_URL"], session_id))


async def _count_crystals(db_url: str, session_id: str) -> int:
    from wander.adapters.postgres.database import make_engine
    from wander.adapters.postgres.repository import PostgresStore

    db = make_engine(db_url)
    try:
        crystals = await PostgresStore(db).find_crystals(session_id=session_id, status=None)
        return sum(c.status != "invalidated" for c in crystals)  # a rejected filling formed none
    finally:
        await db.dispose()


def test_run_json_show_and_sessions(cli_env):
    out = wander(["run", "tide pool", "--steps", "6", "--seed", "3", "--json"], cli_env)
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["steps"] == 6 and summary["status"] == "completed"
    assert len(summary["path"]) == 7 and summary["path"][0] == "tide pool"
    # 000's answer to a run, as POST .../wander?wait=true gives it
    assert (summary["steps_completed"], summary["stopped_reason"]) == (6, "max_steps")
    assert summary["crystals_formed"] == count_crystals(cli_env, summary["session_id"])
    shown = wander(["show", summary["session_id"]], cli_env)
    assert shown.returncode == 0
    for facet in ("connection", "tension", "bridge", "surprise", "possibility", "themes"):
        assert shown.stdout.count(facet) >= 6
    assert [s["id"] for s in list_sessions(cli_env)] == [summary["session_id"]]


def test_kb_import_then_stats(cli_env, tmp_path):
    notes = tmp_path / "mynotes" / "strategy"
    notes.mkdir(parents=True)
    (notes / "moats.md").write_text("# Pricing power\nFirms with #moats keep margins.\n\n# Switching costs\nLock-in.")
    out = wander(["kb", "import", str(tmp_path / "mynotes")], cli_env)
    assert out.returncode == 0, out.stderr
    assert "imported 2 chunks" in out.stdout
    stats = wander(["kb", "stats"], cli_env)
    assert stats.returncode == 0
    assert "strategy" in stats.stdout and "wordnet" in stats.stdout
    # Imported domains become known domains for scoping a wander.
    run = wander(["run", "pricing", "--steps", "2", "--domains", "strategy", "--domains", "artifact"], cli_env)
    assert run.returncode == 0, run.stderr


async def _poll_steps(db_url: str, proc: subprocess.Popen, at_least: int, deadline: float) -> tuple[str | None, int]:
    """(session id, steps committed) once the run's wander has committed AT_LEAST steps,
    read through the store (a CLI start per poll costs seconds; a step costs milliseconds)."""
    from wander.adapters.postgres.database import make_engine
    from wander.adapters.postgres.repository import PostgresStore

    db = make_engine(db_url)
    try:
        store = PostgresStore(db)
        sid, count = None, 0
        while time.time() < deadline and proc.poll() is None:
            found = await store.list_sessions()
            if found:
                sid, count = str(found[0].id), found[0].step_count
                if count >= at_least:
                    break
            await asyncio.sleep(0.02)
        return sid, count
    finally:
        await db.dispose()


async def test_kill_9_midway_then_resume_finishes_gapless(cli_env):
    total = 60
    proc = subprocess.Popen(
        WANDER + ["run", "information asymmetry", "--steps", str(total), "--seed", "9"],
        env=cli_env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        session_id, _ = await _poll_steps(cli_env["WANDER_DATABASE_URL"], proc, 20, time.time() + 240)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    assert session_id, "the run never created its session"
    killed_at = next(s["step_count"] for s in list_sessions(cli_env) if s["id"] == session_id)
    assert 0 < killed_at < total, killed_at

    # Real processes, as the killed one: the paths compared are walked by fresh processes alike.
    out = wander_process(["resume", session_id, "--json"], cli_env)
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["status"] == "completed"
    steps = [r["step"] for r in summary["residues"]]
    assert steps == list(range(1, total + 1)), "gap or duplicate in the trace"

    # The resumed wander walked exactly the path an uninterrupted one walks.
    whole = wander_process(["run", "information asymmetry", "--steps", str(total), "--seed", "9", "--json"], cli_env)
    assert whole.returncode == 0, whole.stderr
    assert json.loads(whole.stdout)["path"] == summary["path"]
