"""Ollama: the local model server (route "local"), through the official `ollama` client.

OllamaChat is the ChatModel (POST /api/chat, format="json" for dwellings); OllamaDweller
is the Dweller port on it; probe() answers `wander doctor` (GET /api/tags). Settings:
WANDER_OLLAMA_URL (http://127.0.0.1:11434), WANDER_OLLAMA_MODEL (llama3.2:3b),
WANDER_OLLAMA_TIMEOUT (seconds, 120)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import httpx

from wander.adapters.llm.base import (
    Completion,
    LoopClient,
    ModelUnreachable,
    PermanentModelError,
    RetryPolicy,
    TransientModelError,
    estimate_tokens,
)
from wander.adapters.llm.dwelling import ModelDweller
from wander.core import model_defaults as defaults
from wander.core.engine.ports import Embedder

if TYPE_CHECKING:
    import ollama

DEFAULT_URL = defaults.OLLAMA_URL
DEFAULT_MODEL = defaults.OLLAMA_MODEL
DEFAULT_TIMEOUT = defaults.OLLAMA_TIMEOUT


def _timeout(seconds: float) -> httpx.Timeout:
    return httpx.Timeout(seconds, connect=min(5.0, seconds))


def classify(exc: BaseException, host: str, model: str, timeout: float) -> Exception:
    """The SDK's error as one of ours (transient, unreachable, permanent)."""
    import ollama  # the SDK loads with the first call, not with this module

    if isinstance(exc, ollama.ResponseError):
        status = exc.status_code
        if status == 429 or status >= 500 or status in (408, 425):
            return TransientModelError(f"Ollama at {host} answered {status}: {exc.error}", status=status)
        if status == 404 and "not found" in str(exc.error).lower():
            return PermanentModelError(
                f"model '{model}' is not on the Ollama server at {host} (run `ollama pull {model}`)"
            )
        if status < 0:  # an error inside a 200 stream: the server gave up on the request
            return TransientModelError(f"Ollama at {host}: {exc.error}")
        return PermanentModelError(f"Ollama at {host} refused the request ({status}): {exc.error}")
    if isinstance(exc, httpx.TimeoutException):
        return TransientModelError(f"Ollama at {host} did not answer within {timeout:g}s")
    if isinstance(exc, ConnectionError):  # the SDK's own, for httpx.ConnectError
        return ModelUnreachable(f"nothing answers at {host} (is `ollama serve` running?)")
    if isinstance(exc, httpx.UnsupportedProtocol | httpx.InvalidURL):
        return PermanentModelError(f"WANDER_OLLAMA_URL is not a usable URL: {host}")
    if isinstance(exc, httpx.TransportError):
        return TransientModelError(f"Ollama at {host}: connection dropped ({type(exc).__name__})")
    if isinstance(exc, ValueError):  # a 200 whose body is not the shape the client expects
        return TransientModelError(f"Ollama at {host} sent an unreadable response ({type(exc).__name__})")
    return PermanentModelError(f"Ollama at {host}: {type(exc).__name__}: {exc}")


class OllamaChat:
    """The ChatModel on Ollama's /api/chat. Local: every call costs 0 cents."""

    name = "ollama"
    route = "local"

    def __init__(
        self,
        host: str = DEFAULT_URL,
        model: str = DEFAULT_MODEL,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        temperature: float = 0.7,
        keep_alive: str | None = None,
    ):
        self.host = host.rstrip("/")
        self.where = self.host
        self.model = model
        self.timeout = timeout
        self.temperature = temperature
        self.keep_alive = keep_alive
        self._client: LoopClient[ollama.AsyncClient] = LoopClient(self._new_client)

    def _new_client(self) -> ollama.AsyncClient:
        import ollama

        return ollama.AsyncClient(host=self.host, timeout=_timeout(self.timeout))

    def client(self) -> ollama.AsyncClient:
        return self._client.get()

    def estimate_cents(
        self,
        messages: Sequence[dict[str, str]],
        *,
        system: str | None = None,
        max_tokens: int = 800,
        model: str | None = None,
    ) -> int:
        return 0

    async def complete(
        self,
        messages: Sequence[dict[str, str]],
        *,
        system: str | None = None,
        max_tokens: int = 800,
        json_mode: bool = False,
        model: str | None = None,
        schema: dict[str, Any] | None = None,
    ) -> Completion:
        model = model or self.model
        fmt: Any = schema if schema is not None else ("json" if json_mode else None)  # structured outputs
        msgs = ([{"role": "system", "content": system}] if system else []) + [dict(m) for m in messages]
        try:
            r = await self.client().chat(
                model=model,
                messages=msgs,
                stream=False,
                format=fmt,
                options={"num_predict": max_tokens, "temperature": self.temperature},
                keep_alive=self.keep_alive,
            )
        except Exception as exc:
            raise classify(exc, self.host, model, self.timeout) from exc
        text = (r.message.content if r.message else "") or ""
        prompt_tokens = (
            r.prompt_eval_count
            if r.prompt_eval_count is not None
            else estimate_tokens(system, *[m["content"] for m in msgs])
        )
        out_tokens = r.eval_count if r.eval_count is not None else max(1, len(text) // 4)
        return Completion(
            text=text,
            model=r.model or model,
            input_tokens=int(prompt_tokens),
            output_tokens=int(out_tokens),
            cost_cents=0,
        )


class OllamaDweller(ModelDweller):
    """The Dweller port on a local Ollama model."""

    def __init__(
        self,
        host: str = DEFAULT_URL,
        model: str = DEFAULT_MODEL,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        embedder: Embedder | None = None,
        max_tokens: int = 800,
        retry: RetryPolicy | None = None,
    ):
        super().__init__(
            OllamaChat(host, model, timeout=timeout), embedder=embedder, max_tokens=max_tokens, retry=retry
        )


async def probe(
    host: str = DEFAULT_URL, models: Sequence[str] = (DEFAULT_MODEL,), timeout: float = 3.0
) -> dict[str, Any]:
    """What `wander doctor` shows: is the server up, and which of the models does it have."""
    import ollama

    client = ollama.AsyncClient(host=host, timeout=_timeout(timeout))
    try:
        listing = await client.list()
    except Exception as exc:
        err = classify(exc, host, models[0] if models else "", timeout)
        return {"reachable": False, "error": getattr(err, "reason", str(err)), "models": {m: False for m in models}}
    finally:
        try:
            await client._client.aclose()
        except Exception:
            pass
    have = {(m.model or "") for m in listing.models}
    have |= {h.removesuffix(":latest") for h in have}

    def present(name: str) -> bool:
        return name in have or f"{name}:latest" in have or name.removesuffix(":latest") in have

    return {"reachable": True, "error": None, "models": {m: present(m) for m in models}, "available": sorted(have)}
