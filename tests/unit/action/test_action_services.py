"""The server's action service: built once, and again only when the person edits assets.toml
(budgets and limits are read from it while the server runs)."""

from __future__ import annotations

from wander.bootstrap.action_factory import ActionServices
from wander.bootstrap.settings import ModelsSettings


def test_built_once_and_again_when_the_assets_file_changes(tmp_path):
    services = ActionServices(tmp_path, ModelsSettings(), db=None, store=None, bus=None, require_token=True)  # type: ignore[arg-type]
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


def test_a_server_with_a_token_of_its_own_gates_its_approvals(tmp_path):
    services = ActionServices(tmp_path, ModelsSettings(), db=None, store=None, bus=None)  # type: ignore[arg-type]
    assert services.requiring_token(False) is services and not services.current().require_token
    gated = services.requiring_token(True)
    assert gated is not services and gated.current().require_token and gated.home == services.home
