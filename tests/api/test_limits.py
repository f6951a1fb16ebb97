"""Input limits, from the real app: a body over WANDER_API_MAX_BODY_BYTES is a 413
problem; every text field of every request body has a maximum length and every list a
maximum item count (422 naming the field); a query parameter is bounded too; the forage
`source` path is confined to the foraging roots."""

from __future__ import annotations

import json
import os

import httpx
import pytest

from tests.api.conftest import API, create, start_server
from wander.faces.api.app import MAX_QUERY_CHARS, ApiSettings

PROBLEM = "application/problem+json"
Z = "00000000-0000-0000-0000-000000000000"


@pytest.fixture
async def served(app):
    """A server with the settings a test gives: `async with served(api) as client`."""
    from contextlib import asynccontextmanager

    @asynccontextmanager
    async def serve(api: ApiSettings):
        srv, task, addr = await start_server(app, api)
        try:
            async with httpx.AsyncClient(base_url=f"http://{addr}", timeout=30) as c:
                yield c
        finally:
            srv.should_exit = True
            await task

    return serve


def assert_problem(r: httpx.Response, status: int, field: str | None = None) -> dict:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith(PROBLEM), r.headers
    body = r.json()
    assert body["status"] == status and body["detail"]
    if field is not None:
        assert str(body.get("field", "")).split(".")[0].split("[")[0] == field, body
    return body


