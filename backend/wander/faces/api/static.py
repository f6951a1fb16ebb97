"""The built frontend (frontend/dist), with client-side routes falling back to index.html.

Every page and asset goes out with the security headers of wander.faces.api.headers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from litestar import Request, Response, get
from litestar.exceptions import NotFoundException
from litestar.response import File
from litestar.static_files import create_static_files_router

from wander.faces.api.auth import exchange_link_token
from wander.faces.api.headers import SECURITY_HEADERS
from wander.faces.api.problems import problem_response

DIST = Path(__file__).resolve().parents[4] / "frontend" / "dist"
NOT_BUILT = """<!doctype html><meta charset="utf-8"><title>Wander</title>
<body style="font-family:sans-serif;max-width:40em;margin:4em auto">
<h1>Wander</h1><p>The mind map is not built yet: run <code>make run</code> (or
<code>npm run build -w frontend</code>) and reload. The API is at <a href="/schema">/schema</a>.</p>"""


def secured(response: Any) -> Any:
    """The response with the security headers set (pages, assets, the not-built page)."""
    response.headers.update(SECURITY_HEADERS)
    return response


async def _secure_asset(response: Response) -> Response:
    return secured(response)


def dist_dir() -> Path:
    return DIST


def static_routes():
    if (DIST / "index.html").exists():
        return [
            create_static_files_router(
                path="/assets",
                directories=[DIST / "assets"],
                include_in_schema=False,
                opt={"public": True},
                after_request=_secure_asset,
            )
        ]
    return []


def spa_index() -> Response:
    index = DIST / "index.html"
    if index.exists():
        return File(
            index,
            content_disposition_type="inline",
            media_type="text/html",  # type: ignore[return-value]
            headers=SECURITY_HEADERS,
        )
    return Response(NOT_BUILT, media_type="text/html", headers=SECURITY_HEADERS)


@get(["/", "/sessions/{rest:path}"], include_in_schema=False, sync_to_thread=False, opt={"public": True})
def index_page(request: Request) -> Response:
    """The page shell is public (it asks for the token when the API answers 401); a link's
    ?token= is exchanged for the sign-in cookie and redirected away."""
    return exchange_link_token(request) or spa_index()


def on_not_found(request: Request, exc: NotFoundException) -> Response:
    """API and socket paths get a problem body; any other path is a client-side route."""
    path = request.url.path
    if path.startswith(("/api/", "/ws/", "/schema", "/assets/")):
        return problem_response(404, str(exc.detail) if exc.detail else f"no such path: {path}")
    file = DIST / path.lstrip("/")
    if DIST.exists() and file.is_file() and DIST in file.resolve().parents:
        return File(file, content_disposition_type="inline", headers=SECURITY_HEADERS)  # type: ignore[return-value]
    return spa_index()
