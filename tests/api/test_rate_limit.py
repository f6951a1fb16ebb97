"""Rate limits: bound beyond loopback, a client's burst of session creates and
steps gets 429 problems with Retry-After; on loopback (the default) nothing is limited.
The clock is never read by the assertions: the buckets' refill is checked with a fake clock."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import httpx
import pytest
from litestar import Litestar, post
from litestar.exceptions import TooManyRequestsException
from litestar.testing import TestClient

from tests.api.conftest import API, create, start_server
from wander.bootstrap.settings import load_settings, parse_rate
from wander.faces.api import rate_limit
from wander.faces.api.app import ApiSettings, create_app
from wander.faces.api.rate_limit import (
    RATE_LIMITED,
    ClientBuckets,
    on_rate_limited,
    rate_limit_config,
    rate_limit_stores,
    take,
)

PROBLEM = "application/problem+json"


@pytest.fixture
async def served(app):
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


def assert_limited(r: httpx.Response) -> None:
    assert r.status_code == 429, r.text
    assert r.headers["content-type"].startswith(PROBLEM)
    body = r.json()
    assert body["title"] == "Too Many Requests" and "WANDER_API_RATE_LIMIT" in body["detail"]
    assert int(r.headers["retry-after"]) >= 1


async def test_beyond_loopback_a_burst_of_creates_and_steps_gets_429(served):
    # `host` is the address `wander serve --host` binds; the test server itself listens on
    # 127.0.0.1, but the app was made for 0.0.0.0, as in a deployment.
    api = ApiSettings(resume_interrupted=False, host="0.0.0.0", token="t0ken", rate_limit="3/hour")
    async with served(api) as c:
        c.headers["authorization"] = "Bearer t0ken"
        sid = (await create(c))["id"]  # 1
        for _ in range(2):  # 2, 3
            r = await c.post(f"{API}/{sid}/step")
            assert r.status_code == 200, r.text
        assert_limited(await c.post(f"{API}/{sid}/step"))
        assert_limited(await c.post(API, json={"seed_concept": "another"}))
        assert_limited(await c.post(f"{API}/{sid}/wander", json={"n_steps": 1}))
        # Reading is not limited, nor is steering.
        assert (await c.get(f"{API}/{sid}")).status_code == 200
        assert (await c.post(f"{API}/{sid}/pause")).status_code == 200
        # Without the token the guard answers 401 first: no bucket is spent on it.
        assert (await c.post(API, json={"seed_concept": "x"}, headers={"authorization": ""})).status_code == 401


async def test_on_loopback_nothing_is_limited(served):
    async with served(ApiSettings(resume_interrupted=False, host="127.0.0.1", rate_limit="1/hour")) as c:
        sid = (await create(c))["id"]
        for _ in range(3):
            await create(c)
            r = await c.post(f"{API}/{sid}/step")
            assert r.status_code == 200, r.text


async def test_zero_turns_it_off_beyond_loopback(served):
    async with served(ApiSettings(resume_interrupted=False, host="::", rate_limit="0")) as c:
        for _ in range(4):
            await create(c)


def test_the_setting():
    assert parse_rate("60/minute") == (60, 60.0)
    assert parse_rate("5/second") == (5, 1.0) and parse_rate("100/hour") == (100, 3600.0)
    assert parse_rate("0") is None and parse_rate("0/minute") is None
    assert load_settings({}).api.rate_limit == ApiSettings().rate_limit == "60/minute"
    assert ApiSettings.from_env({"WANDER_API_RATE_LIMIT": "10/Second"}, host="0.0.0.0").rate_limit == "10/second"
    for bad in ("lots", "10/fortnight", "-1/minute", "1.5/second"):
        with pytest.raises(Exception, match="WANDER_API_RATE_LIMIT"):
            load_settings({"WANDER_API_RATE_LIMIT": bad})
    assert rate_limit_config("127.0.0.1", (1, 60.0), "t") is None
    assert rate_limit_config("localhost", (1, 60.0), "t") is None
    assert rate_limit_config("::1", (1, 60.0), "t") is None
    assert rate_limit_config("0.0.0.0", None, "t") is None
    config = rate_limit_config("0.0.0.0", (1, 60.0), "t")
    assert config is not None and config.rate_limit == ("minute", 1)


def test_the_limited_handlers_exist():
    """A renamed or new handler that creates or moves a wander would escape the limit unmarked."""
    app = create_app(api=ApiSettings(resume_interrupted=False, host="0.0.0.0", token="t"))
    marked = {
        h.fn.__qualname__
        for route in app.routes
        for h in getattr(route, "route_handlers", [])
        if h.opt.get(RATE_LIMITED)
    }
    assert marked == {
        "SessionController.create_session",
        "InterventionController.subwander",
        "ControlController.step",
        "ControlController.wander",
        "SandwichController.forage",
    }


def test_buckets_refill_evenly_per_client():
    now = 100.0
    a, wait = take(None, now, 2, 60.0)
    assert wait == 0
    a, wait = take(a, now, 2, 60.0)
    assert wait == 0
    a, wait = take(a, now, 2, 60.0)
    assert wait == pytest.approx(30.0)  # one token every 30 s
    assert take(None, now, 2, 60.0)[1] == 0  # another client has its own bucket
    a, wait = take(a, now + 29.0, 2, 60.0)
    assert wait == pytest.approx(1.0)
    a, wait = take(a, now + 30.0, 2, 60.0)
    assert wait == 0 and take(a, now + 30.0, 2, 60.0)[1] > 0
    waits = []  # a long pause refills to the burst size, no more
    for _ in range(3):
        a, wait = take(a, now + 3630.0, 2, 60.0)
        waits.append(wait == 0)
    assert waits == [True, True, False]


def test_a_client_gets_a_token_back_as_its_bucket_refills(monkeypatch):
    now = [1_000_000.0]
    monkeypatch.setattr(rate_limit, "clock", lambda: now[0])

    @post("/limited", opt={RATE_LIMITED: True}, status_code=200)
    async def limited() -> str:
        return "ok"

    @post("/free", status_code=200)
    async def free() -> str:
        return "ok"

    config = rate_limit_config("0.0.0.0", (2, 60.0), None)
    assert config is not None
    app = Litestar(
        [limited, free],
        middleware=[config.middleware],
        stores=rate_limit_stores(),
        exception_handlers={TooManyRequestsException: on_rate_limited("2/minute")},
    )
    with TestClient(app) as c:
        assert [c.post("/limited").status_code for _ in range(2)] == [200, 200]
        r = c.post("/limited")
        assert_limited(r)
        assert int(r.headers["retry-after"]) == 30  # one token every 30 s
        assert c.post("/free").status_code == 200  # an unmarked handler is not counted
        now[0] += 29
        assert int(c.post("/limited").headers["retry-after"]) == 1
        now[0] += 1  # a token is back: one more
        assert [c.post("/limited").status_code for _ in range(2)] == [200, 429]
        now[0] += 3600  # a long pause refills to the burst size, no more
        assert [c.post("/limited").status_code for _ in range(3)] == [200, 200, 429]


async def test_the_buckets_kept_are_bounded_full_ones_forgotten_first():
    store = ClientBuckets(limit=3)
    await store.set("full", "x", expires_in=timedelta(microseconds=1))
    await store.set("busy-1", "x", expires_in=60)
    await store.set("busy-2", "x", expires_in=60)
    await asyncio.sleep(0.01)
    await store.set("new-1", "x", expires_in=60)  # the full (expired) bucket makes room
    assert len(store) == 3 and await store.get("busy-1") is not None
    await store.set("new-2", "x", expires_in=60)  # none full: the oldest goes
    assert len(store) == 3 and await store.get("busy-1") is None and await store.get("new-2") is not None
    await store.set("new-2", "y", expires_in=60)  # a bucket already kept takes no room
    assert len(store) == 3 and await store.get("busy-2") is not None
