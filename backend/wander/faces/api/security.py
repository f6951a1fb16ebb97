"""Loopback by default; elsewhere only with WANDER_API_TOKEN, which every request and
socket must then carry. WebSockets check the Origin header."""

from __future__ import annotations

import hmac
import ipaddress
from urllib.parse import urlsplit

from litestar.connection import ASGIConnection
from litestar.exceptions import NotAuthorizedException
from litestar.handlers.base import BaseRouteHandler

TOKEN_COOKIE = "wander_token"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_bind(host: str, token: str | None) -> None:
    if not is_loopback(host) and not token:
        raise SystemExit(
            f"refusing to listen on {host}: set WANDER_API_TOKEN to bind beyond loopback (127.0.0.1 is the default)"
        )


def presented_token(connection: ASGIConnection) -> str | None:
    auth = connection.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return connection.query_params.get("token") or connection.cookies.get(TOKEN_COOKIE)


def token_ok(connection: ASGIConnection, token: str | None) -> bool:
    if not token:
        return True
    given = presented_token(connection)
    return given is not None and hmac.compare_digest(given.encode(), token.encode())


def make_token_guard(token: str | None):
    def guard(connection: ASGIConnection, handler: BaseRouteHandler) -> None:
        if connection.scope["type"] == "websocket":
            return  # the socket handler checks the token itself and closes with 4401
        if handler.opt.get("public"):
            return  # the page shell and the sign-in exchange (api/auth.py)
        if not token_ok(connection, token):
            raise NotAuthorizedException("a valid bearer token is required (Authorization: Bearer <WANDER_API_TOKEN>)")

    return guard


def origin_ok(origin: str | None, host_header: str | None, extra_allowed: tuple[str, ...] = ()) -> bool:
    """No Origin (a non-browser client) is fine; a browser's Origin must be this server's
    own host, a loopback host, or one listed in WANDER_ALLOWED_ORIGINS."""
    if not origin:
        return True
    if origin in extra_allowed:
        return True
    parts = urlsplit(origin)
    if host_header and parts.netloc == host_header:
        return True
    return parts.hostname is not None and is_loopback(parts.hostname)
