"""Builds the model adapters the faces need from the environment: the dweller (offline,
ollama, anthropic, or auto = the router over whatever is configured), the concept
proposer, the rumination model and the embedder. Adding a provider is one file and a few
lines here.

Environment (defaults in brackets):
  WANDER_DWELLER [offline]          offline | ollama | anthropic | auto
  WANDER_OLLAMA_URL [http://127.0.0.1:11434], WANDER_OLLAMA_MODEL [llama3.2:3b],
  WANDER_OLLAMA_TIMEOUT [120], WANDER_OLLAMA_EMBED_MODEL [nomic-embed-text], WANDER_OLLAMA_EMBED_DIM [-]
  ANTHROPIC_API_KEY [-], WANDER_ANTHROPIC_URL [SDK default], WANDER_ANTHROPIC_MODEL [claude-sonnet-4-6],
  WANDER_ANTHROPIC_HEAVY_MODEL [claude-opus-4-6], WANDER_ANTHROPIC_TIMEOUT [60]
  WANDER_PRICES [-]                 JSON price overrides, $ per million tokens
  WANDER_MODEL_RETRIES [3], WANDER_MODEL_RETRY_DELAY [1.0], WANDER_MODEL_RETRY_MAX_DELAY [20]
  WANDER_DWELL_MAX_TOKENS [800], WANDER_ROUTER_COOLDOWN [10]
  WANDER_EMBEDDER [minilm]          minilm | ollama
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from wander.domain.errors import InvalidInput
from wander.engine.ports import ConceptProposer, Dweller, Embedder, RuminationModel
from wander.llm import defaults
from wander.llm.base import RetryPolicy, Sleep
from wander.llm.pricing import PriceTable
from wander.llm.proposer import ChainProposer, ModelProposer
from wander.llm.router import RouterDweller
from wander.llm.rumination import ModelRumination

# The provider modules (and their SDKs) are imported where they are first needed.

DWELLERS = ("offline", "ollama", "anthropic", "auto")
EMBEDDERS = ("minilm", "ollama")


def _env(env: Mapping[str, str] | None) -> Mapping[str, str]:
    return os.environ if env is None else env


def _float(env: Mapping[str, str], key: str, default: float, low: float = 0.0) -> float:
    raw = env.get(key)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise InvalidInput(key, f"must be a number (got '{raw}')") from None
    if value < low:
        raise InvalidInput(key, f"must be at least {low:g} (got {raw})")
    return value


def _int(env: Mapping[str, str], key: str, default: int, low: int = 0) -> int:
    value = _float(env, key, default, low)
    if value != int(value):
        raise InvalidInput(key, f"must be a whole number (got {env.get(key)})")
    return int(value)


@dataclass(frozen=True)
class ModelSettings:
    dweller: str
    ollama_url: str
    ollama_model: str
    ollama_timeout: float
    ollama_embed_model: str
    ollama_embed_dim: int | None
    anthropic_key: str | None
    anthropic_url: str | None
    anthropic_model: str
    anthropic_heavy_model: str
    anthropic_timeout: float
    prices: PriceTable
    retries: int
    retry_delay: float
    retry_max_delay: float
    dwell_max_tokens: int
    cooldown: int
    embedder: str

    def retry_policy(self, sleep: Sleep | None = None) -> RetryPolicy:
        policy = RetryPolicy(retries=self.retries, base_delay=self.retry_delay, max_delay=self.retry_max_delay)
        if sleep is not None:
            policy.sleep = sleep
        return policy


def model_settings(env: Mapping[str, str] | None = None) -> ModelSettings:
    env = _env(env)
    dweller = (env.get("WANDER_DWELLER") or "offline").strip().lower()
    if dweller not in DWELLERS:
        raise InvalidInput("WANDER_DWELLER", f"must be one of {', '.join(DWELLERS)} (got '{dweller}')")
    embedder = (env.get("WANDER_EMBEDDER") or "minilm").strip().lower()
    if embedder not in EMBEDDERS:
        raise InvalidInput("WANDER_EMBEDDER", f"must be one of {', '.join(EMBEDDERS)} (got '{embedder}')")
    embed_dim = env.get("WANDER_OLLAMA_EMBED_DIM")
    return ModelSettings(
        dweller=dweller,
        ollama_url=(env.get("WANDER_OLLAMA_URL") or defaults.OLLAMA_URL).rstrip("/"),
        ollama_model=env.get("WANDER_OLLAMA_MODEL") or defaults.OLLAMA_MODEL,
        ollama_timeout=_float(env, "WANDER_OLLAMA_TIMEOUT", defaults.OLLAMA_TIMEOUT, 0.01),
        ollama_embed_model=env.get("WANDER_OLLAMA_EMBED_MODEL") or defaults.OLLAMA_EMBED_MODEL,
        ollama_embed_dim=_int(env, "WANDER_OLLAMA_EMBED_DIM", 0, 1) if embed_dim else None,
        anthropic_key=env.get("ANTHROPIC_API_KEY") or None,
        anthropic_url=env.get("WANDER_ANTHROPIC_URL") or None,
        anthropic_model=env.get("WANDER_ANTHROPIC_MODEL") or defaults.ANTHROPIC_MODEL,
        anthropic_heavy_model=env.get("WANDER_ANTHROPIC_HEAVY_MODEL") or defaults.ANTHROPIC_HEAVY_MODEL,
        anthropic_timeout=_float(env, "WANDER_ANTHROPIC_TIMEOUT", defaults.ANTHROPIC_TIMEOUT, 0.01),
        prices=PriceTable.from_env(env),
        retries=_int(env, "WANDER_MODEL_RETRIES", 3),
        retry_delay=_float(env, "WANDER_MODEL_RETRY_DELAY", 1.0),
        retry_max_delay=_float(env, "WANDER_MODEL_RETRY_MAX_DELAY", 20.0),
        dwell_max_tokens=_int(env, "WANDER_DWELL_MAX_TOKENS", 800, 64),
        cooldown=_int(env, "WANDER_ROUTER_COOLDOWN", 10, 1),
        embedder=embedder,
    )  # fmt: skip


def check_dweller(name: str | None, env: Mapping[str, str] | None = None) -> str:
    """The dweller name to use (the given one or WANDER_DWELLER), checked: raises InvalidInput
    for an unknown name or for anthropic without ANTHROPIC_API_KEY."""
    s = model_settings(env)
    chosen = (name or s.dweller).strip().lower()
    if chosen not in DWELLERS:
        raise InvalidInput("dweller", f"must be one of {', '.join(DWELLERS)} (got '{name}')")
    if chosen == "anthropic" and not s.anthropic_key:
        raise InvalidInput("dweller", "anthropic needs ANTHROPIC_API_KEY in the environment")
    return chosen


def _ollama_dweller(s: ModelSettings, embedder: Embedder | None, sleep: Sleep | None) -> Dweller:
    from wander.llm import ollama as ollama_llm

    return ollama_llm.OllamaDweller(s.ollama_url, s.ollama_model, timeout=s.ollama_timeout, embedder=embedder,
                                    max_tokens=s.dwell_max_tokens, retry=s.retry_policy(sleep))  # fmt: skip


def _anthropic_dweller(s: ModelSettings, embedder: Embedder | None, sleep: Sleep | None) -> Dweller:
    from wander.llm import anthropic as anthropic_llm

    return anthropic_llm.AnthropicDweller(
        s.anthropic_key or "", s.anthropic_model, base_url=s.anthropic_url, heavy_model=s.anthropic_heavy_model,
        prices=s.prices, timeout=s.anthropic_timeout, embedder=embedder, max_tokens=s.dwell_max_tokens,
        retry=s.retry_policy(sleep),
    )  # fmt: skip


def build_dweller(name: str | None = None, *, offline: Dweller, env: Mapping[str, str] | None = None,
                  embedder: Embedder | None = None, sleep: Sleep | None = None) -> Dweller:  # fmt: skip
    """offline -> the offline dweller; ollama / anthropic -> that model, falling back to offline;
    auto -> the 001 rule over Anthropic (when a key is set) and Ollama, falling back to offline.
    `embedder` (the app's) gives model residues their themes_embedding."""
    chosen = check_dweller(name, env)
    if chosen == "offline":
        return offline
    s = model_settings(env)
    if chosen == "ollama":
        return RouterDweller(offline=offline, local=_ollama_dweller(s, embedder, sleep), mode="local",
                             cooldown=s.cooldown)  # fmt: skip
    if chosen == "anthropic":
        return RouterDweller(offline=offline, cloud=_anthropic_dweller(s, embedder, sleep), mode="cloud",
                             cooldown=s.cooldown)  # fmt: skip
    cloud = _anthropic_dweller(s, embedder, sleep) if s.anthropic_key else None
    return RouterDweller(offline=offline, local=_ollama_dweller(s, embedder, sleep), cloud=cloud, mode="rule",
                         cooldown=s.cooldown)  # fmt: skip


DwellerBuilder = Callable[[Dweller, Embedder], Dweller]


def dweller_builder(name: str | None = None, env: Mapping[str, str] | None = None) -> DwellerBuilder:
    """build_dweller for later, once the app has its offline dweller and embedder
    (wiring.open_app(dweller=...) calls it). Checks the name now."""
    chosen = check_dweller(name, env)

    def build(offline: Dweller, embedder: Embedder) -> Dweller:
        return build_dweller(chosen, offline=offline, env=env, embedder=embedder)

    build.name = chosen  # type: ignore[attr-defined]
    return build


def local_helpers(name: str | None, env: Mapping[str, str] | None = None):
    """(proposer, rumination model) for the engine when every call stays local (ollama) and
    WANDER_MODEL_HELPERS is not "0", else (None, None): cloud calls of these would not yet
    be charged to a session's budget."""
    if name != "ollama" or (env if env is not None else os.environ).get("WANDER_MODEL_HELPERS", "1") == "0":
        return None, None
    return build_proposer("ollama", env=env), build_rumination("ollama", env=env)


def _ollama_chat(s: ModelSettings):
    from wander.llm import ollama as ollama_llm

    return ollama_llm.OllamaChat(s.ollama_url, s.ollama_model, timeout=s.ollama_timeout)


def _anthropic_chat(s: ModelSettings):
    from wander.llm import anthropic as anthropic_llm

    return anthropic_llm.AnthropicChat(s.anthropic_key or "", s.anthropic_model, base_url=s.anthropic_url,
                                       heavy_model=s.anthropic_heavy_model, prices=s.prices,
                                       timeout=s.anthropic_timeout)  # fmt: skip


def build_proposer(name: str | None = None, *, env: Mapping[str, str] | None = None,
                   sleep: Sleep | None = None) -> ConceptProposer | None:  # fmt: skip
    """The model that proposes analogies and tensions, or None (offline)."""
    chosen = check_dweller(name, env)
    s = model_settings(env)
    if chosen == "offline":
        return None
    if chosen == "ollama":
        return ModelProposer(_ollama_chat(s), retry=s.retry_policy(sleep))
    if chosen == "anthropic":
        return ModelProposer(_anthropic_chat(s), retry=s.retry_policy(sleep))
    local = ModelProposer(_ollama_chat(s), retry=s.retry_policy(sleep))
    if not s.anthropic_key:
        return local
    return ChainProposer([local, ModelProposer(_anthropic_chat(s), retry=s.retry_policy(sleep))])


def build_rumination(name: str | None = None, *, env: Mapping[str, str] | None = None,
                     sleep: Sleep | None = None) -> RuminationModel | None:  # fmt: skip
    """The model that ruminates before a crystal (Anthropic's heavy model when a key is
    set and the dweller is anthropic or auto; the Ollama model for ollama), or None."""
    chosen = check_dweller(name, env)
    s = model_settings(env)
    if chosen == "offline":
        return None
    if chosen in ("anthropic", "auto") and s.anthropic_key:
        return ModelRumination(_anthropic_chat(s), model=s.anthropic_heavy_model, retry=s.retry_policy(sleep))
    return ModelRumination(_ollama_chat(s), retry=s.retry_policy(sleep))


def build_embedder(name: str | None = None, *, env: Mapping[str, str] | None = None) -> Embedder:
    """minilm (shipped, offline) or ollama (WANDER_OLLAMA_EMBED_MODEL at WANDER_OLLAMA_URL)."""
    s = model_settings(env)
    chosen = (name or s.embedder).lower()
    if chosen == "ollama":
        from wander.embed.ollama import OllamaEmbedder

        return OllamaEmbedder(s.ollama_url, s.ollama_embed_model, dim=s.ollama_embed_dim)
    if chosen == "minilm":
        from wander.embed.minilm import MiniLMEmbedder

        return MiniLMEmbedder()
    raise InvalidInput("embedder", f"must be one of {', '.join(EMBEDDERS)} (got '{name}')")
