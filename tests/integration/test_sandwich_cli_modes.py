"""The reflective and pedagogical modes from the command line: `wander corpus ask` answers
through the analysis queries (the same rows as the API), `wander sandwich explain` prints
the definition, the validity function and the types with the corpus's own examples."""

from __future__ import annotations

import json
import subprocess

from tests.wander_cli import wander as run_wander
from wander.bootstrap.foraging import ask_corpus, make_forager
from wander.core.domain.sandwich import TAXONOMY


def wander(cli_env, *args: str) -> subprocess.CompletedProcess:
    return run_wander(args, cli_env, timeout=600)


async def test_corpus_ask_and_sandwich_explain(app, cli_env):
    summary = await make_forager(app, seed=7).run(patience=3, max_attempts=25)
    assert summary.made >= 1
    out = wander(cli_env, "corpus", "ask", "Which ingredients are reused most?", "--json")
    assert out.returncode == 0, out.stderr
    answer = json.loads(out.stdout)
    expected = await ask_corpus(app, "Which ingredients are reused most?")
    assert answer["query"] == "ingredient_frequency" and answer["answer"] == expected["answer"] != []
    text = wander(cli_env, "corpus", "ask", "What structural types do we have?")
    assert text.returncode == 0, text.stderr
    assert "(answered by: type_distribution)" in text.stdout
    made = await app.sandwiches.sandwiches(limit=500)
    assert all(s.structural_type in text.stdout for s in made)
    bad = wander(cli_env, "corpus", "ask", "  ")
    assert bad.returncode == 2 and "error: question: must not be empty" in bad.stderr and "Traceback" not in bad.stderr

    explained = wander(cli_env, "sandwich", "explain")
    assert explained.returncode == 0, explained.stderr
    lines = explained.stdout
    assert "A sandwich is two pieces of bread" in lines and "accepted at" in lines
    assert all(f"{name}:" in lines for name in TAXONOMY)
    # the best sandwich is its type's example; among equals in V the store picks any one (the
    # console may wrap a long example line, so the words are compared without the breaks)
    top = max(s.validity_score for s in made)
    flat = " ".join(lines.split())
    assert any(f"{s.bread_top} / {s.filling} / {s.bread_bottom}" in flat for s in made if s.validity_score == top)
