"""Wires the action service from an open Services: the key from WANDER_HOME, the assets file,
the evaluator (WANDER_EVALUATOR: the offline rules, or a model within the wander's cloud
budget), the Postgres proposal store and the paper wallet."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wander.adapters.postgres.action_repository import ActionRepository
from wander.adapters.postgres.session_budget import SessionBudget
from wander.adapters.postgres.wallet_repository import PaperWallet
from wander.bootstrap.llm_factory import build_evaluator
from wander.core.action import codec
from wander.core.action.assets import load_assets
from wander.core.action.evaluator import OfflineEvaluator
from wander.core.action.service import ActionService


def action_service(app: Any, require_token: bool = False) -> ActionService:
    home = app.settings.home
    assets = load_assets(home)
    evaluator = build_evaluator(app.settings, OfflineEvaluator(assets), SessionBudget(app.db))
    return ActionService(
        store=app.store,
        repo=ActionRepository(app.db),
        wallet=PaperWallet(app.db, assets.paper_balance_cents),
        evaluator=evaluator,
        keys=codec.Keys.from_secret(codec.load_secret(home)),
        limits=assets.limits,
        bus=app.bus,
        require_token=require_token,
    )


class ActionServices:
    """The action service of a server's life: built on first use and again only when
    WANDER_HOME/assets.toml changed (a person edits budgets and limits while it runs)."""

    def __init__(self, app: Any, require_token: bool = False) -> None:
        self._app, self._require_token = app, require_token
        self._service: ActionService | None = None
        self._assets_text: str | None = None

    def current(self) -> ActionService:
        if self._service is None or _assets_text(self._app.settings.home) != self._assets_text:
            self._service = action_service(self._app, self._require_token)  # writes the example file if none
            self._assets_text = _assets_text(self._app.settings.home)
        return self._service


def _assets_text(home: Path) -> str | None:
    path = home / "assets.toml"  # what load_assets reads
    return path.read_text() if path.exists() else None