def words(n: int) -> str:
    """A text of exactly n characters made of a corpus word, so the seed is grounded and only
    the limits under test decide (a run of one letter matches no concept: 422)."""
    return ("tide pool " * (n // 10 + 1))[:n]


# ---- the body size limit ------------------------------------------------------------------


async def test_a_body_over_the_limit_is_413(served):
    # Both bodies are within every field's own limit (seed 2000 characters, name 255), so
    # only the body limit tells them apart: without it the larger is created as well.
    async with served(ApiSettings(resume_interrupted=False, max_body_bytes=2048)) as c:
        small = await c.post(API, json={"seed_concept": words(1500)})
        assert small.status_code == 201, small.text
        big = {"seed_concept": words(1900), "name": "n" * 200}
        assert len(json.dumps(big)) > 2048
        body = assert_problem(await c.post(API, json=big), 413)
        assert body["title"] == "Payload Too Large" and "WANDER_API_MAX_BODY_BYTES" in body["detail"]

        # Without a Content-Length (chunked), the bytes as they stream are counted.
        async def stream():
            yield json.dumps(big).encode()

        chunked = await c.post(API, content=stream(), headers={"content-type": "application/json"})
        assert "content-length" not in chunked.request.headers
        assert_problem(chunked, 413)


async def test_the_default_limit_is_one_mebibyte(client):
    assert ApiSettings().max_body_bytes == ApiSettings.from_env({}).max_body_bytes == 1_048_576
    assert ApiSettings.from_env({"WANDER_API_MAX_BODY_BYTES": "4096"}).max_body_bytes == 4096
    # Over 1 MiB: 413 (with Litestar's own 10 MB default this would be a 422 on seed_concept).
    r = await client.post(API, json={"seed_concept": "s" * (1_048_576 + 10)})
    assert_problem(r, 413)
    under = await client.post(API, json={"seed_concept": "s" * 3000})  # under 1 MiB: the field's limit answers
    assert_problem(under, 422, "seed_concept")


# ---- text and list limits on every request body --------------------------------------------


def _table(sid: str) -> list[tuple[str, str, dict, str]]:
    """(method, path, body, the field over its limit) for every text and list field a client sends."""
    s = f"{API}/{sid}"
    long = lambda n: "x" * (n + 1)  # noqa: E731
    return [
        ("POST", API, {"seed_concept": long(2000)}, "seed_concept"),
        ("POST", API, {"seed_concept": "a", "name": long(255)}, "name"),
        ("POST", API, {"seed_concept": "a", "attractor": long(2000)}, "attractor"),
        ("POST", API, {"seed_concept": "a", "allowed_domains": ["act"] * 65}, "allowed_domains"),
        ("POST", API, {"seed_concept": "a", "forbidden_domains": [long(200)]}, "forbidden_domains"),
        ("PATCH", s, {"name": long(255)}, "name"),
        ("PATCH", s, {"allowed_domains": ["act"] * 65}, "allowed_domains"),
        ("PATCH", s, {"forbidden_domains": [long(200)]}, "forbidden_domains"),
        ("POST", f"{s}/inject", {"concept": long(2000)}, "concept"),
        ("POST", f"{s}/fence", {"concept": long(2000), "action": "exclude"}, "concept"),
        ("POST", "/api/v1/wander/search", {"query": long(2000)}, "query"),
        ("POST", "/api/v1/wander/search", {"query": "q", "types": ["locus"] * 33}, "types"),
        ("POST", "/api/v1/wander/recall", {"query": long(4000)}, "query"),
        ("POST", f"/api/v1/wander/crystals/{Z}/review", {"verdict": "accept", "note": long(2000)}, "note"),
        (
            "POST",
            f"/api/v1/wander/proposals/{Z}/approve",
            {"reviewer": long(200), "image_sha256": "a" * 64},
            "reviewer",
        ),
        (
            "POST",
            f"/api/v1/wander/proposals/{Z}/reject",
            {"reviewer": "me", "image_sha256": "a" * 64, "note": long(2000)},
            "note",
        ),
        ("POST", "/api/v1/sandwich/forage", {"source": long(4000)}, "source"),
        ("POST", "/api/v1/sandwich/forage", {"topic": long(2000)}, "topic"),
        ("POST", "/api/v1/sandwich/ask", {"question": long(2000)}, "question"),
        ("POST", "/api/v1/auth/session", {"token": long(1000)}, "token"),
    ]


async def test_every_text_and_list_field_is_bounded(client):
    sid = (await create(client))["id"]
    failures = []
    for method, path, body, field in _table(sid):
        r = await client.request(method, path, json=body)
        got = r.json() if r.headers.get("content-type", "").startswith(PROBLEM) else {}
        named = str(got.get("field", "")).split(".")[0].split("[")[0]
        # "at most": the limit answered, not a later check (an unknown domain is a 422 too)
        if r.status_code != 422 or named != field or "at most" not in got.get("detail", ""):
            failures.append(f"{method} {path} {field}: {r.status_code} {r.text[:200]}")
    assert not failures, "\n".join(failures)
    # At the limits, the same fields are accepted (domains must be known ones: repeat one).
    ok = await client.post(
        API,
        json={
            "seed_concept": words(2000),
            "name": "n" * 255,
            "attractor": words(2000),
            "allowed_domains": ["act"] * 64,
        },
    )
    assert ok.status_code == 201, ok.text


def test_the_schema_declares_a_bound_on_every_request_text_and_list():
    """Every string and array in a request body's JSON Schema has maxLength/maxItems (or is
    an enum, a pattern-bounded hash): a new field without a limit fails here."""
    from shared_schemas import models
    from shared_schemas.action import DecisionRequest
    from wander.faces.api.auth import SignIn

    requests = [m for m in models.EXPORTED if issubclass(m, models.Strict)] + [DecisionRequest, SignIn]
    assert {m.__name__ for m in requests} >= {"SessionCreate", "SessionPatch", "ForageRequest", "RecallRequest"}
    unbounded = []

    def walk(node, where: str, defs: dict) -> None:
        if isinstance(node, dict):
            if "$ref" in node:
                walk(defs[node["$ref"].split("/")[-1]], where, defs)
            if node.get("type") == "string" and "maxLength" not in node and "enum" not in node and "const" not in node:
                if "pattern" not in node or "{64}" not in node["pattern"]:
                    unbounded.append(where)
            if node.get("type") == "array" and "maxItems" not in node:
                unbounded.append(where)
            for k, v in node.items():
                if k in ("properties",):
                    for name, sub in v.items():
                        walk(sub, f"{where}.{name}", defs)
                elif k in ("items", "anyOf", "allOf", "oneOf"):
                    walk(v, where, defs)
        elif isinstance(node, list):
            for x in node:
                walk(x, where, defs)

    for model in requests:
        schema = model.model_json_schema()
        walk(schema, model.__name__, schema.get("$defs", {}))
    assert not unbounded, unbounded


async def test_a_query_parameter_is_bounded(client):
    r = await client.get("/api/v1/wander/archives", params={"q": "x" * (MAX_QUERY_CHARS + 1)})
    assert_problem(r, 422, "q")
    at_limit = await client.get("/api/v1/wander/archives", params={"q": "market " * (MAX_QUERY_CHARS // 7)})
    assert at_limit.status_code == 200, at_limit.text


# ---- the forage source path ------------------------------------------------------------------


@pytest.fixture
def forage_tree(tmp_path):
    """roots/notes/ok.md inside the root; outside/secret.md beside it; links from inside out."""
    root = tmp_path / "roots"
    (root / "notes").mkdir(parents=True)
    (root / "notes" / "ok.md").write_text("# Markets\n\n" + "Information asymmetry shapes every market. " * 5)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("# Secret\n\n" + "Nothing outside the root may be read. " * 5)
    (root / "leak.md").symlink_to(outside / "secret.md")  # a file link leading out
    (root / "linked").mkdir()
    (root / "linked" / "fine.md").write_text("# Fine\n\n" + "A note that stays home. " * 5)
    (root / "linked" / "out.md").symlink_to(outside / "secret.md")  # a folder holding a link out
    (root / "inner.md").symlink_to(root / "notes" / "ok.md")  # a link that stays inside
    return root, outside


async def test_forage_source_is_confined_to_the_roots(served, forage_tree):
    root, outside = forage_tree
    async with served(ApiSettings(resume_interrupted=False, forage_roots=(root,))) as c:

        async def forage(source: str) -> httpx.Response:
            return await c.post("/api/v1/sandwich/forage", json={"source": source, "patience": 1, "max_attempts": 1})

        refused = {
            "outside the root": str(outside / "secret.md"),
            "outside folder": str(outside),
            "dot-dot": str(root / "notes" / ".." / ".." / "outside" / "secret.md"),
            "dot-dot staying inside": str(root / "notes" / ".." / "notes" / "ok.md"),
            "relative": "notes/ok.md",
            "home": "~/secret.md",
            "file link out": str(root / "leak.md"),
            "folder with a link out": str(root / "linked"),
            "the whole root (holds links out)": str(root),
            "system file": "/etc/passwd",
        }
        for why, source in refused.items():
            body = assert_problem(await forage(source), 422, "source")
            assert "source" in body["detail"], (why, body)
            assert "Nothing outside" not in json.dumps(body), why
        for source in (str(root / "notes" / "ok.md"), str(root / "notes"), str(root / "inner.md")):
            r = await forage(source)
            assert r.status_code == 200, (source, r.text)
            assert r.json()["mode"] == "directed" and r.json()["status"] != "failed", r.json()
        # No roots configured: no path at all (URLs and topics are not paths).
    async with served(ApiSettings(resume_interrupted=False)) as c:
        r = await c.post("/api/v1/sandwich/forage", json={"source": str(root / "notes" / "ok.md"), "patience": 1})
        assert_problem(r, 422, "source")
        topic = await c.post("/api/v1/sandwich/forage", json={"topic": "supply and demand", "patience": 1})
        assert topic.status_code == 200, topic.text


def test_forage_roots_default_to_the_home_forage_folder(tmp_path):
    from wander.bootstrap.settings import load_settings

    s = load_settings({"WANDER_HOME": str(tmp_path)})
    assert s.forage_roots == (tmp_path / "forage",)
    assert ApiSettings.from_env({"WANDER_HOME": str(tmp_path)}).forage_roots == (tmp_path / "forage",)
    two = load_settings({"WANDER_FORAGE_ROOTS": f"{tmp_path / 'a'}{os.pathsep}{tmp_path / 'b'}"})
    assert two.forage_roots == (tmp_path / "a", tmp_path / "b")
