"""The factory builds from the models settings section; `wander doctor`'s report."""

from __future__ import annotations

import pytest

from wander.adapters.embed.minilm import MiniLMEmbedder
from wander.adapters.embed.ollama import OllamaEmbedder
from wander.adapters.llm.proposer import ChainProposer, ModelProposer
from wander.adapters.llm.router import RouterDweller
from wander.adapters.llm.rumination import ModelRumination
from wander.adapters.llm.rumination_router import RoutedRumination
from wander.bootstrap.llm_factory import (
    build_dweller,
    build_embedder,
    build_proposer,
    build_rumination,
    check_dweller,
    helpers_wired,
    model_helpers,
    model_settings,
)
from wander.bootstrap.settings import ModelsSettings
from wander.core.domain.errors import InvalidInput
from wander.core.engine.rumination import OfflineRuminator
from wander.faces.cli.doctor import diagnose

from .conftest import StubOffline, UnitEmbedder, make_request

NOTHING: dict[str, str] = {"WANDER_OLLAMA_URL": "http://127.0.0.1:9"}


def _env(ollama=None, anthropic=None, **extra) -> dict[str, str]:
    env = {"WANDER_OLLAMA_URL": ollama.url if ollama else "http://127.0.0.1:9"}
    if anthropic:
        env.update(ANTHROPIC_API_KEY=anthropic.api_key, WANDER_ANTHROPIC_URL=anthropic.url)
    env.update(extra)
    return env


def _models(ollama=None, anthropic=None, **fields) -> ModelsSettings:
    """The models section for the local servers (none: nothing answers Ollama, no key)."""
    extra = {"anthropic_api_key": anthropic.api_key, "anthropic_url": anthropic.url} if anthropic else {}
    return ModelsSettings(ollama_url=ollama.url if ollama else "http://127.0.0.1:9", **extra, **fields)


DEFAULT = ModelsSettings()
KEYED = ModelsSettings(anthropic_api_key="k")


def test_defaults():
    s = model_settings({})
    assert (s.dweller, s.ollama_url, s.ollama_model, s.anthropic_model, s.anthropic_heavy_model) == (
        "offline",
        "http://127.0.0.1:11434",
        "llama3.2:3b",
        "claude-sonnet-4-6",
        "claude-opus-4-6",
    )
    assert (s.retries, s.retry_delay, s.dwell_max_tokens, s.router_cooldown, s.anthropic_api_key) == (
        3,
        1.0,
        800,
        10,
        None,
    )


@pytest.mark.parametrize(
    "env, field",
    [
        ({"WANDER_DWELLER": "gpt"}, "WANDER_DWELLER"),
        ({"WANDER_MODEL_RETRIES": "x"}, "WANDER_MODEL_RETRIES"),
        ({"WANDER_MODEL_RETRIES": "1.5"}, "WANDER_MODEL_RETRIES"),
        ({"WANDER_OLLAMA_TIMEOUT": "-1"}, "WANDER_OLLAMA_TIMEOUT"),
        ({"WANDER_PRICES": "{oops"}, "WANDER_PRICES"),
        ({"WANDER_EMBEDDER": "bert"}, "WANDER_EMBEDDER"),
    ],
)
def test_bad_settings_name_the_variable(env, field):
    with pytest.raises(InvalidInput) as e:
        model_settings(env)
    assert e.value.field == field


def test_dweller_names():
    offline = StubOffline()
    assert build_dweller(offline=offline, models=DEFAULT) is offline
    assert check_dweller(None, model_settings({"WANDER_DWELLER": "AUTO"})) == "auto"
    with pytest.raises(InvalidInput, match="ANTHROPIC_API_KEY"):
        check_dweller("anthropic", DEFAULT)
    with pytest.raises(InvalidInput, match="must be one of"):
        check_dweller("gpt-9", DEFAULT)
    ollama = build_dweller("ollama", offline=offline, models=DEFAULT)
    assert isinstance(ollama, RouterDweller) and ollama.mode == "local" and ollama.cloud is None
    auto = build_dweller("auto", offline=offline, models=DEFAULT)
    assert auto.mode == "rule" and auto.local is not None and auto.cloud is None  # no key, no cloud
    keyed = build_dweller("auto", offline=offline, models=ModelsSettings(anthropic_api_key="k", router_cooldown=4))
    assert keyed.cloud.model == "claude-sonnet-4-6" and keyed.cloud.heavy_model == "claude-opus-4-6"
    assert keyed.cooldown == 4


