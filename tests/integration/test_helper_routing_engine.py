"""The model helpers in a real wander (engine, offline dweller, in-memory store) against local
servers speaking the Anthropic and Ollama protocols: the cloud proposals and the heavy
model's rumination are charged to the session's cloud budget, never past it."""

from __future__ import annotations

import uuid

from tests.unit.llm.servers import AnthropicServer, OllamaServer
from wander.adapters.bus.inprocess import InProcessBus
from wander.adapters.llm.offline import OfflineDweller
from wander.adapters.memory.inmemory_store import InMemoryStore
from wander.bootstrap.llm_factory import build_dweller, model_helpers
from wander.bootstrap.settings import ModelsSettings
from wander.core.engine.clock import ManualClock
from wander.core.engine.service import NewWander, WanderEngine

SEED = "information asymmetry"


def _engine(knowledge, embedder, models, dweller="anthropic", model_dwells=False):
    proposer, ruminator = model_helpers(dweller, models)
    store = InMemoryStore()
    offline = OfflineDweller(knowledge)
    engine = WanderEngine(
        store=store,  # type: ignore[arg-type]
        knowledge=knowledge,
        embedder=embedder,
        dweller=build_dweller(dweller, offline=offline, models=models, embedder=embedder) if model_dwells else offline,
        bus=InProcessBus(),
        clock=ManualClock(),
        project_id=f"helpers-{uuid.uuid4()}",
        proposer=proposer,
        ruminator=ruminator,
    )
    return engine, store, proposer, ruminator


def _models(anthropic, ollama=None) -> ModelsSettings:
    return ModelsSettings(
        anthropic_api_key=anthropic.api_key,
        anthropic_url=anthropic.url,
        ollama_url=ollama.url if ollama else "http://127.0.0.1:9",
        retries=0,
    )


async def test_cloud_helpers_charged_and_crystals_ruminated_on_the_heavy_model(knowledge, embedder):
    with AnthropicServer() as an:
        engine, store, proposer, ruminator = _engine(knowledge, embedder, _models(an))
        s = await engine.create(
            NewWander(
                seed_concept=SEED, max_steps=70, human_checkpoint_frequency=0, random_seed=2, cloud_budget_cents=2000
            )
        )
        await engine.run(s.id)
        session = await store.get_session(s.id)
        calls = an.calls("/v1/messages")
        heavy = [c for c in calls if c.body["model"] == "claude-opus-4-6"]
        # every cloud call of the helpers is the session's: its calls and its cents
        spent = proposer.usage.cost_cents + ruminator.cloud.usage.cost_cents
        assert session.cloud_calls == len(calls) == proposer.usage.calls + ruminator.cloud.usage.calls
        assert session.cloud_spent_cents == spent > 0
        assert session.local_calls == 0 and session.cloud_spent_cents <= session.cloud_budget_cents
        # the crystals' rumination ran on the heavy model, each turn saying so
        crystals = [c for c in store.crystals_by_id.values() if c.session_id == s.id]
        assert crystals and heavy
        turns = [t for c in crystals for t in c.rumination]
        assert {(t.get("model"), t.get("route")) for t in turns} == {("claude-opus-4-6", "cloud")}
        assert sum(t["cost_cents"] for t in turns) <= ruminator.cloud.usage.cost_cents
        assert len(heavy) >= len(turns)


async def test_a_small_budget_is_never_overrun(knowledge, embedder):
    with AnthropicServer() as an, OllamaServer() as ol:
        engine, store, proposer, ruminator = _engine(knowledge, embedder, _models(an, ol), dweller="auto")
        s = await engine.create(
            NewWander(
                seed_concept=SEED, max_steps=40, human_checkpoint_frequency=0, random_seed=2, cloud_budget_cents=3
            )
        )
        # the local model answers nothing usable: proposals go to the cloud model while the budget lasts
        ol.push("/api/chat", *[_nothing() for _ in range(200)])
        await engine.run(s.id)
        session = await store.get_session(s.id)
        assert len(an.calls("/v1/messages")) == session.cloud_calls == 3  # a cent each
        assert session.cloud_spent_cents == 3 and session.stopped_reason == "budget_exhausted"
        assert session.local_calls == len(ol.calls("/api/chat")) > 0


async def test_the_dwelling_sees_what_the_proposals_spent(knowledge, embedder):
    """Cloud proposals, then a cloud dwelling in the same step: the dwelling's budget check
    counts the proposals' cents, so the wander ends with its budget spent, not overrun (at
    step 4: 8 cents spent, two proposals make 10; a dwelling estimated at 2 cents against the
    step's start would have made it 11)."""
    with AnthropicServer() as an:
        engine, store, proposer, ruminator = _engine(knowledge, embedder, _models(an), model_dwells=True)
        s = await engine.create(
            NewWander(
                seed_concept=SEED, max_steps=40, human_checkpoint_frequency=0, random_seed=2, cloud_budget_cents=10
            )
        )
        await engine.run(s.id)
        session = await store.get_session(s.id)
        dwelt = sum(t.cost_cents for t in store.traces[s.id])
        assert dwelt > 0 and proposer.usage.cost_cents > 0
        assert session.cloud_spent_cents == dwelt + proposer.usage.cost_cents + ruminator.cloud.usage.cost_cents
        assert session.cloud_spent_cents == 10 and session.stopped_reason == "budget_exhausted"
        assert session.cloud_calls == len(an.calls("/v1/messages"))


def _nothing():
    from tests.unit.llm.servers import Reply

    return Reply(text="nothing comes to mind")
