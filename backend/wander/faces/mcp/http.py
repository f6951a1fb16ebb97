"""Streamable HTTP for the MCP server: the SDK's Starlette app, behind the same bearer
token as the API (WANDER_API_TOKEN) when one is set."""

from __future__ import annotations

import hmac
from typing import Any

ASGIApp = Any


def with_token(app: ASGIApp, token: str | None) -> ASGIApp:
    """Refuse HTTP requests without `Authorization: Bearer <token>` (401); lifespan passes."""
    if not token:
        return app

    async def guarded(scope, receive, send):
        if scope["type"] == "http":
            headers = dict(scope.get("headers") or [])
            auth = headers.get(b"authorization", b"").decode("latin-1")
            presented = auth[7:].strip() if auth.lower().startswith("bearer ") else ""
            if not hmac.compare_digest(presented.encode(), token.encode()):
                body = b'{"error": "token: missing or wrong bearer token (WANDER_API_TOKEN)"}'
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await app(scope, receive, send)

    return guarded