async def test_built_dwellers_work_against_the_servers(ollama_server, anthropic_server, sleeps):
    models = _models(ollama_server, anthropic_server, anthropic_model="claude-opus-4-6")
    router = build_dweller("auto", offline=StubOffline(), models=models, embedder=UnitEmbedder())
    cloud = await router.dwell(make_request(bridge=0.99))
    local = await router.dwell(make_request())
    assert (cloud.route, cloud.model_used) == ("cloud", "claude-opus-4-6")
    assert (local.route, local.model_used) == ("local", "llama3.2:3b")
    assert cloud.themes_embedding is not None and local.themes_embedding is not None


def test_proposer_and_rumination_builders():
    assert build_proposer(models=DEFAULT) is None and build_rumination(models=DEFAULT) is None
    assert isinstance(build_proposer("ollama", models=DEFAULT), ModelProposer)
    assert isinstance(build_proposer("auto", models=KEYED), ChainProposer)
    r = build_rumination("auto", models=KEYED)
    assert isinstance(r, RoutedRumination) and isinstance(r.offline, OfflineRuminator)
    assert (r.cloud.model, r.cloud.route, r.local.model, r.local.route) == (
        "claude-opus-4-6",
        "cloud",
        "llama3.2:3b",
        "local",
    )
    heavy = build_rumination(
        "anthropic", models=ModelsSettings(anthropic_api_key="k", anthropic_heavy_model="claude-x")
    )
    assert heavy.cloud.model == "claude-x" and heavy.local is None  # the configured heavy model, no local one
    no_key = build_rumination("auto", models=DEFAULT)
    assert no_key.cloud is None and no_key.local.model == "llama3.2:3b"
    local = build_rumination("ollama", models=KEYED)
    assert local.cloud is None and local.local.route == "local"


def test_embedder_builder(ollama_server):
    assert isinstance(build_embedder(models=DEFAULT), MiniLMEmbedder)
    e = build_embedder(models=_models(ollama_server, embedder="ollama", ollama_embed_dim=384))
    assert isinstance(e, OllamaEmbedder) and e.dim == 384 and e.embed(["x"]).shape == (1, 384)


def test_doctor_with_nothing_configured():
    report = diagnose(NOTHING)
    ok = {d["name"]: d["ok"] for d in report["dwellers"]}
    assert ok == {"offline": True, "ollama": False, "anthropic": False, "anthropic (heavy)": False}
    assert report["dweller"] == "offline"
    assert report["proposer"] == report["rumination"] == "offline (knowledge base + geometry)"
    assert report["ca_backend"]["requested"] == "auto" and report["ca_backend"]["active"] in ("numpy", "cupy")
    ca = diagnose({**NOTHING, "WANDER_CA_BACKEND": "numpy"})["ca_backend"]
    assert (ca["requested"], ca["active"]) == ("numpy", "numpy")
    auto = diagnose(NOTHING, dweller="auto")
    assert "cloud: none (ANTHROPIC_API_KEY is not set)" in auto["router"]
    assert "local: none (nothing answers" in auto["router"] and "offline when neither" in auto["router"]


