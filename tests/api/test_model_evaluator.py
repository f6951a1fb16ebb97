"""The model evaluator (WANDER_EVALUATOR=model) over HTTP, with the real anthropic and
ollama SDK clients talking to local servers of their protocols: structured output, the
wander's cloud budget held before a call and reconciled from usage after it, refusal when
the budget cannot cover a call, repair of malformed answers, and the fall back to the
offline rules when no model gives a usable answer."""

from __future__ import annotations

import asyncio
import json
import uuid

import pytest
from sqlalchemy import insert

from tests.api.conftest import API, create
from tests.api.test_proposals import INSIGHT, write_assets
from tests.unit.llm.answers import hopeless
from tests.unit.llm.servers import AnthropicServer, OllamaServer, Reply, anthropic_error
from wander.adapters.postgres.session_budget import SessionBudget
from wander.adapters.postgres.tables import DEFAULT_PROJECT_ID, WanderCrystal
from wander.bootstrap.settings import load_settings

A = "/api/v1/wander"


@pytest.fixture
def anthropic_server():
    with AnthropicServer() as s:
        yield s


@pytest.fixture
def ollama_server():
    with OllamaServer() as s:
        yield s


@pytest.fixture
def settings(db_url, tmp_path, anthropic_server, ollama_server):
    return load_settings(
        {
            "WANDER_DATABASE_URL": db_url,
            "WANDER_HOME": str(tmp_path / "home"),
            "WANDER_EVALUATOR": "model",
            "ANTHROPIC_API_KEY": anthropic_server.api_key,
            "WANDER_ANTHROPIC_URL": anthropic_server.url,
            "WANDER_OLLAMA_URL": ollama_server.url,
            "WANDER_MODEL_RETRIES": "0",
        }
    )


def answer(**override) -> str:
    d = {
        "action": "Run a two-week paper trade on data vendors that publish their error rates",
        "asset": "disclosed-data vendors",
        "recommendation": "act",
        "cost_cents": 20000,
        "p_success": 0.55,
        "payoff_multiple": 2.4,
        "tractability": 0.7,
        "worst_case_loss_cents": 1,
        "rationale": "Disclosure is priced where it is scarce. The assets cover data engineering.",
    }
    d.update(override)
    return json.dumps(d)


async def crystal_in(app, client, budget_cents: int) -> tuple[str, str]:
    vector = app.embedder.embed([INSIGHT])[0]
    session = await create(client, max_steps=5, cloud_budget_cents=budget_cents)
    loci = (await client.get(f"{API}/{session['id']}/loci")).json()
    crystal_id = uuid.uuid4()
    async with app.db.begin() as conn:
        await conn.execute(
            insert(WanderCrystal.__table__).values(
                id=crystal_id,
                project_id=DEFAULT_PROJECT_ID,
                session_id=uuid.UUID(session["id"]),
                insight=INSIGHT,
                embedding=vector,
                confidence=0.8,
                actionability=0.6,
                domains=["possession"],
                bread_a_locus_id=uuid.UUID(loci[0]["id"]),
                structural_type="bridge",
                validity={"V": 0.78, "verdict": "accepted", "novelty": 0.5, "filling": "price signal"},
            )
        )
    return session["id"], str(crystal_id)


async def propose(client, crystal_id: str) -> dict:
    r = await client.post(f"{A}/crystals/{crystal_id}/proposals")
    assert r.status_code == 201, r.text
    return r.json()


async def spend(client, session_id: str) -> tuple[int, int, int]:
    s = (await client.get(f"{API}/{session_id}")).json()
    return s["cloud_spent_cents"], s["cloud_calls"], s["local_calls"]


async def test_cloud_evaluation_is_structured_held_and_reconciled(app, client, anthropic_server, ollama_server):
    write_assets(app, stop_loss=0.4)
    session_id, crystal_id = await crystal_in(app, client, budget_cents=500)
    anthropic_server.push("/v1/messages", Reply(text=answer(cost_cents=40000)))
    p = await propose(client, crystal_id)
    e = p["evaluation"]
    assert p["evaluator"] == e["evaluator"] == "model:anthropic/claude-sonnet-4-6"
    # Bounded, not trusted: the cost is capped at max_stake (250.00), the loss follows the stop loss.
    assert e["cost_cents"] == 25000 and e["worst_case_loss_cents"] == 10000 != e["cost_cents"]
    assert e["expected_value_cents"] == round(0.55 * 25000 * 2.4 - 25000) and e["recommendation"] == "act"
    assert any("capped at max_stake" in a for a in e["model"]["adjusted"])
    assert e["evidence"]["crystal"]["id"] == crystal_id and "rules_reference" in e and "model_fallback" not in e
    # One call, held at its estimate before it was made, then reconciled to what the usage cost.
    (call,) = anthropic_server.calls("/v1/messages")
    assert call.body["tool_choice"] == {"type": "tool", "name": "answer"}
    assert set(call.body["tools"][0]["input_schema"]["required"]) >= {"action", "cost_cents", "worst_case_loss_cents"}
    assert INSIGHT in call.body["messages"][0]["content"] and "data engineering" in call.body["messages"][0]["content"]
    spent, cloud_calls, local_calls = await spend(client, session_id)
    assert spent == e["model"]["cost_cents"] > 0 and (cloud_calls, local_calls) == (1, 0)
    assert ollama_server.calls("/api/chat") == []
    events = [ev for ev in await app.store.events_after(session_id) if ev.subject == "wander.proposal.proposed"]
    assert events[0].payload["evaluator"] == "model:anthropic/claude-sonnet-4-6"


