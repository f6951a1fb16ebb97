"""The archive over the wire as 000 draws it: the plot at 1024 (stored) and 512 (?size=),
and archive.json gzipped when the client takes gzip."""

from __future__ import annotations

import gzip
import io
import json

import httpx
import pytest
from PIL import Image

from tests.api.conftest import API
from tests.api.test_archive import archived, finished


@pytest.fixture(autouse=True)
def cheap_projection(monkeypatch, app):
    monkeypatch.setenv("WANDER_PROJECTION", "pca")


async def test_the_plot_at_both_sizes(client):
    s = await finished(client, seed_concept="tide pool", max_steps=6)
    await archived(client, s["id"])
    for query, size, name in (
        ({}, 1024, "umap.png"),
        ({"size": 1024}, 1024, "umap.png"),
        ({"size": 512}, 512, "umap-512.png"),
    ):
        r = await client.get(f"{API}/{s['id']}/umap.png", params=query)
        assert r.status_code == 200 and r.headers["content-type"] == "image/png", r.text
        assert Image.open(io.BytesIO(r.content)).size == (size, size)
        assert r.headers["content-disposition"].endswith(f'-{name}"')
    bad = await client.get(f"{API}/{s['id']}/umap.png", params={"size": 768})
    assert bad.status_code == 422 and bad.json()["field"] == "size"


async def test_archive_json_is_gzipped_on_the_wire(client, server):
    s = await finished(client, seed_concept="tide pool", max_steps=6)
    # the background archive of a completed wander writes to its session: let it finish, so
    # the two reads below see the same document
    await archived(client, s["id"])
    url = f"http://{server}{API}/{s['id']}/archive.json"
    async with httpx.AsyncClient(timeout=30) as raw:
        async with raw.stream("GET", url, headers={"Accept-Encoding": "gzip"}) as r:
            wire = b"".join([chunk async for chunk in r.aiter_raw()])
            assert r.status_code == 200 and r.headers["content-encoding"] == "gzip"
            assert r.headers["vary"] == "Accept-Encoding" and "attachment" in r.headers["content-disposition"]
        plain = await raw.get(url, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    doc = json.loads(gzip.decompress(wire))
    assert doc == plain.json() and doc["format"] == "wander-archive" and len(doc["traces"]) == 6
    assert len(wire) * 2 < len(plain.content), (len(wire), len(plain.content))
    refused = await client.get(url, headers={"Accept-Encoding": "gzip;q=0, identity"})
    assert "content-encoding" not in refused.headers and refused.json() == doc
