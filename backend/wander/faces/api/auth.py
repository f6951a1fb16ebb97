"""Signing a browser in behind WANDER_API_TOKEN: the token is exchanged once for an
HttpOnly, SameSite=Strict cookie (which the API guard and the WebSocket both read), either
by the page's token prompt (POST /api/v1/auth/session) or by a link's `?token=`, which the
server exchanges and redirects to the clean address. The page shell itself is public; the
API and the sockets are not."""

from __future__ import annotations

import hmac
from urllib.parse import urlencode

from litestar import Request, Response, post
from litestar.datastructures import Cookie
from litestar.exceptions import NotAuthorizedException
from litestar.response import Redirect
from pydantic import BaseModel, Field

from wander.faces.api.security import TOKEN_COOKIE

PUBLIC = {"public": True}  # route opt: the token guard lets these through


class SignIn(BaseModel):
    token: str = Field(min_length=1, max_length=1000)


def _matches(given: str | None, token: str | None) -> bool:
    return bool(token and given and hmac.compare_digest(given.encode(), token.encode()))


def token_cookie(request: Request, token: str) -> Cookie:
    return Cookie(
        key=TOKEN_COOKIE, value=token, path="/", httponly=True, samesite="strict", secure=request.url.scheme == "https"
    )


@post("/api/v1/auth/session", status_code=204, opt=PUBLIC, tags=["auth"])
async def sign_in(request: Request, data: SignIn) -> Response[None]:
    """Exchange the API token for the session cookie the browser then sends by itself."""
    token = request.app.state.api_settings.token
    if token and not _matches(data.token, token):
        raise NotAuthorizedException("the token is not this server's WANDER_API_TOKEN")
    return Response(
        None,
        status_code=204,
        cookies=[token_cookie(request, data.token)] if token else [],
    )


def exchange_link_token(request: Request) -> Response | None:
    """A page opened with ?token=: set the cookie and redirect to the address without it."""
    given = request.query_params.get("token")
    token = request.app.state.api_settings.token
    if given is None or not _matches(given, token):
        return None
    rest = [(k, v) for k, v in request.query_params.multi_items() if k != "token"]
    clean = request.url.path + (f"?{urlencode(rest)}" if rest else "")
    return Redirect(clean, status_code=303, cookies=[token_cookie(request, given)])
