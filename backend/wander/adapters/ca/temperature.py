"""The temperature formula of seed 002 lives in wander.core.domain.temperature (the engine's memory
tiering uses it too); re-exported here for the Wheeler memory."""

from wander.core.domain.temperature import (  # noqa: F401
    BASE,
    COLD,
    HALF_LIFE_DAYS,
    HIT_SATURATION,
    HIT_WEIGHT,
    HOT,
    HOT_MIN,
    TIERS,
    WARM,
    WARM_MIN,
    days_between,
    decay_factor,
    hit_factor,
    parse_time,
    temperature,
    temperature_and_tier,
    tier,
    utcnow,
)
