"""Wires the action service from an open App: the key from WANDER_HOME, the assets file,
the evaluator (WANDER_EVALUATOR: the offline rules, or a model within the wander's cloud
budget), the Postgres proposal store and the paper wallet."""

from __future__ import annotations

from typing import Any

from wander.core.action import codec
from wander.core.action.assets import load_assets
from wander.core.action.evaluator import OfflineEvaluator
from wander.core.action.service import ActionService


def action_service(app: Any, require_token: bool = False) -> ActionService:
    from wander.adapters.llm.evaluator import build_evaluator
    from wander.adapters.postgres.action_repository import ActionRepository
    from wander.adapters.postgres.session_budget import SessionBudget
    from wander.adapters.postgres.wallet_repository import PaperWallet

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
