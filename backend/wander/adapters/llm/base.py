"""What the model adapters share: one completion call (ChatModel), what it returned
(Completion), the errors a call can end in, and the retry policy for transient ones.

Each provider file (ollama.py, anthropic.py) implements ChatModel on its official SDK and
translates the SDK's errors into these; everything above (dwelling, proposing, ruminating,
routing) is written once against ChatModel and never imports a provider."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from tenacity import AsyncRetrying, RetryCallState, retry_if_exception_type

log = logging.getLogger(__name__)

T = TypeVar("T")
Sleep = Callable[[float], Awaitable[None]]


@dataclass
class Completion:
    text: str
    model: str
    input_tokens: int = 0
    output_tokens: int = 0
    cost_cents: int = 0

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens


class ModelError(Exception):
    """A model call that did not return an answer."""

    kind = "error"

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class TransientModelError(ModelError):
    """Worth trying again: 429, 5xx, 529 overloaded, a timeout, a dropped connection."""

    kind = "transient"

    def __init__(self, reason: str, retry_after: float | None = None, status: int | None = None):
        super().__init__(reason)
        self.retry_after = retry_after
        self.status = status


class ModelUnreachable(ModelError):
    """Nothing listens where the model server should be (connection refused, bad host)."""

    kind = "unreachable"


class PermanentModelError(ModelError):
    """Trying again will not help: bad key, unknown model, a request the server rejects."""

    kind = "permanent"


class ModelUnavailable(ModelError):
    """The call gave up: unreachable, permanently refused, or transient errors past the retry limit."""

    kind = "unavailable"

    def __init__(self, reason: str, cause: ModelError | None = None, attempts: int = 1):
        super().__init__(reason)
        self.cause = cause
        self.attempts = attempts


class BudgetRefused(ModelError):
    """The call could cost more than the budget left for it, so it was not made."""

    kind = "budget"


class ChatModel(Protocol):
    """One provider's completion call. `route` is local | cloud; `where` names the server."""

    name: str  # the provider: ollama | anthropic
    route: str
    model: str
    where: str

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
        """The reply text and usage; raises TransientModelError, ModelUnreachable or PermanentModelError.
        With `schema` the provider is held to that JSON schema where it offers structured
        output (the reply text is then the JSON)."""
        ...

    def estimate_cents(
        self,
        messages: Sequence[dict[str, str]],
        *,
        system: str | None = None,
        max_tokens: int = 800,
        model: str | None = None,
    ) -> int:
        """An upper bound of what the call can cost, in whole cents (0 for a local model)."""
        ...


class LoopClient(Generic[T]):
    """A provider's SDK client, one per event loop (an httpx pool must not cross loops): made
    by `make` on first use in a loop, and again when a call comes from another loop."""

    def __init__(self, make: Callable[[], T]) -> None:
        self._make = make
        self._client: T | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def get(self) -> T:
        loop = asyncio.get_running_loop()
        if self._client is None or self._loop is not loop:
            self._client = self._make()
            self._loop = loop
        return self._client


def estimate_tokens(*texts: str | None) -> int:
    """A deliberately high estimate of the prompt tokens: English runs near 4.5 bytes a token
    and CJK near 3, so 2.5 bytes a token, plus framing, stays above the real count."""
    n = sum(len(t.encode("utf-8")) for t in texts if t)
    return int(n / 2.5) + 16 * max(1, len(texts)) + 32


async def _real_sleep(seconds: float) -> None:
    await asyncio.sleep(seconds)


@dataclass
class RetryPolicy:
    """Transient errors are tried again with exponential backoff (or the server's
    retry-after), up to `retries` more times; a retry-after longer than `max_retry_after`
    is not waited for. `sleep` is injectable so that tests run without waiting."""

    retries: int = 3
    base_delay: float = 1.0
    max_delay: float = 20.0
    max_retry_after: float = 30.0
    jitter: float = 0.1
    sleep: Sleep = field(default=_real_sleep, repr=False)
    rng: random.Random = field(default_factory=lambda: random.Random(0), repr=False)

    def delay(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None and retry_after >= 0:
            return float(retry_after)
        d = min(self.max_delay, self.base_delay * (2**attempt))
        return d * (1.0 + self.jitter * self.rng.random())

    def _stop(self, state: RetryCallState) -> bool:
        exc = state.outcome.exception() if state.outcome else None
        too_long = (
            isinstance(exc, TransientModelError)
            and exc.retry_after is not None
            and exc.retry_after > self.max_retry_after
        )
        return state.attempt_number > self.retries or too_long

    def _wait(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        return self.delay(state.attempt_number - 1, getattr(exc, "retry_after", None))

    async def call(self, fn: Callable[[], Awaitable[T]], what: str = "model call") -> T:
        """fn until it answers; transient errors retried (tenacity), the rest raised as ModelUnavailable."""
        attempts = 0

        async def attempt() -> T:
            nonlocal attempts
            attempts += 1
            return await fn()

        def before_sleep(state: RetryCallState) -> None:
            exc = state.outcome.exception() if state.outcome else None
            log.debug(
                "%s: %s; retry %d of %d in %.2fs",
                what,
                getattr(exc, "reason", exc),
                state.attempt_number,
                self.retries,
                state.upcoming_sleep,
            )

        retrying = AsyncRetrying(
            retry=retry_if_exception_type(TransientModelError),
            stop=self._stop,
            wait=self._wait,
            sleep=self.sleep,
            before_sleep=before_sleep,
            reraise=True,
        )
        try:
            return await retrying(attempt)
        except TransientModelError as exc:
            if attempts > self.retries:
                raise ModelUnavailable(f"{exc.reason} (gave up after {attempts} attempts)", exc, attempts) from exc
            raise ModelUnavailable(
                f"{exc.reason}; retry-after {exc.retry_after:g}s is too long to wait", exc, attempts
            ) from exc
        except (ModelUnreachable, PermanentModelError) as exc:
            raise ModelUnavailable(exc.reason, exc, attempts) from exc


@dataclass
class ModelUsage:
    """What a model-backed helper (proposer, rumination) has spent: read and reset with take()."""

    route: str
    model: str
    calls: int = 0
    tokens: int = 0
    cost_cents: int = 0

    def add(self, c: Completion) -> None:
        self.calls += 1
        self.tokens += c.tokens
        self.cost_cents += c.cost_cents

    def take(self) -> ModelUsage:
        taken = ModelUsage(self.route, self.model, self.calls, self.tokens, self.cost_cents)
        self.calls = self.tokens = self.cost_cents = 0
        return taken
