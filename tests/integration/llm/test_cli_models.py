"""The `wander` command (in process, tests/wander_cli.py) with model dwellers, end to end through the engine and the real
store, against local servers that speak the Ollama and Anthropic protocols."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest

from tests.unit.llm.answers import truncated
from tests.unit.llm.servers import AnthropicServer, OllamaServer, Reply, anthropic_error, ollama_error
from tests.wander_cli import wander
from wander.adapters.llm.dwelling_answer import DWELLING_JSON_SCHEMA

SEED = "information asymmetry"


@pytest.fixture
def ollama():
    with OllamaServer() as s:
        yield s


@pytest.fixture
def claude():
    with AnthropicServer() as s:
        yield s


def model_env(base: dict[str, str], ollama=None, claude=None, **extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in base.items()
        if not k.startswith(
            ("WANDER_OLLAMA", "WANDER_ANTHROPIC", "ANTHROPIC_", "WANDER_DWELLER", "WANDER_PRICES", "OLLAMA_")
        )
    }
    env["WANDER_OLLAMA_URL"] = ollama.url if ollama else "http://127.0.0.1:9"
    if claude:
        env.update(ANTHROPIC_API_KEY=claude.api_key, WANDER_ANTHROPIC_URL=claude.url)
    # Dwelling calls only: the model proposer and ruminator would share the scripted replies.
    env.update(WANDER_MODEL_RETRY_DELAY="0.01", WANDER_LOG_LEVEL="WARNING", WANDER_MODEL_HELPERS="0", **extra)
    return env


async def _stored(db_url: str, session_id: str):
    from wander.adapters.postgres.database import make_engine
    from wander.adapters.postgres.repository import PostgresStore

    engine = make_engine(db_url)
    try:
        store = PostgresStore(engine)
        return await store.get_session(session_id), await store.trace(session_id)
    finally:
        await engine.dispose()


def _run(env, dweller: str, steps: int = 20):
    out = wander(["run", SEED, "--steps", str(steps), "--seed", "5", "--dweller", dweller, "--json"], env)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    summary = json.loads(out.stdout)
    assert summary["status"] == "completed" and summary["steps"] == steps
    return summary, out.stderr


async def test_run_with_ollama(cli_env, db_url, ollama):
    # A rate limit and a truncated answer on the way: retried and repaired, the wander goes on.
    ollama.push(
        "/api/chat", ollama_error(429), Reply(text=truncated(f"CURRENT LOCUS:\n{SEED}\nENCOUNTERED LOCUS:\nx\n", 0.7))
    )
    summary, stderr = _run(model_env(cli_env, ollama), "ollama")
    session, steps = await _stored(db_url, summary["session_id"])
    assert (session.local_calls, session.cloud_calls, session.cloud_spent_cents) == (20, 0, 0)
    assert [s.model_used for s in steps] == ["llama3.2:3b"] * 20
    assert all(s.tokens_used > 0 and s.cost_cents == 0 for s in steps)
    assert all(s.details["route"] == "local" for s in steps)
    assert "truncated JSON closed" in steps[0].details["repairs"]
    assert "both turn on who knows what" in steps[5].connection
    calls = ollama.calls("/api/chat")
    assert len(calls) == 21 and {c.body["model"] for c in calls} == {"llama3.2:3b"}
    assert all(c.body["format"] == DWELLING_JSON_SCHEMA for c in calls)  # structured output
    first, later = calls[0].body["messages"][-1]["content"], calls[-1].body["messages"][-1]["content"]
    assert f"CURRENT LOCUS:\n{SEED}" in first and "RECENT THEMES FROM THIS SESSION:\n(none yet)" in first
    assert "RECENT THEMES FROM THIS SESSION:\n" in later and "signalling" in later.split("ACTIVE RESONANCES")[0]
    assert summary["path"][-1] in later and "note:" not in stderr


async def test_run_with_anthropic(cli_env, db_url, claude):
    claude.push("/v1/messages", anthropic_error(429, retry_after=0.01), anthropic_error(529))
    summary, stderr = _run(model_env(cli_env, claude=claude), "anthropic")
    session, steps = await _stored(db_url, summary["session_id"])
    sent = [body for path, status, body in claude.responses if path == "/v1/messages" and status == 200]
    assert len(sent) == 20 and len(claude.calls("/v1/messages")) == 22
    assert session.cloud_calls == 20 and session.local_calls == 0
    assert [s.model_used for s in steps] == ["claude-sonnet-4-6"] * 20
    for s, body in zip(steps, sent):
        u = body["usage"]
        assert s.tokens_used == u["input_tokens"] + u["output_tokens"]
        # $3 / $15 per million tokens, in cents, rounded up
        assert s.cost_cents == math.ceil(Fraction(u["input_tokens"] * 3 + u["output_tokens"] * 15, 10_000))
    assert session.cloud_spent_cents == sum(s.cost_cents for s in steps) > 0
    assert session.cloud_spent_cents <= session.cloud_budget_cents
    prompts = [c.body["messages"][0]["content"] for c in claude.calls("/v1/messages")]
    assert all(SEED in p or "CURRENT LOCUS" in p for p in prompts) and "note:" not in stderr


async def test_run_auto_routes_by_the_rule_and_says_its_fallback_once(cli_env, db_url, ollama, claude):
    # The cloud fails its first call past the retry limit (4 attempts): the router falls back to
    # the local model, says so once, and tries the cloud again after its cooldown.
    claude.push("/v1/messages", *[anthropic_error(500)] * 4)
    summary, stderr = _run(model_env(cli_env, ollama, claude, WANDER_ROUTER_COOLDOWN="3"), "auto")
    session, steps = await _stored(db_url, summary["session_id"])
    models = [s.model_used for s in steps]
    assert session.local_calls + session.cloud_calls == 20 and session.cloud_calls > 0 and session.local_calls > 0
    assert session.cloud_calls == models.count("claude-sonnet-4-6") and session.local_calls == models.count(
        "llama3.2:3b"
    )
    assert all(s.details["route"] == ("cloud" if s.model_used.startswith("claude") else "local") for s in steps)
    assert session.cloud_spent_cents == sum(s.cost_cents for s in steps)
    fell_back = [s for s in steps if "skipped" in s.details]
    assert fell_back and "Anthropic answered 500" in fell_back[0].details["skipped"][0]
    assert fell_back[0].details["route"] == "local"
    # The note is wrapped to the console's width, which differs between a terminal and a test
    text = " ".join(stderr.split())
    assert text.count("note:") == 1 and "Falling back to ollama (local)" in text
    assert text.count("is unavailable") == 2  # the log warning when it happened, the note at the end
    print(
        f"\nauto: {session.cloud_calls} cloud, {session.local_calls} local of 20 steps, "
        f"{session.cloud_spent_cents} cents"
    )


def test_doctor_cli(ollama, claude, cli_env):
    nothing = wander(["doctor"], model_env(cli_env))
    assert nothing.returncode == 0, nothing.stderr
    print("\n" + nothing.stdout)
    assert "ready (always)" in nothing.stdout and "ANTHROPIC_API_KEY is not set" in nothing.stdout
    served = wander(["doctor", "--dweller", "auto"], model_env(cli_env, ollama, claude))
    assert served.returncode == 0, served.stderr
    print(served.stdout)
    assert served.stdout.count("ready") >= 5 and "cloud: anthropic claude-sonnet-4-6 when" in served.stdout
    bad = wander(["doctor", "--dweller", "gpt"], model_env(cli_env))
    assert bad.returncode == 2 and "dweller: must be one of" in bad.stderr
