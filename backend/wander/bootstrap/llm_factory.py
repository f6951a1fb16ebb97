"""Builds the model adapters the faces need from the settings: the dweller (offline,
ollama, anthropic, or auto = the router over whatever is configured), the concept
proposer, the rumination model and the embedder. Adding a provider is one file and a few
lines here.

Settings: the `models` section of wander.bootstrap.settings (WANDER_DWELLER, WANDER_OLLAMA_*,
ANTHROPIC_API_KEY, WANDER_ANTHROPIC_*, WANDER_PRICES, WANDER_MODEL_*, WANDER_EMBEDDER...).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wander.adapters.embed.minilm import MiniLMEmbedder
from wander.adapters.embed.ollama import OllamaEmbedder
from wander.adapters.llm import anthropic as anthropic_llm
from wander.adapters.llm import ollama as ollama_llm
from wander.adapters.llm.base import ChatModel, RetryPolicy, Sleep
from wander.adapters.llm.evaluator import ModelEvaluator
from wander.adapters.llm.grounding import Grounding
from wander.adapters.llm.pricing import PriceTable
from wander.adapters.llm.proposer import ChainProposer, ModelProposer
from wander.adapters.llm.router import ModelMember, RouterDweller
from wander.adapters.llm.rumination import ModelRumination
from wander.adapters.llm.rumination_router import RoutedRumination
from wander.bootstrap.settings import DWELLERS, EMBEDDERS, ModelsSettings, load_settings
from wander.core.action.evaluator import OfflineEvaluator
from wander.core.action.ports import CloudBudget
from wander.core.domain.errors import InvalidInput
from wander.core.engine.ports import ConceptProposer, Dweller, Embedder
from wander.core.engine.rumination import OfflineRuminator

# The provider SDKs (seconds of CPU to import) load with their adapters' first call.

__all__ = [
    "DWELLERS",
    "EMBEDDERS",
    "build_dweller",
    "build_embedder",
    "build_evaluator",
    "build_proposer",
    "build_rumination",
    "check_dweller",
    "helpers_wired",
    "model_helpers",
    "model_settings",
]


def model_settings(env: Mapping[str, str] | None = None) -> ModelsSettings:
    """The models section of the settings (from `env` alone when given), its price table
    checked: InvalidInput names WANDER_PRICES when it is not a price table."""
    m = load_settings(env).models
    PriceTable.from_json(m.prices)
    return m


def _retry(s: ModelsSettings, sleep: Sleep | None = None) -> RetryPolicy:
    policy = RetryPolicy(retries=s.retries, base_delay=s.retry_delay, max_delay=s.retry_max_delay)
    if sleep is not None:
        policy.sleep = sleep
    return policy


def check_dweller(name: str | None, models: ModelsSettings) -> str:
    """The dweller name to use (the given one or the section's WANDER_DWELLER), checked:
    raises InvalidInput for an unknown name, for anthropic without ANTHROPIC_API_KEY, or for
    a model dweller when WANDER_PRICES is not a price table."""
    chosen = (name or models.dweller).strip().lower()
    if chosen not in DWELLERS:
        raise InvalidInput("dweller", f"must be one of {', '.join(DWELLERS)} (got '{name}')")
    if chosen == "anthropic" and not models.anthropic_api_key:
        raise InvalidInput("dweller", "anthropic needs ANTHROPIC_API_KEY in the environment")
    if chosen != "offline":
        PriceTable.from_json(models.prices)  # InvalidInput names WANDER_PRICES
    return chosen


def _ollama_dweller(s: ModelsSettings, embedder: Embedder | None, sleep: Sleep | None) -> ModelMember:
    return ollama_llm.OllamaDweller(
        s.ollama_url,
        s.ollama_model,
        timeout=s.ollama_timeout,
        embedder=embedder,
        max_tokens=s.dwell_max_tokens,
        retry=_retry(s, sleep),
    )


def _anthropic_options(s: ModelsSettings) -> dict[str, Any]:
    """What an Anthropic chat is made with besides its key and model."""
    return {
        "base_url": s.anthropic_url,
        "heavy_model": s.anthropic_heavy_model,
        "prices": PriceTable.from_json(s.prices),
        "timeout": s.anthropic_timeout,
    }


def _anthropic_dweller(s: ModelsSettings, embedder: Embedder | None, sleep: Sleep | None) -> ModelMember:
    return anthropic_llm.AnthropicDweller(
        s.anthropic_api_key or "",
        s.anthropic_model,
        embedder=embedder,
        max_tokens=s.dwell_max_tokens,
        retry=_retry(s, sleep),
        **_anthropic_options(s),
    )


def build_dweller(
    name: str | None = None,
    *,
    offline: Dweller,
    models: ModelsSettings,
    embedder: Embedder | None = None,
    sleep: Sleep | None = None,
) -> Dweller:
    """offline -> the offline dweller; ollama / anthropic -> that model, falling back to offline;
    auto -> the 001 rule over Anthropic (when a key is set) and Ollama, falling back to offline.
    `embedder` (the app's) gives model residues their themes_embedding."""
    chosen = check_dweller(name, models)
    if chosen == "offline":
        return offline
    s = models
    # model residues are checked against the corpus the offline dweller writes from
    kb = getattr(offline, "kb", None)
    grounding = Grounding(kb, embedder) if kb is not None else None
    if chosen == "ollama":
        return RouterDweller(
            offline=offline,
            local=_ollama_dweller(s, embedder, sleep),
            mode="local",
            cooldown=s.router_cooldown,
            grounding=grounding,
        )
    if chosen == "anthropic":
        return RouterDweller(
            offline=offline,
            cloud=_anthropic_dweller(s, embedder, sleep),
            mode="cloud",
            cooldown=s.router_cooldown,
            grounding=grounding,
        )
    cloud = _anthropic_dweller(s, embedder, sleep) if s.anthropic_api_key else None
    return RouterDweller(
        offline=offline,
        local=_ollama_dweller(s, embedder, sleep),
        cloud=cloud,
        mode="rule",
        cooldown=s.router_cooldown,
        grounding=grounding,
    )


def helpers_wired(name: str | None, models: ModelsSettings) -> bool:
    """Whether the dweller's models also propose analogies/tensions and ruminate: with any
    model dweller (ollama, anthropic, auto) unless WANDER_MODEL_HELPERS is "0". Their cloud
    calls are made within the session's budget left and charged to it (engine.model_spend)."""
    return name in ("ollama", "anthropic", "auto") and models.helpers


def model_helpers(name: str | None, models: ModelsSettings) -> tuple[ConceptProposer | None, RoutedRumination | None]:
    """(proposer, rumination model) for the engine when helpers_wired(name), else (None, None):
    routed as the dweller is (ollama: the local model; anthropic: the cloud model, the heavy
    one ruminating; auto: local first for proposals, the heavy cloud model for rumination
    when the budget allows), each falling back to the offline path."""
    if not helpers_wired(name, models):
        return None, None
    return build_proposer(name, models=models), build_rumination(name, models=models)


def _ollama_chat(s: ModelsSettings, temperature: float | None = None) -> ollama_llm.OllamaChat:
    chat = ollama_llm.OllamaChat(s.ollama_url, s.ollama_model, timeout=s.ollama_timeout)
    if temperature is not None:
        chat.temperature = temperature
    return chat


def _anthropic_chat(s: ModelsSettings) -> anthropic_llm.AnthropicChat:
    return anthropic_llm.AnthropicChat(s.anthropic_api_key or "", s.anthropic_model, **_anthropic_options(s))


def build_proposer(
    name: str | None = None, *, models: ModelsSettings, sleep: Sleep | None = None
) -> ConceptProposer | None:
    """The model that proposes analogies and tensions, or None (offline)."""
    chosen = check_dweller(name, models)
    s = models
    if chosen == "offline":
        return None
    if chosen == "ollama":
        return ModelProposer(_ollama_chat(s), retry=_retry(s, sleep), cooldown=s.router_cooldown)
    if chosen == "anthropic":
        return ModelProposer(_anthropic_chat(s), retry=_retry(s, sleep), cooldown=s.router_cooldown)
    local = ModelProposer(_ollama_chat(s), retry=_retry(s, sleep), cooldown=s.router_cooldown)
    if not s.anthropic_api_key:
        return local
    return ChainProposer([local, ModelProposer(_anthropic_chat(s), retry=_retry(s, sleep), cooldown=s.router_cooldown)])


def build_rumination(
    name: str | None = None, *, models: ModelsSettings, sleep: Sleep | None = None
) -> RoutedRumination | None:
    """What ruminates before a crystal, or None (offline): the heavy cloud model
    (WANDER_ANTHROPIC_HEAVY_MODEL) when the dweller is anthropic or auto with a key and the
    budget covers the turn, the Ollama model for ollama and auto, the offline ruminator last."""
    chosen = check_dweller(name, models)
    s = models
    if chosen == "offline":
        return None
    cloud = local = None
    if chosen in ("anthropic", "auto") and s.anthropic_api_key:
        cloud = ModelRumination(_anthropic_chat(s), model=s.anthropic_heavy_model, retry=_retry(s, sleep))
    if chosen in ("ollama", "auto"):
        local = ModelRumination(_ollama_chat(s), retry=_retry(s, sleep))
    return RoutedRumination(offline=OfflineRuminator(), cloud=cloud, local=local, cooldown=s.router_cooldown)


def build_embedder(name: str | None = None, *, models: ModelsSettings, dim: int | None = None) -> Embedder:
    """minilm (shipped, offline) or ollama (WANDER_OLLAMA_EMBED_MODEL at WANDER_OLLAMA_URL,
    cut to WANDER_OLLAMA_EMBED_DIM, else to `dim` when given: the vector columns' size)."""
    chosen = (name or models.embedder).lower()
    if chosen == "ollama":
        return OllamaEmbedder(models.ollama_url, models.ollama_embed_model, dim=models.ollama_embed_dim or dim)
    if chosen == "minilm":
        return MiniLMEmbedder()
    raise InvalidInput("embedder", f"must be one of {', '.join(EMBEDDERS)} (got '{name}')")


def build_evaluator(
    models: ModelsSettings, offline: OfflineEvaluator, budget: CloudBudget, retry: RetryPolicy | None = None
) -> OfflineEvaluator | ModelEvaluator:
    """WANDER_EVALUATOR=offline -> the rules; model -> Anthropic (with ANTHROPIC_API_KEY),
    then Ollama, then the rules."""
    if models.evaluator != "model":
        return offline
    chats: list[ChatModel] = [_anthropic_chat(models)] if models.anthropic_api_key else []
    chats.append(_ollama_chat(models, temperature=0.2))
    return ModelEvaluator(chats, offline, budget, retry=retry or _retry(models), max_tokens=models.evaluator_max_tokens)
