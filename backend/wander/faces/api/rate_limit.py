"""Rate limiting of the calls that cost the most, per client address, when the server binds
beyond loopback (Litestar's RateLimitConfig and middleware, counting with a token bucket):
session creates (and sub-wanders), steps, runs and forage runs, the handlers marked
RATE_LIMITED, share one bucket per client (WANDER_API_RATE_LIMIT, e.g. `60/minute`: a burst
of 60, then one more every second). A client over it gets a 429 problem with Retry-After. On
loopback (the default) nothing is limited: the one person at the keyboard is trusted. A
request without the token is not counted: the token guard answers it 401.

The buckets live in the process (the app's store, at most MAX_CLIENTS of them): with several
API processes each counts its own. The client is the connection's peer address;
X-Forwarded-For is not trusted (anyone can write it)."""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from litestar import Request, Response
from litestar.exceptions import TooManyRequestsException
from litestar.middleware.rate_limit import DURATION_VALUES, RateLimitConfig, RateLimitMiddleware
from litestar.stores.base import Store
from litestar.stores.memory import MemoryStore
from litestar.types import Receive, Scope, Send

from wander.faces.api.problems import problem_response
from wander.faces.api.security import is_loopback, token_ok

RATE_LIMITED = "rate_limited"  # the route opt of the handlers that create a wander or move one
RATE_LIMIT_STORE = "rate_limit"  # the app's store of the buckets (stores=rate_limit_stores())
MAX_CLIENTS = 10_000  # buckets kept; full ones are forgotten first when there are more
_UNITS = {float(seconds): unit for unit, seconds in DURATION_VALUES.items()}

clock: Callable[[], float] = time.monotonic  # what the buckets are timed by (tests set a fake)

Bucket = tuple[float, float]  # (tokens left, as of)


def take(bucket: Bucket | None, now: float, count: int, period_s: float) -> tuple[Bucket, float]:
    """A call at `now` on a bucket of `count` tokens refilled evenly over `period_s` (None: a
    full one): (the bucket after it, 0 when it had a token, else the seconds until it has)."""
    refill_per_s = count / period_s
    tokens, since = bucket if bucket is not None else (float(count), now)
    tokens = min(float(count), tokens + (now - since) * refill_per_s)
    if tokens >= 1:
        return (tokens - 1, now), 0.0
    return (tokens, now), (1 - tokens) / refill_per_s


class TokenBucketMiddleware(RateLimitMiddleware):
    """Litestar's rate limit middleware, each client's calls counted by a token bucket kept in
    the app's store: a 429 (TooManyRequestsException with Retry-After) when it is empty."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        app = scope["litestar_app"]
        request: Request[Any, Any, Any] = app.request_class(scope)
        if await self.should_check_request(request=request):
            wait = await self._take(self.cache_key_from_request(request), self.config.get_store_from_app(app))
            if wait > 0:
                raise TooManyRequestsException(headers={"Retry-After": str(max(1, math.ceil(wait)))})
        await self.app(scope, receive, send)

    async def _take(self, key: str, store: Store) -> float:
        period_s = float(DURATION_VALUES[self.unit])
        async with self._lock:
            raw = await store.get(key)
            bucket, wait = take(tuple(json.loads(raw)) if raw else None, clock(), self.max_requests, period_s)
            # forgotten once full again: a missing bucket is a full one
            full_in = (self.max_requests - bucket[0]) * period_s / self.max_requests
            await store.set(key, json.dumps(bucket), expires_in=timedelta(seconds=full_in + 1))
        return wait


class ClientBuckets(MemoryStore):
    """The app's memory store holding at most `limit` buckets: past it, the full (expired)
    ones are forgotten first, then the oldest."""

    def __init__(self, limit: int = MAX_CLIENTS) -> None:
        super().__init__()
        self.limit = limit

    async def set(self, key: str, value: str | bytes, expires_in: int | timedelta | None = None) -> None:
        if key not in self._store and len(self._store) >= self.limit:
            await self.delete_expired()
            while len(self._store) >= self.limit:
                self._store.pop(next(iter(self._store)))
        await super().set(key, value, expires_in)

    def __len__(self) -> int:
        return len(self._store)


def rate_limit_stores() -> dict[str, Store]:
    """The app's stores the rate limit needs (its buckets, bounded)."""
    return {RATE_LIMIT_STORE: ClientBuckets()}


def rate_limit_config(host: str, rate: tuple[int, float] | None, token: str | None) -> RateLimitConfig | None:
    """The rate limit of an app bound to `host`, or None (loopback, or no rate: nothing limited)."""
    if rate is None or is_loopback(host):
        return None
    count, period_s = rate

    def counted(request: Request[Any, Any, Any]) -> bool:
        return bool(request.route_handler.opt.get(RATE_LIMITED)) and token_ok(request, token)

    return RateLimitConfig(
        rate_limit=(_UNITS[period_s], count),
        check_throttle_handler=counted,
        middleware_class=TokenBucketMiddleware,
        set_rate_limit_headers=False,
        store=RATE_LIMIT_STORE,
    )


def on_rate_limited(shown: str) -> Callable[[Request, TooManyRequestsException], Response]:
    """The 429 problem, with Retry-After, for the rate `shown` (the setting as written)."""

    def handler(request: Request, exc: TooManyRequestsException) -> Response:
        retry_after = max(1, int((exc.headers or {}).get("Retry-After", "1")))
        return problem_response(
            429,
            f"too many session creates, steps and runs from this address (WANDER_API_RATE_LIMIT {shown}); "
            f"retry after {retry_after} s",
            headers={"Retry-After": str(retry_after)},
        )

    return handler
