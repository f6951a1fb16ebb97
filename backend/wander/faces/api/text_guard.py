"""Text Postgres cannot store (found by schemathesis): a NUL character (U+0000) in
any string of a JSON body or in a query parameter is refused up front with a 422 naming the
field, instead of reaching the database and failing there as a 500."""

from __future__ import annotations

import json
from typing import Any

from litestar import Request, Response

from wander.faces.api.problems import problem_response


def _nul_path(value: Any, path: str = "") -> str | None:
    """The dotted path of the first string (or key) holding a NUL, or None."""
    if isinstance(value, str):
        return (path or "body") if "\x00" in value else None
    if isinstance(value, dict):
        for k, v in value.items():
            here = f"{path}.{k}" if path else str(k)
            if "\x00" in str(k):
                return here
            found = _nul_path(v, here)
            if found:
                return found
    if isinstance(value, list):
        for i, v in enumerate(value):
            found = _nul_path(v, f"{path}[{i}]" if path else f"[{i}]")
            if found:
                return found
    return None


async def refuse_nul(request: Request) -> Response | None:
    """A before_request hook: a 422 problem for a NUL in a query parameter or a JSON body."""
    for key, value in request.query_params.multi_items():
        if "\x00" in key or "\x00" in value:
            return problem_response(422, f"{key}: must not contain the NUL character (U+0000)", key)
    if request.method in ("POST", "PUT", "PATCH") and "json" in request.headers.get("content-type", ""):
        body = await request.body()  # cached: the handler reads the same bytes
        if b"\\u0000" in body or b"\x00" in body:
            try:
                field = _nul_path(json.loads(body))
            except ValueError:
                return None  # not JSON: the handler's own parsing answers 400
            if field:
                return problem_response(422, f"{field}: must not contain the NUL character (U+0000)", field)
    return None