def test_doctor_with_servers(ollama_server, anthropic_server):
    report = diagnose(_env(ollama_server, anthropic_server, WANDER_DWELLER="auto"))
    assert all(d["ok"] for d in report["dwellers"]) and all(e["ok"] for e in report["embedders"])
    assert report["router"].startswith("cloud: anthropic claude-sonnet-4-6 when bridge_score > 0.7")
    assert "local: ollama llama3.2:3b for the other steps" in report["router"]
    # auto routes the model helpers: proposals local first, then the cloud model, rumination on
    # the heavy model when the budget allows; anthropic: the cloud models alone
    assert report["proposer"] == (
        "ollama llama3.2:3b, then anthropic claude-sonnet-4-6 within the session's cloud budget, "
        "then offline (knowledge base + geometry)"
    )
    assert report["rumination"] == (
        "anthropic claude-opus-4-6 (heavy) when the session's cloud budget allows, else ollama llama3.2:3b, "
        "then offline (knowledge base + geometry)"
    )
    cloud = diagnose(_env(ollama_server, anthropic_server), dweller="anthropic")
    assert cloud["rumination"].startswith("anthropic claude-opus-4-6 (heavy)") and "ollama" not in cloud["rumination"]
    assert cloud["proposer"].startswith("anthropic claude-sonnet-4-6 within the session's cloud budget")
    heavy = {d["name"]: d["status"] for d in report["dwellers"]}["anthropic (heavy)"]
    assert heavy == "ready (rumination before a crystal)"
    local = diagnose(_env(ollama_server, anthropic_server), dweller="ollama")
    assert local["rumination"] == local["proposer"] == "ollama llama3.2:3b"
    off = diagnose(_env(ollama_server, WANDER_MODEL_HELPERS="0"), dweller="ollama")
    assert off["rumination"] == "offline (knowledge base + geometry: WANDER_MODEL_HELPERS=0)"
    down = diagnose(_env(None), dweller="ollama")
    assert down["rumination"].startswith("ollama llama3.2:3b (nothing answers")
    assert down["rumination"].endswith("falls back to offline (knowledge base + geometry)")
    assert ollama_server.calls("/api/tags") and anthropic_server.calls("/v1/models/claude-sonnet-4-6")
    assert anthropic_server.calls("/v1/messages") == []  # no tokens spent
    missing = diagnose(
        _env(ollama_server, anthropic_server, WANDER_OLLAMA_MODEL="qwen2.5:7b", WANDER_ANTHROPIC_MODEL="claude-nope"),
        dweller="auto",
    )
    status = {d["name"]: d["status"] for d in missing["dwellers"]}
    assert status["ollama"] == "server up, model not pulled (ollama pull qwen2.5:7b)"
    assert status["anthropic"] == "key accepted, model 'claude-nope' unknown"
    bad_key = diagnose({**_env(None, anthropic_server), "ANTHROPIC_API_KEY": "sk-wrong"})
    assert "refused the key" in {d["name"]: d["status"] for d in bad_key["dwellers"]}["anthropic"]


@pytest.mark.parametrize("dweller", ["offline", None])
def test_no_model_helpers_offline(dweller):
    """What the engine gets as proposer and ruminator (wiring.open_app asks model_helpers):
    nothing but the offline path for the offline dweller (None: the app's own, unnamed)."""
    models = ModelsSettings(anthropic_api_key="k", dweller="auto")
    assert model_helpers(dweller, models) == (None, None)
    assert not helpers_wired(dweller, models)


@pytest.mark.parametrize("dweller", ["anthropic", "auto"])
def test_model_helpers_routed_with_a_cloud_dweller(dweller):
    proposer, ruminator = model_helpers(dweller, KEYED)
    assert helpers_wired(dweller, KEYED) and isinstance(ruminator, RoutedRumination)
    assert ruminator.cloud.model == "claude-opus-4-6"
    if dweller == "auto":
        assert [p.route for p in proposer.proposers] == ["local", "cloud"]
    else:
        assert isinstance(proposer, ModelProposer) and proposer.route == "cloud"
    assert model_helpers(dweller, ModelsSettings(anthropic_api_key="k", helpers=False)) == (None, None)


def test_model_helpers_with_ollama():
    proposer, ruminator = model_helpers("ollama", DEFAULT)
    assert isinstance(proposer, ModelProposer) and isinstance(ruminator, RoutedRumination)
    assert isinstance(ruminator.local, ModelRumination) and ruminator.cloud is None
    assert ruminator.local.route == "local" and ruminator.local.model == "llama3.2:3b"
    assert model_helpers("ollama", ModelsSettings(helpers=False)) == (None, None)
