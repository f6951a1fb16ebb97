"""The frontend's API client is typed by the server's OpenAPI document: the checked-in
document (shared_schemas/openapi.json) and its TypeScript (frontend/src/api/openapi.gen.ts)
are what the app serves now, and the drift check says so when they are not."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _generator():
    spec = importlib.util.spec_from_file_location("openapi_client", ROOT / "scripts" / "openapi_client.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_client_types_are_generated_from_the_served_document():
    for path, text in _generator().rendered().items():
        assert path.exists(), f"{path} is missing: run `make schemas`"
        assert path.read_text() == text, f"{path} is stale: run `make schemas`"


def test_the_drift_check_fails_on_a_changed_document(tmp_path, monkeypatch):
    generator = _generator()
    stale = tmp_path / "openapi.gen.ts"
    stale.write_text(generator.TS_FILE.read_text().replace('"/api/v1/wander/sessions/{session_id}/step"', '"/step"'))
    monkeypatch.setattr(generator, "TS_FILE", stale)
    assert generator.main(["--check"]) == 1
