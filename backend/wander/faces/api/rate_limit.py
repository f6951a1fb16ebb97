"""Rate limiting (issue 15) of the calls that cost the most, per client address, when the
server binds beyond loopback: session creates (and sub-wanders), steps, runs and forage runs
share one token bucket per client (WANDER_API_RATE_LIMIT, e.g. `60/minute`: a burst of 60,
then one more every second). A client over it gets a 429 problem with Retry-After. On
loopback (the default) nothing is limited: the one person at the keyboard is trusted.

The buckets live in the process: with several API processes each counts its own. The client
is the connection's peer address; X-Forwarded-For is not trusted (anyone can write it)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from litestar import Request, Response
from litestar.connection import ASGIConnection
from litestar.handlers.base import BaseRouteHandler

from wander.faces.api.problems import problem
from wander.faces.api.security import is_loopback

# The route handlers that create a wander or move one (by their functions' qualified names).
LIMITED = frozenset(
    {
        "SessionController.create_session",
        "InterventionController.subwander",
        "ControlController.step",
        "ControlController.wander",
        "SandwichController.forage",
    }
)
MAX_CLIENTS = 10_000  # buckets kept; full ones are forgotten first when there are more


class RateLimited(Exception):
    def __init__(self, retry_after_s: int, rate: str) -> None:
        super().__init__(f"rate limit {rate} reached")
        self.retry_after_s = retry_after_s
        self.rate = rate


class TokenBuckets:
    """`count` calls per `period_s` per key: a bucket of `count` tokens refilled evenly."""

    def __init__(self, count: int, period_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.count, self.period_s, self.clock = count, period_s, clock
        self.refill_per_s = count / period_s
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, as of)

    def take(self, key: str) -> float:
        """Takes a token for `key`: 0 when there was one, else the seconds until there is."""
        now = self.clock()
        tokens, since = self._buckets.get(key, (float(self.count), now))
        tokens = min(float(self.count), tokens + (now - since) * self.refill_per_s)
        if tokens >= 1:
            self._buckets[key] = (tokens - 1, now)
            self._forget(now)
            return 0.0
        self._buckets[key] = (tokens, now)
        return (1 - tokens) / self.refill_per_s

    def _forget(self, now: float) -> None:
        if len(self._buckets) <= MAX_CLIENTS:
            return
        for key, (tokens, since) in list(self._buckets.items()):
            if tokens + (now - since) * self.refill_per_s >= self.count:
                del self._buckets[key]
        while len(self._buckets) > MAX_CLIENTS:  # all busy: drop the oldest
            del self._buckets[next(iter(self._buckets))]


def limited(handler: BaseRouteHandler) -> bool:
    fn: Any = getattr(handler, "fn", None)
    return getattr(fn, "__qualname__", "") in LIMITED


def make_rate_guard(
    host: str, rate: tuple[int, float] | None, shown: str, clock: Callable[[], float] = time.monotonic
) -> Callable[[ASGIConnection, BaseRouteHandler], None] | None:
    """The guard for an app bound to `host`, or None (loopback, or no rate: nothing limited)."""
    if rate is None or is_loopback(host):
        return None
    buckets = TokenBuckets(*rate, clock=clock)

    def guard(connection: ASGIConnection, handler: BaseRouteHandler) -> None:
        if connection.scope["type"] != "http" or not limited(handler):
            return
        client = connection.client.host if connection.client else "unknown"
        wait = buckets.take(client)
        if wait > 0:
            raise RateLimited(max(1, math.ceil(wait)), shown)

    return guard


def on_rate_limited(_: Request, exc: RateLimited) -> Response:
    resp = problem(
        429,
        f"too many session creates, steps and runs from this address (WANDER_API_RATE_LIMIT {exc.rate}); "
        f"retry after {exc.retry_after_s} s",
    )
    resp.headers["Retry-After"] = str(exc.retry_after_s)
    return resp
