"""Behind a token, a browser signs in once: the token buys an HttpOnly, SameSite=Strict
cookie that opens the API and the live socket; a link with ?token= sets it and redirects."""

import json

import httpx
import websockets

from tests.api.conftest import API, start_server
from wander.faces.api.app import ApiSettings


async def test_browser_signs_in_once_with_a_cookie(app):
    srv, task, addr = await start_server(app, ApiSettings(token="s3cret", heartbeat_s=0.3, resume_interrupted=False))
    try:
        async with httpx.AsyncClient(base_url=f"http://{addr}") as c:
            assert (await c.get("/")).status_code == 200  # the page shell loads, then asks for the token
            assert (await c.get(API)).status_code == 401
            bad = await c.post("/api/v1/auth/session", json={"token": "wrong"})
            assert bad.status_code == 401 and "wander_token" not in bad.cookies
            r = await c.post("/api/v1/auth/session", json={"token": "s3cret"})
            assert r.status_code == 204
            cookie = r.headers["set-cookie"].lower()
            assert "httponly" in cookie and "samesite=strict" in cookie and "path=/" in cookie
            assert (await c.get(API)).status_code == 200  # the cookie alone now opens the API
            sid = (await c.post(API, json={"seed_concept": "tide"})).json()["id"]
            headers = {"Cookie": f"wander_token={c.cookies['wander_token']}"}
            async with websockets.connect(f"ws://{addr}/ws/sessions/{sid}", additional_headers=headers) as ws:
                assert json.loads(await ws.recv())["type"] == "event"
        async with httpx.AsyncClient(base_url=f"http://{addr}") as link:
            r = await link.get(f"/sessions/{sid}?token=s3cret&x=1")
            assert r.status_code == 303 and r.headers["location"] == f"/sessions/{sid}?x=1"
            assert "httponly" in r.headers["set-cookie"].lower()
            assert (await link.get(f"{API}/{sid}")).status_code == 200
    finally:
        srv.should_exit = True
        await task
