"""The user's declared assets and wallet limits: WANDER_HOME/assets.toml, a file the user
edits (written with an example on first use)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from wander.core.action.ports import Limits
from wander.core.domain.errors import InvalidInput

EXAMPLE = """\
# Wander's economic action layer reads this file: what you can bring to an action, and the
# limits of the paper wallet. Edit freely; amounts are in currency units.

[wallet]
paper_balance = 10000.0     # the paper wallet's opening balance
max_stake = 250.0           # the most one proposal may cost
session_budget = 500.0      # spend per wander session
day_budget = 1000.0         # spend per UTC day
session_loss_limit = 500.0  # worst-case loss per wander session
day_loss_limit = 1000.0     # worst-case loss per UTC day
stop_loss = 1.0             # share of its cost at which a position is closed: worst-case loss
                            # = cost x stop_loss (1.0: a paper position can go to 0)

[[asset]]
name = "software and data engineering"
domains = ["cognition", "communication", "act", "artifact"]
keywords = ["information", "data", "software", "market", "signal"]
strength = 0.8

[[asset]]
name = "a small research budget"
domains = ["possession", "group"]
keywords = ["finance", "price", "trade"]
strength = 0.5
"""


@dataclass(frozen=True)
class Asset:
    name: str
    domains: tuple[str, ...]
    keywords: tuple[str, ...]
    strength: float


@dataclass(frozen=True)
class Assets:
    assets: tuple[Asset, ...]
    paper_balance_cents: int
    max_stake_cents: int
    limits: Limits
    stop_loss: float = 1.0

    def worst_case_loss(self, cost_cents: int) -> int:
        """What a position of this cost can lose at most, in whole cents (rounded up)."""
        return min(cost_cents, -(-round(cost_cents * self.stop_loss * 10_000) // 10_000))


def _cents(wallet: dict, key: str, default: float) -> int:
    value = wallet.get(key, default)
    if not isinstance(value, (int, float)) or value < 0:
        raise InvalidInput(f"assets.toml wallet.{key}", f"must be a number >= 0 (got {value!r})")
    return round(float(value) * 100)


def load_assets(home: Path) -> Assets:
    path = home / "assets.toml"
    if not path.exists():
        home.mkdir(parents=True, exist_ok=True)
        path.write_text(EXAMPLE)
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as exc:
        raise InvalidInput("assets.toml", f"not valid TOML: {exc}") from exc
    wallet = data.get("wallet", {})
    assets = []
    for i, a in enumerate(data.get("asset", [])):
        strength = a.get("strength", 0.5)
        if not a.get("name") or not isinstance(strength, (int, float)) or not 0 <= strength <= 1:
            raise InvalidInput(f"assets.toml asset[{i}]", "needs a name and a strength in 0..1")
        assets.append(
            Asset(
                str(a["name"]),
                tuple(a.get("domains", [])),
                tuple(k.lower() for k in a.get("keywords", [])),
                float(strength),
            )
        )
    limits = Limits(
        session_budget_cents=_cents(wallet, "session_budget", 500),
        day_budget_cents=_cents(wallet, "day_budget", 1000),
        session_loss_cents=_cents(wallet, "session_loss_limit", 500),
        day_loss_cents=_cents(wallet, "day_loss_limit", 1000),
    )
    stop_loss = wallet.get("stop_loss", 1.0)
    if not isinstance(stop_loss, (int, float)) or not 0 < stop_loss <= 1:
        raise InvalidInput("assets.toml wallet.stop_loss", f"must be a number in (0, 1] (got {stop_loss!r})")
    return Assets(
        tuple(assets),
        _cents(wallet, "paper_balance", 10000),
        _cents(wallet, "max_stake", 250),
        limits,
        float(stop_loss),
    )
