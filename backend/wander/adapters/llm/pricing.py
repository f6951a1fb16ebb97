"""Model prices, in US dollars per million tokens, and the cost of a call in whole cents
(always rounded up). WANDER_PRICES may hold a JSON object that overrides or adds entries:
{"claude-sonnet-4-5": {"input": 3, "output": 15}} or {"my-model": [3, 15]}.

A model name matches the longest listed prefix ("claude-sonnet-4-5-20250929" is priced
as "claude-sonnet-4-5"); an unlisted cloud model is priced at "default", set high on
purpose so that an unknown model can never overrun a budget through a low guess."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from wander.core.domain.errors import InvalidInput


@dataclass(frozen=True)
class Price:
    input: Fraction  # dollars per million input tokens
    output: Fraction  # dollars per million output tokens
    cache_write: Fraction | None = None  # defaults to 1.25 x input
    cache_read: Fraction | None = None  # defaults to 0.1 x input


def _p(i: float, o: float) -> Price:
    return Price(Fraction(str(i)), Fraction(str(o)))


# Anthropic list prices (USD per million tokens) at the time of writing; override with WANDER_PRICES.
DEFAULT_PRICES: dict[str, Price] = {
    "claude-opus-4-6": _p(5, 25),
    "claude-opus-4-5": _p(5, 25),
    "claude-opus-4-1": _p(15, 75),
    "claude-opus-4": _p(15, 75),
    "claude-sonnet-4-6": _p(3, 15),
    "claude-sonnet-4-5": _p(3, 15),
    "claude-sonnet-4": _p(3, 15),
    "claude-3-7-sonnet": _p(3, 15),
    "claude-3-5-sonnet": _p(3, 15),
    "claude-haiku-4-5": _p(1, 5),
    "claude-3-5-haiku": _p(0.8, 4),
    "claude-3-haiku": _p(0.25, 1.25),
    "default": _p(15, 75),
}


class PriceTable:
    def __init__(self, prices: Mapping[str, Price] | None = None):
        self.prices = dict(DEFAULT_PRICES if prices is None else prices)
        self.prices.setdefault("default", DEFAULT_PRICES["default"])

    @classmethod
    def from_json(cls, raw: str | None) -> PriceTable:
        """The built-in table with WANDER_PRICES' overrides (the JSON text) on top."""
        table = cls()
        if raw:
            table.prices.update(parse_prices(raw))
        return table

    def price(self, model: str) -> Price:
        best = max((k for k in self.prices if k != "default" and model.startswith(k)), key=len, default=None)
        return self.prices[best] if best else self.prices["default"]

    def cents(
        self, model: str, input_tokens: int, output_tokens: int, cache_write_tokens: int = 0, cache_read_tokens: int = 0
    ) -> int:
        """What the tokens cost, in cents, rounded up to a whole cent."""
        p = self.price(model)
        cw = p.cache_write if p.cache_write is not None else p.input * Fraction(5, 4)
        cr = p.cache_read if p.cache_read is not None else p.input / 10
        dollars = (
            p.input * max(0, input_tokens)
            + p.output * max(0, output_tokens)
            + cw * max(0, cache_write_tokens)
            + cr * max(0, cache_read_tokens)
        ) / 1_000_000
        return math.ceil(dollars * 100)


def parse_prices(raw: str) -> dict[str, Price]:
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise InvalidInput("WANDER_PRICES", f"not valid JSON ({exc.msg} at {exc.pos})") from None
    if not isinstance(data, dict):
        raise InvalidInput("WANDER_PRICES", "must be a JSON object of model -> {input, output}")
    out: dict[str, Price] = {}
    for model, v in data.items():
        try:
            if isinstance(v, Mapping):
                i, o = v["input"], v["output"]
                extra = {k: Fraction(str(v[k])) for k in ("cache_write", "cache_read") if k in v}
            else:
                i, o = v
                extra = {}
            price = Price(Fraction(str(i)), Fraction(str(o)), **extra)
        except (KeyError, TypeError, ValueError):
            raise InvalidInput(
                "WANDER_PRICES", f'{model}: give {{"input": N, "output": N}} in $ per million tokens'
            ) from None
        if price.input < 0 or price.output < 0:
            raise InvalidInput("WANDER_PRICES", f"{model}: prices must not be negative")
        out[str(model)] = price
    return out
