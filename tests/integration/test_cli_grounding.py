"""`wander run` with a seed or attractor that matches nothing in the corpus: one line that
names the field and the nearest concepts, exit code 2, nothing written."""

import pytest

from tests.integration.test_cli import count_sessions
from tests.wander_cli import wander


@pytest.mark.parametrize(
    "args, field",
    [(["run", "xqzvbnm plorf"], "seed_concept"), (["run", "tide pools", "--attractor", "qwxz lkjhg"], "attractor")],
)
def test_a_text_that_matches_nothing_is_one_line_with_suggestions(args, field, cli_env):
    out = wander(args, cli_env)
    assert out.returncode == 2, (out.stdout, out.stderr)
    lines = [line for line in out.stderr.strip().splitlines() if line.strip()]
    assert len(lines) == 1, out.stderr
    text = lines[0]
    assert "error:" in text and f"{field}: " in text and "matches nothing in the corpus" in text, text
    assert "nearest concepts: '" in text
    assert "Traceback" not in out.stderr
    assert count_sessions(cli_env) == 0
