"""The problem answers in the OpenAPI document (found by schemathesis): every
operation may answer 400, 401, 404, 409 or 422 with an RFC 9457 problem body
(wander.faces.api.problems), but Litestar documents only the success code and its own 400 shape.
When the document is first asked for, every operation gets those answers, as
application/problem+json with the ProblemDetails schema, so clients and the fuzzer see what
the server really sends (and a 204 is documented without a body). Not at startup: building
the document takes about 0.3 s, which every server start (and every API test) paid."""

from __future__ import annotations

from litestar import Litestar, Request
from litestar.openapi.spec import OpenAPIMediaType, OpenAPIResponse, OpenAPIType, Reference, Schema

from wander.faces.api.problems import PROBLEM, TITLES

PROBLEM_CODES = (400, 401, 404, 409, 422)
PROBLEM_SCHEMA = Schema(
    type=OpenAPIType.OBJECT,
    required=["type", "title", "status", "detail"],
    properties={
        "type": Schema(type=OpenAPIType.STRING),
        "title": Schema(type=OpenAPIType.STRING),
        "status": Schema(type=OpenAPIType.INTEGER),
        "detail": Schema(type=OpenAPIType.STRING),
        "field": Schema(type=OpenAPIType.STRING, description="the request field at fault, where there is one"),
    },
    description="RFC 9457 problem details",
)


SCHEMA_PATH = "/schema"
_DOCUMENTED = "problems_documented"


def document_problems_on_first_read(request: Request) -> None:
    """Before a request for the OpenAPI document: amend it once, before it is served."""
    app = request.app
    if request.url.path.startswith(SCHEMA_PATH) and not app.state.get(_DOCUMENTED):
        document_problems(app)
        app.state[_DOCUMENTED] = True


def document_problems(app: Litestar) -> None:
    """Add the problem answers to every operation of the cached document."""
    openapi = app.openapi_schema  # built once and cached; /schema serves this object
    if openapi.components.schemas is None:
        openapi.components.schemas = {}
    openapi.components.schemas["ProblemDetails"] = PROBLEM_SCHEMA
    ref = Reference(ref="#/components/schemas/ProblemDetails")
    for item in (openapi.paths or {}).values():
        for method in ("get", "put", "post", "delete", "patch"):
            operation = getattr(item, method, None)
            if operation is None:
                continue
            responses = operation.responses if operation.responses is not None else {}
            for code in PROBLEM_CODES:
                responses[str(code)] = OpenAPIResponse(
                    description=TITLES[code], content={PROBLEM: OpenAPIMediaType(schema=ref)}
                )
            no_content = responses.get("204")
            if isinstance(no_content, OpenAPIResponse):
                no_content.content = None  # Litestar documents a JSON null body; a 204 has none
            operation.responses = responses
