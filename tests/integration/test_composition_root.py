"""open_app builds every service from the Settings it is given: the dweller and its helpers
from the models section (not from the process environment), the archivist and the action
service once, for every face to share."""

from __future__ import annotations

from wander.adapters.llm.router import RouterDweller
from wander.bootstrap.settings import ModelsSettings
from wander.bootstrap.wiring import open_app


async def test_the_named_dweller_is_built_from_the_settings_given_not_the_environment(
    settings, embedder, knowledge, monkeypatch
):
    monkeypatch.setenv("WANDER_DWELLER", "offline")
    monkeypatch.setenv("WANDER_OLLAMA_URL", "http://127.0.0.1:1")
    monkeypatch.setenv("WANDER_MODEL_HELPERS", "0")
    models = ModelsSettings(dweller="ollama", ollama_url="http://127.0.0.1:9", router_cooldown=3)
    given = settings.model_copy(update={"models": models})
    async with open_app(given, embedder=embedder, knowledge=knowledge, dweller=given.models.dweller) as app:
        dweller = app.engine.dweller
        assert isinstance(dweller, RouterDweller) and dweller.mode == "local" and dweller.cooldown == 3
        assert dweller.local is not None and dweller.local.where == "http://127.0.0.1:9"
        assert app.engine.ctx.proposer is not None  # WANDER_MODEL_HELPERS=0 in the environment is not read


async def test_the_archivist_and_the_action_service_come_built(app):
    assert app.archivist.bus is app.bus and app.archivist.embedder is app.embedder
    service = app.actions.current()
    assert service.store is app.store and service.bus is app.bus and not service.require_token
    assert app.actions.current() is service  # built once while assets.toml is unchanged
