"""Wires the action service: the key from WANDER_HOME, the assets file, the evaluator
(WANDER_EVALUATOR: the offline rules, or a model within the wander's cloud budget), the
Postgres proposal store and the paper wallet. open_app builds it once (Services.actions)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy.ext.asyncio import AsyncEngine

from wander.adapters.postgres.action_repository import ActionRepository
from wander.adapters.postgres.repository import PostgresStore
from wander.adapters.postgres.session_budget import SessionBudget
from wander.adapters.postgres.wallet_repository import PaperWallet
from wander.bootstrap.llm_factory import build_evaluator
from wander.bootstrap.settings import ModelsSettings, Settings
from wander.core.action import codec
from wander.core.action.assets import load_assets
from wander.core.action.evaluator import OfflineEvaluator
from wander.core.action.service import ActionService
from wander.core.engine.ports import EventBus


@dataclass
class ActionServices:
    """The action service of a server's life: built on first use and again only when
    HOME/assets.toml changed (a person edits budgets and limits while it runs)."""

    home: Path  # WANDER_HOME: the key and assets.toml
    models: ModelsSettings  # the evaluator's models (WANDER_EVALUATOR)
    db: AsyncEngine
    store: PostgresStore
    bus: EventBus
    require_token: bool = False  # with WANDER_API_TOKEN set, only a token holder's approval counts
    _service: ActionService | None = field(default=None, init=False, repr=False)
    _assets_text: str | None = field(default=None, init=False, repr=False)

    @classmethod
    def from_settings(cls, settings: Settings, db: AsyncEngine, store: PostgresStore, bus: EventBus) -> ActionServices:
        """From the settings: with WANDER_API_TOKEN set, only a token holder's approval counts."""
        return cls(settings.home, settings.models, db, store, bus, require_token=bool(settings.api.token))

    def current(self) -> ActionService:
        if self._service is None or _assets_text(self.home) != self._assets_text:
            self._service = self.fresh()  # writes the example file if none
            self._assets_text = _assets_text(self.home)
        return self._service

    def fresh(self) -> ActionService:
        """A service built now, reading the key and the assets file again."""
        assets = load_assets(self.home)
        return ActionService(
            store=self.store,
            repo=ActionRepository(self.db),
            wallet=PaperWallet(self.db, assets.paper_balance_cents),
            evaluator=build_evaluator(self.models, OfflineEvaluator(assets), SessionBudget(self.db)),
            keys=codec.Keys.from_secret(codec.load_secret(self.home)),
            limits=assets.limits,
            bus=self.bus,
            require_token=self.require_token,
        )

    def requiring_token(self, required: bool) -> ActionServices:
        """These services, or the same over the same parts with the token gate `required`
        (an API server started with a token of its own)."""
        return self if required == self.require_token else dataclasses.replace(self, require_token=required)


def _assets_text(home: Path) -> str | None:
    path = home / "assets.toml"  # what load_assets reads
    return path.read_text() if path.exists() else None
