"""Every error as RFC 9457 problem details naming the field and the reason; never a 500
with a stack trace for bad input."""

from __future__ import annotations

import logging
from typing import Any

from litestar import MediaType, Request, Response
from litestar.exceptions import HTTPException, NotFoundException, ValidationException
from sqlalchemy.exc import DBAPIError

from wander.adapters.postgres import faults
from wander.core.domain.errors import Conflict, InvalidInput, NotFound, Refused, StoreUnavailable, WanderError
from wander.faces.api.headers import API_HEADERS

log = logging.getLogger(__name__)
PROBLEM = "application/problem+json"
TITLES = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    409: "Conflict",
    413: "Payload Too Large",
    415: "Unsupported Media Type",
    422: "Unprocessable Content",
    429: "Too Many Requests",
    500: "Internal Server Error",
    503: "Service Unavailable",
}


def problem(
    status: int, detail: str, field: str | None = None, suggestions: list[str] | None = None
) -> Response[dict[str, Any]]:
    body: dict[str, Any] = {
        "type": "about:blank",
        "title": TITLES.get(status, "Error"),
        "status": status,
        "detail": detail,
    }
    if field:
        body["field"] = field
    if suggestions:
        body["suggestions"] = suggestions
    return Response(body, status_code=status, media_type=PROBLEM, headers=API_HEADERS)


def _field_of(error: dict[str, Any]) -> str | None:
    key = error.get("key")
    if key:
        return str(key)
    return None


def on_validation(_: Request, exc: ValidationException) -> Response:
    errors = exc.extra if isinstance(exc.extra, list) else []
    if errors and isinstance(errors[0], dict):
        first = errors[0]
        field = _field_of(first)
        message = str(first.get("message", exc.detail))
        if field is None and "JSON" in message:
            return problem(400, f"the body is not valid JSON: {message}")
        if first.get("source") == "body" and field is None:
            return problem(400, f"body: {message}")
        return problem(422, f"{field or 'request'}: {message}", field)
    detail = str(exc.detail)
    if "JSON" in detail or "decode" in detail.lower():
        return problem(400, f"the body is not valid JSON: {detail}")
    return problem(400, detail)


def on_http(_: Request, exc: HTTPException) -> Response:
    if isinstance(exc, NotFoundException):
        return problem(404, str(exc.detail) or "not found")
    return problem(exc.status_code, str(exc.detail))


def on_wander_error(_: Request, exc: WanderError) -> Response:
    if isinstance(exc, InvalidInput):
        return problem(422, f"{exc.field}: {exc.reason}", exc.field, exc.suggestions)
    if isinstance(exc, NotFound):
        return problem(404, f"{exc.what} not found: {exc.ident}", exc.what + "_id")
    if isinstance(exc, Conflict):
        return problem(409, str(exc))
    if isinstance(exc, Refused):
        return problem(exc.status, exc.reason)
    if isinstance(exc, StoreUnavailable):
        log.warning("store unavailable: %s", exc)
        return problem(503, str(exc))
    return problem(400, str(exc))


def on_database_error(request: Request, exc: DBAPIError) -> Response:
    """The store full or away (disk full, I/O error, connection lost): 503, and the same
    request can be made again once it is back. Any other database error is a bug: 500."""
    if not faults.unavailable(exc):
        return on_unexpected(request, exc)
    log.warning("store unavailable on %s %s: %s", request.method, request.url.path, faults.why(exc))
    verb = "could not write" if faults.cannot_write(exc) else "could not be reached"
    return problem(503, f"the store {verb}: {faults.why(exc)}; nothing was written, try again later")


def on_unexpected(request: Request, exc: Exception) -> Response:
    log.exception("unhandled error on %s %s", request.method, request.url.path)
    return problem(500, "internal error; the server log has the details")


HANDLERS = {
    ValidationException: on_validation,
    HTTPException: on_http,
    WanderError: on_wander_error,
    DBAPIError: on_database_error,
    Exception: on_unexpected,
}
MEDIA = MediaType.JSON
