"""Memory temperature: how recently and how often something was recalled (seed 002; used by the
Wheeler memory and by the engine's HOT -> WARM -> COMPOST tiering).

    temperature = min(1, 0.3 + 0.7 * hits / 10) * 2 ** (-days_since_last_access / 7)

Tiers: hot >= 0.6, warm >= 0.3, cold below. Pure functions of their arguments, with the
clock passed in (``now``), and no heavy imports: Wander's memory tiering calls these.
Times are timezone-aware datetimes (naive ones are taken as UTC) or POSIX timestamps.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Union

BASE = 0.3
HIT_WEIGHT = 0.7
HIT_SATURATION = 10
HALF_LIFE_DAYS = 7.0
HOT_MIN = 0.6
WARM_MIN = 0.3

HOT, WARM, COLD = "hot", "warm", "cold"
TIERS = (HOT, WARM, COLD)

TimeLike = Union[datetime, float, int]


def _ts(t: TimeLike) -> float:
    if isinstance(t, datetime):
        if t.tzinfo is None:
            t = t.replace(tzinfo=timezone.utc)
        return t.timestamp()
    return float(t)


def days_between(earlier: TimeLike, later: TimeLike) -> float:
    """Days from ``earlier`` to ``later`` (negative when ``earlier`` is later)."""
    return (_ts(later) - _ts(earlier)) / 86400.0


def hit_factor(hits: int) -> float:
    """min(1, 0.3 + 0.7 * hits / 10); negative hit counts count as 0."""
    return min(1.0, BASE + HIT_WEIGHT * max(0, hits) / HIT_SATURATION)


def decay_factor(days: float) -> float:
    """2 ** (-days / 7); an access in the future (clock skew) counts as now."""
    return 2.0 ** (-max(0.0, days) / HALF_LIFE_DAYS)


def temperature(hits: int, last_access: TimeLike, now: TimeLike) -> float:
    """Temperature in [0, 1] of a memory recalled ``hits`` times, last at ``last_access``."""
    return hit_factor(hits) * decay_factor(days_between(last_access, now))


def tier(temp: float) -> str:
    """'hot' (>= 0.6), 'warm' (>= 0.3) or 'cold'."""
    if temp >= HOT_MIN:
        return HOT
    if temp >= WARM_MIN:
        return WARM
    return COLD


def temperature_and_tier(hits: int, last_access: TimeLike, now: TimeLike) -> tuple[float, str]:
    t = temperature(hits, last_access, now)
    return t, tier(t)


def utcnow() -> datetime:
    """The default clock: the current time, timezone-aware UTC."""
    return datetime.now(timezone.utc)


def parse_time(value: str | TimeLike) -> datetime:
    """ISO 8601 string, datetime or POSIX timestamp -> aware UTC datetime."""
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=timezone.utc)
    if isinstance(value, (int, float)):
        return datetime.fromtimestamp(float(value), tz=timezone.utc)
    dt = datetime.fromisoformat(value)
    return dt if dt.tzinfo else dt.replace(tzinfo=timezone.utc)


__all__ = [
    "COLD",
    "HOT",
    "TIERS",
    "WARM",
    "days_between",
    "decay_factor",
    "hit_factor",
    "parse_time",
    "temperature",
    "temperature_and_tier",
    "tier",
    "utcnow",
]
