"""One settings model: every variable read in wander.bootstrap.settings alone, the README's tables made
from it, the names the README has always given still working."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from wander.bootstrap import settings as config
from wander.bootstrap.settings import load_section, load_settings
from wander.core.domain.errors import InvalidInput

SETTINGS_FILE = Path(config.loading.__file__).resolve()  # the one module that reads the environment
BACKEND = SETTINGS_FILE.parents[3]

# Every variable Wander read before the model existed: each must keep working.
KNOWN = """WANDER_HOME WANDER_DATABASE_URL WANDER_EMBED_DIM WANDER_CA_BACKEND WANDER_LOG_LEVEL WANDER_API_TOKEN
WANDER_ALLOWED_ORIGINS WANDER_WS_HEARTBEAT_S WANDER_MEMORY_CAPACITY WANDER_DWELLER WANDER_OLLAMA_URL
WANDER_OLLAMA_MODEL WANDER_OLLAMA_TIMEOUT WANDER_OLLAMA_EMBED_MODEL WANDER_OLLAMA_EMBED_DIM WANDER_EMBEDDER
ANTHROPIC_API_KEY WANDER_ANTHROPIC_URL WANDER_ANTHROPIC_MODEL WANDER_ANTHROPIC_HEAVY_MODEL WANDER_ANTHROPIC_TIMEOUT
WANDER_PRICES WANDER_MODEL_RETRIES WANDER_MODEL_RETRY_DELAY WANDER_MODEL_RETRY_MAX_DELAY WANDER_DWELL_MAX_TOKENS
WANDER_ROUTER_COOLDOWN WANDER_MODEL_HELPERS WANDER_NATS_URL WANDER_RUN_ACK_WAIT_S WANDER_RUN_MAX_ATTEMPTS
WANDER_WORKER_ID WANDER_WORKER_CONCURRENCY WANDER_WORKER_THREADS WANDER_WORKER_HEALTH_FILE WANDER_RELAY_SWEEP_S
WANDER_RELAY_HORIZON_S WANDER_NATS_EVENTS_MAX_AGE_S""".split()


def _variables() -> dict[str, tuple[str, str]]:
    out = {}
    for section, f in config.Settings.model_fields.items():
        for name, field in f.annotation.model_fields.items():
            out[str(field.validation_alias)] = (section, name)
    return out


def _environ_reads(path: Path) -> list[int]:
    """Lines that read os.environ or call os.getenv (setting a library's variable with
    os.environ.setdefault is allowed)."""
    tree = ast.parse(path.read_text())
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "getenv":
            lines.append(node.lineno)
        if isinstance(node, ast.Attribute) and node.attr == "environ":
            parent = parents.get(node)
            if isinstance(parent, ast.Attribute) and parent.attr == "setdefault":
                continue
            lines.append(node.lineno)
    return sorted(lines)


def test_no_module_but_config_reads_the_environment():
    offenders = {
        str(p.relative_to(BACKEND)): lines
        for p in sorted(BACKEND.rglob("*.py"))
        if p.resolve() != SETTINGS_FILE
        if (lines := _environ_reads(p))
    }
    assert offenders == {}, f"read settings through wander.bootstrap.settings, not os.environ: {offenders}"


def test_the_check_sees_a_read(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import os\nA = os.environ.get('X')\nos.environ.setdefault('Y', '1')\nB = os.getenv('Z')\n")
    assert _environ_reads(bad) == [2, 4]


def test_every_known_variable_is_in_the_model():
    assert set(KNOWN) <= set(_variables())


@pytest.mark.parametrize(
    "var, value, section, name, expected",
    [
        ("WANDER_DATABASE_URL", "postgresql://x/y", "database", "url", "postgresql://x/y"),
        ("WANDER_EMBED_DIM", "768", "database", "embed_dim", 768),
        ("WANDER_ALLOWED_ORIGINS", "http://a, http://b", "api", "allowed_origins", ("http://a", "http://b")),
        ("WANDER_DWELLER", "AUTO", "models", "dweller", "auto"),
        ("WANDER_MODEL_HELPERS", "0", "models", "helpers", False),
        ("ANTHROPIC_API_KEY", "k", "models", "anthropic_api_key", "k"),
        ("WANDER_NATS_URL", " nats://h:4222 ", "nats", "url", "nats://h:4222"),
        ("WANDER_RELAY_HORIZON_S", "60", "nats", "relay_horizon_s", 60.0),
        ("WANDER_WORKER_HEALTH_FILE", "/tmp/h", "worker", "health_file", Path("/tmp/h")),
        ("WANDER_CA_BACKEND", "NumPy", "ca", "backend", "numpy"),
    ],
)
def test_a_variable_lands_in_its_section(var, value, section, name, expected):
    assert getattr(getattr(load_settings({var: value}), section), name) == expected
    assert getattr(load_section(section, {var: value}), name) == expected


def test_a_mapping_is_read_alone_and_empty_values_are_unset(monkeypatch):
    monkeypatch.setenv("WANDER_NATS_URL", "nats://from-env:4222")
    assert load_settings().nats.url == "nats://from-env:4222"
    assert load_settings({}).nats.url is None
    assert load_settings({"WANDER_EMBED_DIM": ""}).embed_dim == 384


@pytest.mark.parametrize(
    "env, var",
    [
        ({"WANDER_EMBED_DIM": "x"}, "WANDER_EMBED_DIM"),
        ({"WANDER_EMBED_DIM": "0"}, "WANDER_EMBED_DIM"),
        ({"WANDER_WS_HEARTBEAT_S": "soon"}, "WANDER_WS_HEARTBEAT_S"),
        ({"WANDER_EMBEDDER": "bert"}, "WANDER_EMBEDDER"),
    ],
)
def test_a_bad_value_names_its_variable(env, var):
    with pytest.raises(InvalidInput) as e:
        load_settings(env)
    assert e.value.field == var


def test_a_bad_value_elsewhere_does_not_stop_a_section():
    assert load_section("database", {"WANDER_DWELLER": "gpt", "WANDER_EMBED_DIM": "512"}).embed_dim == 512


def test_the_readme_tables_are_made_from_the_model():
    text = config.README.read_text()
    assert config.readme_with_tables(text) == text, (
        "README settings tables are stale: run `python -m wander.bootstrap.settings`"
    )
    for var in _variables():
        assert f"| `{var}` |" in text


def test_the_embedder_follows_wander_embedder_and_embed_dim():
    from wander.adapters.embed.minilm import MiniLMEmbedder
    from wander.adapters.embed.ollama import OllamaEmbedder
    from wander.bootstrap.wiring import default_embedder

    assert isinstance(default_embedder(load_settings({})), MiniLMEmbedder)
    ollama = default_embedder(load_settings({"WANDER_EMBEDDER": "ollama", "WANDER_OLLAMA_URL": "http://127.0.0.1:9"}))
    assert isinstance(ollama, OllamaEmbedder) and ollama.dim == 384  # cut to the vector columns' size
    with pytest.raises(InvalidInput) as e:
        default_embedder(load_settings({"WANDER_EMBED_DIM": "768"}))  # MiniLM makes 384-d vectors
    assert e.value.field == "WANDER_EMBED_DIM"
