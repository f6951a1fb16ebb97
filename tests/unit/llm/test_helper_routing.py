"""001's routing of the model helpers, against local servers speaking the Anthropic and Ollama
protocols (the official SDK clients): rumination on the heavy cloud model when the turn's
budget covers it, else the local model, else offline; proposals routed like the dweller,
within the budget; what every call cost said in the answer, failed cloud calls included."""

from __future__ import annotations

from wander.bootstrap.llm_factory import build_proposer, build_rumination
from wander.bootstrap.settings import ModelsSettings
from wander.core.domain.views import EvidenceItem
from wander.core.engine.model_spend import Spend
from wander.core.engine.ports import RuminationTurn

from .servers import Reply, anthropic_error

TURN = RuminationTurn(
    step=2,
    lens="failed paths",
    gap="You have loci and residues but no failed paths.",
    evidence=[EvidenceItem("res-0001-aa", "residue", "disclosure as a priced good", 0.62)],
    findings_so_far=["residues: disclosure keeps coming back"],
    coverage=0.375,
)
SEED = "disclosure as a market"


def _settings(ollama=None, anthropic=None, **extra) -> ModelsSettings:
    fields = {"ollama_url": ollama.url if ollama else "http://127.0.0.1:9", "retries": 0}
    if anthropic:
        fields.update(anthropic_api_key=anthropic.api_key, anthropic_url=anthropic.url)
    fields.update(extra)
    return ModelsSettings(**fields)


def _models(server) -> list[str]:
    return [r.body["model"] for r in server.calls("/v1/messages")]


async def test_rumination_on_the_heavy_model_when_the_budget_covers_the_turn(ollama_server, anthropic_server):
    anthropic_server.models.append("claude-heavy-test")
    r = build_rumination(
        "auto", models=_settings(ollama_server, anthropic_server, anthropic_heavy_model="claude-heavy-test")
    )
    estimate = r.cloud.estimate_cents(SEED, TURN)
    assert estimate > 0

    reply = await r.ruminate(SEED, TURN, budget_cents=estimate)  # exactly enough
    assert _models(anthropic_server) == ["claude-heavy-test"]  # the configured heavy model, not the dwelling one
    assert ollama_server.calls("/api/chat") == []
    assert (reply.route, reply.model_used) == ("cloud", "claude-heavy-test")
    assert reply.spent == [("cloud", 1, reply.cost_cents)] and 0 < reply.cost_cents <= estimate
    assert reply.finding.startswith("The residues keep returning to disclosure")

    # one cent short of the estimate: the local model, nothing spent
    reply = await r.ruminate(SEED, TURN, budget_cents=estimate - 1)
    assert len(_models(anthropic_server)) == 1 and len(ollama_server.calls("/api/chat")) == 1
    assert (reply.route, reply.model_used, reply.spent) == ("local", "llama3.2:3b", [("local", 1, 0)])
    # no budget given (a crystallization outside a step): no cloud either
    reply = await r.ruminate(SEED, TURN)
    assert reply.route == "local" and len(_models(anthropic_server)) == 1
    assert r.routes == {"cloud": 1, "local": 2, "offline": 0}


async def test_rumination_falls_back_local_then_offline(ollama_server, anthropic_server):
    r = build_rumination("auto", models=_settings(ollama_server, anthropic_server, router_cooldown=2))
    anthropic_server.push("/v1/messages", anthropic_error(400, "invalid request"))
    reply = await r.ruminate(SEED, TURN, budget_cents=500)
    assert reply.route == "local" and _models(anthropic_server) == ["claude-opus-4-6"]
    # the cloud model is skipped for the cooldown, then asked again
    for _ in range(2):
        assert (await r.ruminate(SEED, TURN, budget_cents=500)).route == "local"
    assert len(_models(anthropic_server)) == 1
    assert (await r.ruminate(SEED, TURN, budget_cents=500)).route == "cloud"

    # an empty cloud answer (retried once) costs what it cost, then the local model answers
    anthropic_server.push("/v1/messages", Reply(text=""), Reply(text=""))
    reply = await r.ruminate(SEED, TURN, budget_cents=500)
    assert reply.route == "local"
    assert [s[:2] for s in reply.spent] == [("cloud", 2), ("local", 1)] and reply.spent[0][2] >= 2
    spend = Spend()
    spend.add(reply)
    assert (spend.cloud_calls, spend.local_calls, spend.cloud_cents) == (2, 1, reply.spent[0][2])

    # nothing answers: the offline ruminator, honest about the evidence
    down = build_rumination("anthropic", models=_settings(None, anthropic_server, anthropic_url="http://127.0.0.1:9"))
    reply = await down.ruminate(SEED, TURN, budget_cents=500)
    assert (reply.route, reply.spent) == ("offline", [])
    assert reply.finding.startswith("failed paths: disclosure as a priced good")


async def test_proposals_routed_within_the_budget(ollama_server, anthropic_server):
    cloud = build_proposer("anthropic", models=_settings(None, anthropic_server))
    assert await cloud.propose_tensions("secrecy", budget_cents=0) == []  # the estimate is over 0 cents
    assert _models(anthropic_server) == []
    got = await cloud.propose_tensions("secrecy", budget_cents=5)
    assert list(got) == ["transparency", "disclosure mandates", "open books"]
    assert _models(anthropic_server) == ["claude-sonnet-4-6"]
    assert got.spent == [("cloud", 1, 1)]  # a short call, rounded up to a whole cent

    # auto: the local model first; the cloud model only when it gives nothing, within what is left
    auto = build_proposer("auto", models=_settings(ollama_server, anthropic_server))
    got = await auto.propose_analogies("a", "b", "lighthouse", budget_cents=5)
    assert got and got.spent == [("local", 1, 0)] and len(_models(anthropic_server)) == 1
    ollama_server.push("/api/chat", Reply(text="no idea"), Reply(text="still none"))
    got = await auto.propose_tensions("secrecy", budget_cents=5)
    assert list(got) == ["transparency", "disclosure mandates", "open books"]
    assert got.spent == [("local", 2, 0), ("cloud", 1, 1)] and len(_models(anthropic_server)) == 2
    ollama_server.push("/api/chat", Reply(text="no idea"), Reply(text="still none"))
    assert await auto.propose_tensions("secrecy", budget_cents=0) == []
    assert len(_models(anthropic_server)) == 2  # no budget left: the cloud model is not asked
