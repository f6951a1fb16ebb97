"""Validation of what a person asks for, before anything is written."""

from __future__ import annotations

import math
import uuid
from collections.abc import Iterable
from typing import Literal, overload

from wander.core.domain.errors import InvalidInput

MAX_STEPS_LIMIT = 10_000
MAX_TEXT = 2_000


@overload
def clean_text(field: str, value: str | None, *, required: Literal[True] = True) -> str: ...


@overload
def clean_text(field: str, value: str | None, *, required: bool) -> str | None: ...


def clean_text(field: str, value: str | None, *, required: bool = True) -> str | None:
    """The text with its whitespace collapsed; a required one that is empty is refused,
    an optional one that is empty is None."""
    if value is None or not str(value).strip():
        if required:
            raise InvalidInput(field, "must not be empty or whitespace")
        return None
    text = " ".join(str(value).split())
    if len(text) > MAX_TEXT:
        raise InvalidInput(field, f"must be at most {MAX_TEXT} characters (got {len(text)})")
    return text


def check_steps(field: str, steps: int) -> int:
    if isinstance(steps, bool) or not isinstance(steps, int):
        raise InvalidInput(field, "must be an integer")
    if steps < 1 or steps > MAX_STEPS_LIMIT:
        raise InvalidInput(field, f"must be between 1 and {MAX_STEPS_LIMIT} (got {steps})")
    return steps


def check_temperature(temperature: float) -> float:
    if not isinstance(temperature, (int, float)) or isinstance(temperature, bool) or not math.isfinite(temperature):
        raise InvalidInput("temperature", "must be a finite number")
    if temperature <= 0 or temperature > 10:
        raise InvalidInput("temperature", f"must be greater than 0 and at most 10 (got {temperature})")
    return float(temperature)


def check_domains(field: str, domains: Iterable[str] | None, known: set[str]) -> list[str]:
    out: list[str] = []
    # case-insensitive, answered with the corpus's own spelling ("american football" is the
    # corpus's "American football", as GET /domains lists it)
    canonical = {k.lower(): k for k in known}
    for raw in domains or []:
        typed = raw.strip().lower().removeprefix("noun.")
        if not typed:
            raise InvalidInput(field, "contains an empty domain name")
        name = canonical.get(typed)
        if name is None:
            raise InvalidInput(field, f"unknown domain '{raw}' (see `wander kb stats` for the known domains)")
        if name not in out:
            out.append(name)
    return out


def check_random_seed(seed: int) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0 or seed >= 2**32:
        raise InvalidInput("random_seed", "must be an integer in 0..4294967295")
    return seed


def parse_uuid(value: str) -> uuid.UUID | None:
    """An id from a path or query, or None when it is not one (the caller names the field)."""
    try:
        return uuid.UUID(str(value))
    except ValueError:
        return None
