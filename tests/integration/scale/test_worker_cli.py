"""`wander worker` refuses to start without NATS, in one line (the embedded default has no
work queue: runs stay in the API process)."""

import os

from tests.wander_cli import wander


def test_worker_without_nats_is_a_one_line_error(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "WANDER_NATS_URL"}
    env.update(WANDER_HOME=str(tmp_path), COLUMNS="200")
    out = wander(["worker"], env, timeout=120)
    assert out.returncode == 2, out
    lines = [line for line in out.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "WANDER_NATS_URL" in lines[0], out.stderr
    assert "Traceback" not in out.stderr


def test_worker_rejects_a_bad_concurrency(tmp_path):
    env = dict(os.environ, WANDER_HOME=str(tmp_path), WANDER_NATS_URL="nats://127.0.0.1:1", COLUMNS="200")
    out = wander(["worker", "--concurrency", "0"], env, timeout=120)
    assert out.returncode == 2 and "concurrency" in out.stderr, out
