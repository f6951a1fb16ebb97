"""Anthropic: the cloud model (route "cloud"), through the official `anthropic` client.

AnthropicChat is the ChatModel on POST /v1/messages; the cost of a call comes from the
response's usage at the price table (pricing.py), rounded up to whole cents.
AnthropicDweller is the Dweller port on the primary model; the heavy model is for
rumination and crystallization only (rumination.py asks for it by name). The SDK's own
retries are switched off: the RetryPolicy retries, with delays tests can inject.

Settings: ANTHROPIC_API_KEY, WANDER_ANTHROPIC_URL (the SDK's default when unset),
WANDER_ANTHROPIC_MODEL (claude-sonnet-4-6), WANDER_ANTHROPIC_HEAVY_MODEL (claude-opus-4-6),
WANDER_ANTHROPIC_TIMEOUT (seconds, 60)."""

from __future__ import annotations

import email.utils
import json
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

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
from wander.adapters.llm.pricing import PriceTable
from wander.core import model_defaults as defaults
from wander.core.engine.ports import Embedder

if TYPE_CHECKING:
    import anthropic

DEFAULT_MODEL = defaults.ANTHROPIC_MODEL
DEFAULT_HEAVY_MODEL = defaults.ANTHROPIC_HEAVY_MODEL
DEFAULT_TIMEOUT = defaults.ANTHROPIC_TIMEOUT
ANSWER_TOOL = "answer"  # the tool a structured answer is forced through


def retry_after(headers: Mapping[str, str] | None) -> float | None:
    """Seconds to wait, from retry-after-ms, retry-after (seconds) or retry-after (a date)."""
    if not headers:
        return None
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return max(0.0, float(ms) / 1000)
        except ValueError:
            pass
    ra = headers.get("retry-after")
    if not ra:
        return None
    try:
        return max(0.0, float(ra))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(ra)
        return max(0.0, when.timestamp() - time.time())
    except (TypeError, ValueError):
        return None


def _api_message(exc: anthropic.APIStatusError) -> str:
    body = exc.body if isinstance(exc.body, dict) else {}
    error = body.get("error")
    err = error if isinstance(error, dict) else {}
    kind, msg = err.get("type"), err.get("message")
    return f"{kind}: {msg}" if kind and msg else str(msg or exc.message)


def classify(exc: BaseException, where: str, model: str, timeout: float) -> Exception:
    import anthropic  # the SDK (seconds of CPU to import) loads with the first call, not with this module

    if isinstance(exc, anthropic.APITimeoutError):
        return TransientModelError(f"Anthropic at {where} did not answer within {timeout:g}s")
    if isinstance(exc, anthropic.APIConnectionError):
        cause = exc.__cause__ or exc.__context__
        text = f"{type(cause).__name__}: {cause}" if cause else exc.message
        if "connect" in text.lower() and "timeout" not in text.lower():
            return ModelUnreachable(f"nothing answers at {where} ({text})")
        return TransientModelError(f"Anthropic at {where}: connection dropped ({text})")
    if isinstance(exc, anthropic.APIStatusError):
        status = exc.status_code
        msg = _api_message(exc)
        if status == 429 or status >= 500 or status in (408, 409):
            return TransientModelError(
                f"Anthropic answered {status} ({msg})", retry_after=retry_after(exc.response.headers), status=status
            )
        if status in (401, 403):
            return PermanentModelError(f"Anthropic refused the key ({status}, {msg}); check ANTHROPIC_API_KEY")
        if status == 404:
            return PermanentModelError(f"Anthropic does not know the model '{model}' ({msg})")
        return PermanentModelError(f"Anthropic refused the request ({status}, {msg})")
    if isinstance(exc, anthropic.APIResponseValidationError):
        return TransientModelError(f"Anthropic at {where} sent an unreadable response")
    return PermanentModelError(f"Anthropic at {where}: {type(exc).__name__}: {exc}")


