"""WANDER_EVALUATOR picks the evaluator: the offline rules by default; `model` puts
Anthropic (only with a key) before Ollama, each behind the rules; a bad value names the
variable."""

import pytest

from wander.adapters.llm.evaluator import ModelEvaluator
from wander.bootstrap.llm_factory import build_evaluator
from wander.bootstrap.settings import load_settings
from wander.core.action.assets import load_assets
from wander.core.action.evaluator import OfflineEvaluator
from wander.core.domain.errors import InvalidInput


class NoBudget:
    async def reserve(self, session_id: str, cents: int) -> bool:
        return False

    async def settle(self, session_id: str, held_cents: int, spent_cents: int, route: str) -> None:
        return None


def evaluator(tmp_path, **env):
    offline = OfflineEvaluator(load_assets(tmp_path))
    return build_evaluator(load_settings(env).models, offline, NoBudget()), offline


def test_offline_by_default(tmp_path):
    chosen, offline = evaluator(tmp_path)
    assert chosen is offline


def test_model_orders_cloud_before_local(tmp_path):
    local_only, _ = evaluator(tmp_path, WANDER_EVALUATOR="model", WANDER_OLLAMA_MODEL="qwen3:8b")
    assert isinstance(local_only, ModelEvaluator)
    assert [(c.name, c.route, c.model) for c in local_only.chats] == [("ollama", "local", "qwen3:8b")]
    both, offline = evaluator(
        tmp_path, WANDER_EVALUATOR=" Model ", ANTHROPIC_API_KEY="sk-ant-x", WANDER_EVALUATOR_MAX_TOKENS="300"
    )
    assert isinstance(both, ModelEvaluator) and both.offline is offline and both.max_tokens == 300
    assert [c.route for c in both.chats] == ["cloud", "local"] and both.name.startswith("model:anthropic/")


def test_a_bad_value_names_the_variable():
    with pytest.raises(InvalidInput) as bad:
        load_settings({"WANDER_EVALUATOR": "oracle"})
    assert bad.value.field == "WANDER_EVALUATOR" and "offline" in bad.value.reason
