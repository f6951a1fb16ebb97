"""The models' section: who dwells, who embeds, who evaluates, and how they are called."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import field_validator

from wander.bootstrap.settings.fields import Section
from wander.bootstrap.settings.fields import var as _var
from wander.core import model_defaults as defaults

DWELLERS = ("offline", "ollama", "anthropic", "auto")
EMBEDDERS = ("minilm", "ollama")


class ModelsSettings(Section):
    dweller: Literal["offline", "ollama", "anthropic", "auto"] = _var(
        "WANDER_DWELLER",
        "offline",
        "who dwells: `offline`, `ollama`, `anthropic`, or `auto` (the 001 routing rule "
        "over both, falling back to offline)",
    )
    embedder: Literal["minilm", "ollama"] = _var(
        "WANDER_EMBEDDER", "minilm", "`minilm` (shipped, offline) or `ollama` (set `WANDER_EMBED_DIM` to its size)"
    )
    ollama_url: str = _var("WANDER_OLLAMA_URL", defaults.OLLAMA_URL, "the Ollama server")
    ollama_model: str = _var("WANDER_OLLAMA_MODEL", defaults.OLLAMA_MODEL, "the local dwelling model")
    ollama_timeout: float = _var("WANDER_OLLAMA_TIMEOUT", defaults.OLLAMA_TIMEOUT, "seconds per Ollama call", ge=0.01)
    ollama_embed_model: str = _var(
        "WANDER_OLLAMA_EMBED_MODEL",
        defaults.OLLAMA_EMBED_MODEL,
        "Ollama embedding model (for `WANDER_EMBEDDER=ollama`)",
    )
    ollama_embed_dim: int | None = _var(
        "WANDER_OLLAMA_EMBED_DIM", None, "truncate Ollama embeddings to this size", shown="model's own", ge=1
    )
    anthropic_api_key: str | None = _var("ANTHROPIC_API_KEY", None, "turns the cloud model on", shown="unset")
    anthropic_url: str | None = _var("WANDER_ANTHROPIC_URL", None, "another Anthropic endpoint", shown="SDK default")
    anthropic_model: str = _var("WANDER_ANTHROPIC_MODEL", defaults.ANTHROPIC_MODEL, "cloud dwelling model")
    anthropic_heavy_model: str = _var(
        "WANDER_ANTHROPIC_HEAVY_MODEL",
        defaults.ANTHROPIC_HEAVY_MODEL,
        "the heavy model: rumination before a crystal with `anthropic` or `auto`, when the session's cloud budget allows",
    )
    anthropic_timeout: float = _var(
        "WANDER_ANTHROPIC_TIMEOUT", defaults.ANTHROPIC_TIMEOUT, "seconds per Anthropic call", ge=0.01
    )
    prices: str | None = _var(
        "WANDER_PRICES",
        None,
        'JSON overrides, $ per million tokens: `{"model": {"input": 3, "output": 15}}`',
        shown="built-in table",
    )
    retries: int = _var("WANDER_MODEL_RETRIES", 3, "retries of 429, 5xx and timeouts", ge=0)
    retry_delay: float = _var("WANDER_MODEL_RETRY_DELAY", 1.0, "backoff base, seconds", ge=0)
    retry_max_delay: float = _var("WANDER_MODEL_RETRY_MAX_DELAY", 20.0, "backoff cap, seconds", ge=0)
    dwell_max_tokens: int = _var(
        "WANDER_DWELL_MAX_TOKENS", 800, "output cap per dwelling (also in the cost estimate)", ge=64
    )
    router_cooldown: int = _var(
        "WANDER_ROUTER_COOLDOWN", 10, "dwells a failing model is skipped before it is tried again", ge=1
    )
    helpers: bool = _var(
        "WANDER_MODEL_HELPERS",
        True,
        "the dweller's models also propose analogies/tensions and ruminate, routed like the dweller, "
        "cloud calls within the session's budget (`0`: off)",
        shown="`1`",
    )

    evaluator: Literal["offline", "model"] = _var(
        "WANDER_EVALUATOR",
        "offline",
        "who evaluates a crystal into an action proposal: `offline` (rules over the crystal's scores and "
        "the assets) or `model` (Anthropic when a key is set, within the wander's cloud budget, then "
        "Ollama, then the rules)",
    )
    evaluator_max_tokens: int = _var(
        "WANDER_EVALUATOR_MAX_TOKENS", 600, "output cap per evaluation call (also in the cost estimate)", ge=64
    )

    @field_validator("dweller", "embedder", "evaluator", mode="before")
    @classmethod
    def _lower(cls, v: Any) -> Any:
        return v.strip().lower() if isinstance(v, str) else v

    @field_validator("ollama_url")
    @classmethod
    def _no_slash(cls, v: str) -> str:
        return v.rstrip("/")
