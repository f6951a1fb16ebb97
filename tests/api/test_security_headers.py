"""Security headers on the mind map's pages and assets, from the real app."""

from __future__ import annotations

import re

from wander.faces.api.static import dist_dir


def assert_secured(r) -> None:
    csp = r.headers.get("content-security-policy", "")
    directives = {d.split()[0]: d.split()[1:] for d in (p.strip() for p in csp.split(";")) if d}
    assert directives["default-src"] == ["'self'"]
    assert directives["script-src"] == ["'self'"]  # no inline or eval'd script
    assert directives["frame-ancestors"] == ["'none'"]
    assert set(directives["connect-src"]) == {"'self'", "ws:", "wss:"}
    assert set(directives["img-src"]) == {"'self'", "data:", "blob:"}
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"
    assert r.headers["x-frame-options"] == "DENY"


async def test_pages_and_assets_carry_security_headers(client):
    index = await client.get("/")
    assert index.status_code == 200 and "text/html" in index.headers["content-type"]
    assert_secured(index)
    deep = await client.get("/sessions/00000000-0000-0000-0000-000000000000")  # a client-side route
    assert deep.status_code == 200 and deep.text == index.text
    assert_secured(deep)
    if (dist_dir() / "index.html").exists():
        assets = re.findall(r'(?:src|href)="(/assets/[^"]+)"', index.text)
        assert assets, "the built page names its script and stylesheet"
        for path in assets:
            r = await client.get(path)
            assert r.status_code == 200, path
            assert_secured(r)
        # The page itself has no inline script for the policy to block.
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", index.text)


async def test_api_answers_say_nosniff(client):
    """JSON answers, and problem answers too, are never sniffed into something else."""
    ok = await client.get("/api/v1/health")
    missing = await client.get("/api/v1/wander/sessions/00000000-0000-0000-0000-000000000000")
    assert ok.status_code == 200 and missing.status_code == 404
    for r in (ok, missing):
        assert r.headers["x-content-type-options"] == "nosniff", r.url
        assert r.headers["referrer-policy"] == "no-referrer", r.url
