"""Foraging over HTTP never stalls the server and never reaches inside: a source that accepts
and never answers leaves /api/v1/health and a live WebSocket answering; an internal address is
refused (422 on `source`), and always by a server bound beyond loopback."""

from __future__ import annotations

import asyncio
import statistics
import time

import httpx
import pytest
import websockets

from tests.api.conftest import create, start_server
from tests.unit.forage.protocol_server import as_text, serve, silent_server
from wander.adapters.sources.egress import EgressPolicy
from wander.bootstrap.foraging import make_forager
from wander.core.sandwich.model import SOURCE_ERROR
from wander.faces.api.app import ApiSettings

HANG_S = 4  # the forager's timeout here: a server whose loop it blocked would stall this long


@pytest.fixture
def settings(db_url, tmp_path):
    from wander.bootstrap.settings import load_settings

    return load_settings(
        {
            "WANDER_DATABASE_URL": db_url,
            "WANDER_HOME": str(tmp_path / "home"),
            "WANDER_FORAGE_ALLOW_NETWORKS": "127.0.0.1/32",
            "WANDER_FORAGE_TIMEOUT_S": str(HANG_S),
        }
    )


async def test_a_source_that_never_answers_leaves_the_api_and_sockets_answering(client, server):
    session = await create(client)
    with silent_server() as (port, held):
        async with websockets.connect(f"ws://{server}/ws/sessions/{session['id']}?after_seq=0") as ws:
            forage = asyncio.create_task(
                client.post("/api/v1/sandwich/forage", json={"source": f"http://127.0.0.1:{port}/page", "patience": 1})
            )
            for _ in range(400):  # until the forager's connection is in (and waits for an answer)
                if held or forage.done():
                    break
                await asyncio.sleep(0.02)
            assert held and not forage.done()
            health: list[float] = []
            pongs: list[float] = []
            for _ in range(8):
                t = time.perf_counter()
                r = await client.get("/api/v1/health")
                health.append(time.perf_counter() - t)
                assert r.status_code == 200
                t = time.perf_counter()
                await asyncio.wait_for(await ws.ping(), timeout=HANG_S * 2)
                pongs.append(time.perf_counter() - t)
                await asyncio.sleep(0.05)
            still_waiting = not forage.done()
            done = await forage
    assert still_waiting  # every probe above ran while the forager waited on the silent source
    # 100 ms for the typical answer; a loop blocked by the fetch would take seconds (HANG_S)
    assert statistics.median(health) < 0.1 and max(health) < 1.5, health
    assert statistics.median(pongs) < 0.1 and max(pongs) < 1.5, pongs
    body = done.json()
    assert done.status_code == 200 and body["status"] == "failed" and body["outcomes"] == {SOURCE_ERROR: 1}
    (entry,) = (await client.get("/api/v1/sandwich/log", params={"run_id": body["run_id"]})).json()
    assert f"no answer from http://127.0.0.1:{port}/robots.txt within {HANG_S} s" in entry["outcome_rationale"]


async def test_a_server_bound_beyond_loopback_never_forages_inside(app):
    """Even with 127.0.0.1 allowed, a server bound beyond loopback refuses it (and a name that
    resolves to it): 422 on `source`, and the internal server sees no request."""
    srv, task, addr = await start_server(
        app, ApiSettings(host="0.0.0.0", token="t0k", resume_interrupted=False, rate_limit="0")
    )
    try:
        with serve({"/": lambda s: as_text("inside")}) as inside:
            async with httpx.AsyncClient(
                base_url=f"http://{addr}", headers={"Authorization": "Bearer t0k"}, timeout=30
            ) as c:
                for url in (inside.url("/"), f"http://localhost:{inside.port}/", "http://169.254.169.254/latest/"):
                    r = await c.post("/api/v1/sandwich/forage", json={"source": url, "patience": 1})
                    assert r.status_code == 422, r.text
                    assert r.json()["field"] == "source" and "refused" in r.json()["detail"]
        assert inside.seen == []
    finally:
        srv.should_exit = True
        await task


async def test_by_default_the_forager_refuses_loopback_and_logs_why(app):
    with serve({"/": lambda s: as_text("inside")}) as inside:
        summary = await make_forager(app, seed=1, policy=EgressPolicy()).run(patience=1, source=inside.url("/"))
    (entry,) = await app.sandwiches.log(summary.run_id)
    assert entry.outcome == SOURCE_ERROR and "refused: 127.0.0.1, a loopback address" in entry.outcome_rationale
    assert inside.seen == [] and summary.status == "failed"


async def test_the_api_takes_the_wandering_budget(client):
    page = '<html><body><p>A shore lies between the sea and the land. <a href="/next">next</a></p></body></html>'
    with serve({"/": lambda s: as_text(page, "text/html"), "/next": lambda s: as_text(page, "text/html")}) as site:
        r = await client.post("/api/v1/sandwich/forage", json={"source": site.url("/"), "depth": 0, "patience": 3})
        assert r.status_code == 200 and r.json()["attempts"] == 1 and "/next" not in site.paths()
        bad = await client.post("/api/v1/sandwich/forage", json={"source": site.url("/"), "depth": 9})
        assert bad.status_code in (400, 422) and "depth" in bad.text
