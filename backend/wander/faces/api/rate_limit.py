"""Rate limiting of the calls that cost the most, per client address, when the server binds
beyond loopback (Litestar's RateLimitMiddleware): session creates (and sub-wanders), steps,
runs and forage runs, the handlers marked RATE_LIMITED, share one count per client
(WANDER_API_RATE_LIMIT, e.g. `60/minute`: 60 in a minute from the first). A client over it
gets a 429 problem with Retry-After. On loopback (the default) nothing is limited: the one
person at the keyboard is trusted. A request without the token is not counted: the token
guard answers it 401.

The counts live in the process (the app's memory store): with several API processes each
counts its own. The client is the connection's peer address; X-Forwarded-For is not trusted
(anyone can write it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from litestar import Request, Response
from litestar.exceptions import TooManyRequestsException
from litestar.middleware.rate_limit import DURATION_VALUES, RateLimitConfig

from wander.faces.api.problems import problem_response
from wander.faces.api.security import is_loopback, token_ok

RATE_LIMITED = "rate_limited"  # the route opt of the handlers that create a wander or move one
_UNITS = {float(seconds): unit for unit, seconds in DURATION_VALUES.items()}
_RESET = "RateLimit-Reset"  # the middleware's header: seconds until the count starts again


def rate_limit_config(host: str, rate: tuple[int, float] | None, token: str | None) -> RateLimitConfig | None:
    """The rate limit of an app bound to `host`, or None (loopback, or no rate: nothing limited)."""
    if rate is None or is_loopback(host):
        return None
    count, period_s = rate

    def counted(request: Request[Any, Any, Any]) -> bool:
        return bool(request.route_handler.opt.get(RATE_LIMITED)) and token_ok(request, token)

    return RateLimitConfig(rate_limit=(_UNITS[period_s], count), check_throttle_handler=counted)


def on_rate_limited(shown: str) -> Callable[[Request, TooManyRequestsException], Response]:
    """The 429 problem, with Retry-After, for the rate `shown` (the setting as written)."""

    def handler(request: Request, exc: TooManyRequestsException) -> Response:
        retry_after = max(1, int((exc.headers or {}).get(_RESET, "1")))
        return problem_response(
            429,
            f"too many session creates, steps and runs from this address (WANDER_API_RATE_LIMIT {shown}); "
            f"retry after {retry_after} s",
            headers={**(exc.headers or {}), "Retry-After": str(retry_after)},
        )

    return handler
