"""Every error as RFC 9457 problem details naming the field and the reason; never a 500
with a stack trace for bad input. Litestar's problem-details plugin answers them: each
exception below is mapped to a ProblemDetailsException. Database and unexpected errors keep
a small handler of their own, as the plugin's mapping is not handed the request and their
log lines name the method and path."""

from __future__ import annotations

import logging
from typing import Any

from litestar import Request, Response
from litestar.exceptions import HTTPException, NotFoundException, ValidationException
from litestar.plugins.problem_details import ProblemDetailsConfig, ProblemDetailsException, ProblemDetailsPlugin
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
    status: int,
    detail: str,
    field: str | None = None,
    suggestions: list[str] | None = None,
    headers: dict[str, str] | None = None,
) -> ProblemDetailsException:
    """The problem: {type, title, status, detail} and, where there are some, the field at
    fault and suggestions. Error answers bypass the app's response headers: they carry them."""
    extra: dict[str, Any] = {}
    if field:
        extra["field"] = field
    if suggestions:
        extra["suggestions"] = suggestions
    return ProblemDetailsException(
        detail=detail,
        status_code=status,
        type_="about:blank",
        title=TITLES.get(status, "Error"),
        extra=extra or None,
        headers={**API_HEADERS, **(headers or {})},
    )


def problem_response(
    status: int,
    detail: str,
    field: str | None = None,
    suggestions: list[str] | None = None,
    headers: dict[str, str] | None = None,
) -> Response[dict[str, Any]]:
    """The problem as a response, for the handlers and hooks that answer rather than raise."""
    exc = problem(status, detail, field, suggestions, headers)
    return exc.to_response(None)  # type: ignore[arg-type]  # the request is not read


def from_validation(exc: ValidationException) -> ProblemDetailsException:
    errors = exc.extra if isinstance(exc.extra, list) else []
    if errors and isinstance(errors[0], dict):
        first = errors[0]
        field = str(first["key"]) if first.get("key") else None
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


def from_http(exc: HTTPException) -> ProblemDetailsException:
    if isinstance(exc, NotFoundException):
        return problem(404, str(exc.detail) or "not found")
    return problem(exc.status_code, str(exc.detail))


def from_wander_error(exc: WanderError) -> ProblemDetailsException:
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
    return problem_response(503, f"the store {verb}: {faults.why(exc)}; nothing was written, try again later")


def on_unexpected(request: Request, exc: Exception) -> Response:
    log.exception("unhandled error on %s %s", request.method, request.url.path)
    return problem_response(500, "internal error; the server log has the details")


PLUGIN = ProblemDetailsPlugin(
    ProblemDetailsConfig(
        exception_to_problem_detail_map={  # type: ignore[dict-item]
            ValidationException: from_validation,
            HTTPException: from_http,
            WanderError: from_wander_error,
        }
    )
)
HANDLERS = {DBAPIError: on_database_error, Exception: on_unexpected}  # they log the request's method and path