class AnthropicChat:
    """The ChatModel on the Messages API. `heavy_model` is there for whoever asks for it."""

    name = "anthropic"
    route = "cloud"

    def __init__(
        self,
        api_key: str,
        model: str = DEFAULT_MODEL,
        *,
        base_url: str | None = None,
        heavy_model: str = DEFAULT_HEAVY_MODEL,
        prices: PriceTable | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ):
        self.api_key = api_key
        self.base_url = base_url or None
        self.where = self.base_url or "api.anthropic.com"
        self.model = model
        self.heavy_model = heavy_model
        self.prices = prices or PriceTable()
        self.timeout = timeout
        self._client: LoopClient[anthropic.AsyncAnthropic] = LoopClient(self._new_client)

    def _new_client(self) -> anthropic.AsyncAnthropic:
        import anthropic

        return anthropic.AsyncAnthropic(
            api_key=self.api_key, base_url=self.base_url, max_retries=0, timeout=self.timeout
        )

    def client(self) -> anthropic.AsyncAnthropic:
        return self._client.get()

    def estimate_cents(
        self,
        messages: Sequence[dict[str, str]],
        *,
        system: str | None = None,
        max_tokens: int = 800,
        model: str | None = None,
    ) -> int:
        prompt_tokens = estimate_tokens(system, *[m["content"] for m in messages])
        return self.prices.cents(model or self.model, prompt_tokens, max_tokens)

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
        kwargs: dict[str, Any] = {
            "model": model,
            "max_tokens": max_tokens,
            "messages": [{"role": m["role"], "content": m["content"]} for m in messages],
        }
        if system:
            kwargs["system"] = system
        if schema is not None:  # structured output: a forced call of a tool whose input is the answer
            kwargs["tools"] = [{"name": ANSWER_TOOL, "description": "Record the answer.", "input_schema": schema}]
            kwargs["tool_choice"] = {"type": "tool", "name": ANSWER_TOOL}
        try:
            r = await self.client().messages.create(**kwargs)
        except Exception as exc:
            raise classify(exc, self.where, model, self.timeout) from exc
        blocks = r.content or []
        answer = next((b.input for b in blocks if getattr(b, "type", None) == "tool_use"), None)
        text = (
            json.dumps(answer)
            if answer is not None
            else "".join(getattr(b, "text", "") for b in blocks if getattr(b, "type", None) == "text")
        )
        u = r.usage
        inp, out = int(u.input_tokens or 0), int(u.output_tokens or 0)
        cw, cr = int(u.cache_creation_input_tokens or 0), int(u.cache_read_input_tokens or 0)
        # Priced at the model asked for: a dated snapshot name prices like its alias.
        cost = self.prices.cents(model, inp, out, cw, cr)
        return Completion(
            text=text, model=str(r.model or model), input_tokens=inp + cw + cr, output_tokens=out, cost_cents=cost
        )


class AnthropicDweller(ModelDweller):
    """The Dweller port on the primary Anthropic model."""

    def __init__(
        self,
        api_key: str,
        model: str = DEFAULT_MODEL,
        *,
        base_url: str | None = None,
        heavy_model: str = DEFAULT_HEAVY_MODEL,
        prices: PriceTable | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        embedder: Embedder | None = None,
        max_tokens: int = 800,
        retry: RetryPolicy | None = None,
    ):
        chat = AnthropicChat(api_key, model, base_url=base_url, heavy_model=heavy_model, prices=prices, timeout=timeout)
        super().__init__(chat, embedder=embedder, max_tokens=max_tokens, retry=retry)
        self.heavy_model = heavy_model


async def probe(
    api_key: str | None, base_url: str | None, models: Sequence[str], timeout: float = 5.0
) -> dict[str, Any]:
    """What `wander doctor` shows: is the key set and accepted, and are the models known
    (GET /v1/models/{id}: no tokens spent)."""
    where = base_url or "api.anthropic.com"
    if not api_key:
        return {
            "reachable": False,
            "key_set": False,
            "error": "ANTHROPIC_API_KEY is not set",
            "models": {m: False for m in models},
        }
    import anthropic

    client = anthropic.AsyncAnthropic(api_key=api_key, base_url=base_url or None, max_retries=0, timeout=timeout)
    found: dict[str, bool] = {}
    error = None
    reachable = False
    try:
        for m in models:
            try:
                await client.models.retrieve(m)
                found[m] = reachable = True
            except anthropic.NotFoundError:
                found[m] = False
                reachable = True
            except Exception as exc:
                err = classify(exc, where, m, timeout)
                found[m] = False
                error = getattr(err, "reason", str(err))
                if isinstance(err, (ModelUnreachable, PermanentModelError)):
                    break
    finally:
        await client.close()
    return {"reachable": reachable and error is None, "key_set": True, "error": error, "models": found}
