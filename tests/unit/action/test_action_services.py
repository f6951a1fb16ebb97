"""The server's action service: built once, and again only when the person edits assets.toml
(budgets and limits are read from it while the server runs)."""

from __future__ import annotations

from types import SimpleNamespace

from wander.bootstrap.action_factory import ActionServices
from wander.bootstrap.settings import load_settings


def test_built_once_and_again_when_the_assets_file_changes(tmp_path):
    app = SimpleNamespace(settings=load_settings({"WANDER_HOME": str(tmp_path)}), db=None, store=None, bus=None)
    services = ActionServices(app, require_token=True)
    first = services.current()
    assets = tmp_path / "assets.toml"
    assert assets.exists() and first.require_token  # the example file is written on first use
    assert services.current() is first  # the key and the assets are not read again
    assert first.limits.session_budget_cents == 50_000
    assets.write_text(assets.read_text().replace("session_budget = 500.0", "session_budget = 5.0"))
    second = services.current()
    assert second is not first and second.limits.session_budget_cents == 500
    assert second.keys == first.keys and services.current() is second
    assets.unlink()  # gone: the example again
    assert services.current().limits.session_budget_cents == 50_000