async def test_a_cloud_call_the_budget_cannot_cover_is_not_made(app, client, anthropic_server, ollama_server):
    write_assets(app)
    session_id, crystal_id = await crystal_in(app, client, budget_cents=1)  # an evaluation is estimated above 1 cent
    ollama_server.push("/api/chat", Reply(text=answer(cost_cents=5000, worst_case_loss_cents=9000)))
    e = (await propose(client, crystal_id))["evaluation"]
    assert anthropic_server.calls("/v1/messages") == []
    assert e["evaluator"] == "model:ollama/llama3.2:3b"
    assert "cannot cover" in e["model_fallback"][0] and "anthropic" in e["model_fallback"][0]
    # A loss claimed above the cost is brought down to it (a paper position loses at most its cost).
    assert (e["cost_cents"], e["worst_case_loss_cents"]) == (5000, 5000)
    (chat,) = ollama_server.calls("/api/chat")
    assert chat.body["format"]["required"] and chat.body["format"]["properties"]["p_success"] == {"type": "number"}
    assert await spend(client, session_id) == (0, 0, 1)


async def test_malformed_answers_are_repaired_or_retried(app, client, anthropic_server, ollama_server):
    write_assets(app)
    session_id, crystal_id = await crystal_in(app, client, budget_cents=500)
    # Anthropic: prose twice (one corrective retry, then it is passed over; both calls paid).
    anthropic_server.push("/v1/messages", Reply(text=hopeless()), Reply(text=hopeless()))
    # Ollama: the JSON in a code fence with prose, a trailing comma and a percentage: repaired.
    fenced = "Here you go:\n```json\n" + answer(p_success="60%")[:-1] + ",}\n```"
    ollama_server.push("/api/chat", Reply(text=fenced))
    e = (await propose(client, crystal_id))["evaluation"]
    calls = anthropic_server.calls("/v1/messages")
    assert len(calls) == 2 and "could not be used" in calls[1].body["messages"][-1]["content"]
    assert e["evaluator"] == "model:ollama/llama3.2:3b" and e["p_success"] == 0.6
    assert {"code fence", "trailing commas"} <= set(e["model"]["repairs"])
    assert "unusable answers" in e["model_fallback"][0]
    spent, cloud_calls, local_calls = await spend(client, session_id)
    assert cloud_calls == 2 and local_calls == 1 and 0 < spent <= 500


async def test_no_usable_model_falls_back_to_the_rules_and_releases_the_hold(
    app, client, anthropic_server, ollama_server
):
    write_assets(app)
    session_id, crystal_id = await crystal_in(app, client, budget_cents=500)
    anthropic_server.push("/v1/messages", anthropic_error(529))  # overloaded; no retries configured
    ollama_server.push("/api/chat", Reply(text=hopeless()), Reply(text='{"action": 3}'))
    p = await propose(client, crystal_id)
    e = p["evaluation"]
    assert p["evaluator"] == e["evaluator"] == "offline-rules"
    assert len(e["model_fallback"]) == 2
    assert "unavailable" in e["model_fallback"][0] and "unusable answers" in e["model_fallback"][1]
    assert e["cost_cents"] > 0 and "model" not in e
    # The failed cloud call held its estimate and gave it back; the local calls are counted.
    assert await spend(client, session_id) == (0, 1, 2)


async def test_holds_never_overrun_the_budget_under_concurrency(app, client):
    session_id, _ = await crystal_in(app, client, budget_cents=10)
    budget = SessionBudget(app.db)
    held = await asyncio.gather(*[budget.reserve(session_id, 3) for _ in range(8)])
    assert sum(held) == 3
    assert (await spend(client, session_id))[0] == 9
    await budget.settle(session_id, 3, 1, "cloud")
    assert await spend(client, session_id) == (7, 1, 0)
    assert not await budget.reserve(str(uuid.uuid4()), 1) and not await budget.reserve("not-an-id", 1)
