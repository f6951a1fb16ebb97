"""A real uvicorn server on a free loopback port, in the test's event loop, over the test
database; HTTP through httpx and WebSockets through the websockets client."""

from __future__ import annotations

import asyncio
import socket
import ssl

import httpx
import pytest
import uvicorn

from wander.faces.api.app import ApiSettings, create_app

# One TLS context for the tests' clients (they speak plain HTTP to the loopback): each client
# built its own, loading certifi's bundle, ~0.025 s of CPU per test.
CLIENT_TLS = ssl.create_default_context()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def start_server(app_ctx, api: ApiSettings):
    return await serve(create_app(api=api, wired=app_ctx))


async def serve(litestar_app):
    port = free_port()
    # A long keep-alive: the server shares the test's event loop, and when a busy machine
    # stalls that loop past uvicorn's 5 s default, the idle-timer closes the connection
    # just as the client sends its next request ("Server disconnected without a response").
    config = uvicorn.Config(
        litestar_app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        lifespan="on",
        timeout_keep_alive=300,
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.02)
    return server, task, f"127.0.0.1:{port}"


class ServedServices:
    """Stands in for the Services of the test being served, so that one app serves every
    test of a worker: building the app (registering its ~600 routes) cost ~0.1 s of CPU per
    test. Each test's server runs the app's lifespan anew over the test's own Services."""

    def __init__(self) -> None:
        self.current = None

    def __getattr__(self, name: str):
        current = self.__dict__["current"]
        if current is None:
            raise AttributeError(f"no test is being served ({name})")
        return getattr(current, name)


@pytest.fixture(scope="session")
def worker_app():
    """The app of the `server` fixture, built once per worker, and what it serves."""
    served = ServedServices()
    return create_app(api=ApiSettings(heartbeat_s=0.3, resume_interrupted=False), wired=served), served


@pytest.fixture
async def server(app, worker_app):
    litestar_app, served = worker_app
    served.current = app
    try:
        srv, task, addr = await serve(litestar_app)
        yield addr
        srv.should_exit = True
        await task
    finally:
        # what a test's run left on the app: the next test's lifespan starts from none of it
        served.current = None
        for key in ("services", "ws_stats"):
            litestar_app.state.pop(key, None)


@pytest.fixture
async def client(server):
    async with httpx.AsyncClient(base_url=f"http://{server}", timeout=30, verify=CLIENT_TLS) as c:
        yield c


API = "/api/v1/wander/sessions"


async def create(client, **body):
    body.setdefault("seed_concept", "information asymmetry")
    r = await client.post(API, json=body)
    assert r.status_code == 201, r.text
    return r.json()


async def wait_idle(client, session_id: str, timeout: float = 60) -> dict:
    for _ in range(int(timeout / 0.1)):
        s = (await client.get(f"{API}/{session_id}")).json()
        if not s["running"]:
            return s
        await asyncio.sleep(0.1)
    raise AssertionError("run did not finish")
