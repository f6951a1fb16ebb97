"""The Litestar app: the endpoints of 000, the WebSocket bridge, OpenAPI at /schema and the
built mind map, over the same wiring as the CLI."""

from __future__ import annotations

from typing import Any

from litestar import Litestar, Request, Response
from litestar.config.cors import CORSConfig
from litestar.datastructures import State
from litestar.exceptions import NotFoundException, TooManyRequestsException
from litestar.exceptions.http_exceptions import RequestEntityTooLarge
from litestar.openapi import OpenAPIConfig
from litestar.types import ControllerRouterHandler

from wander.bootstrap.settings import Settings, parse_rate
from wander.bootstrap.wiring import Services
from wander.faces.api import auth, problems, static
from wander.faces.api.api_settings import ApiSettings
from wander.faces.api.controllers.archive import ArchiveController
from wander.faces.api.controllers.bricks import BrickController
from wander.faces.api.controllers.control import ControlController
from wander.faces.api.controllers.crystals import CrystalController
from wander.faces.api.controllers.interventions import InterventionController
from wander.faces.api.controllers.map_view import MapViewController
from wander.faces.api.controllers.memory import MemoryController
from wander.faces.api.controllers.meta import domains, health
from wander.faces.api.controllers.proposals import ProposalController
from wander.faces.api.controllers.recall import recall
from wander.faces.api.controllers.sandwich import SandwichController
from wander.faces.api.controllers.sandwich_charts import SandwichChartsController
from wander.faces.api.controllers.sandwich_corpus import SandwichCorpusController
from wander.faces.api.controllers.sandwich_evaluation import SandwichEvaluationController
from wander.faces.api.controllers.sessions import SessionController
from wander.faces.api.controllers.workbench import WorkbenchController
from wander.faces.api.deps import DEPENDENCIES
from wander.faces.api.headers import API_HEADERS
from wander.faces.api.lifespan import server_lifespan
from wander.faces.api.openapi_problems import SCHEMA_PATH, document_problems_on_first_read
from wander.faces.api.rate_limit import on_rate_limited, rate_limit_config, rate_limit_stores
from wander.faces.api.security import make_token_guard
from wander.faces.api.text_guard import refuse_nul
from wander.faces.api.ws import session_socket

__all__ = ["MAX_QUERY_CHARS", "ApiSettings", "create_app"]

ROUTES: list[ControllerRouterHandler] = [
    SessionController,
    ControlController,
    MapViewController,
    ArchiveController,
    MemoryController,
    CrystalController,
    BrickController,
    InterventionController,
    WorkbenchController,
    ProposalController,
    SandwichController,
    SandwichCorpusController,
    SandwichEvaluationController,
    SandwichChartsController,
    health,
    domains,
    recall,
    session_socket,
    auth.sign_in,
    static.index_page,
]
MAX_QUERY_CHARS = 8192  # a query parameter's value; bodies have their fields' own limits (shared_schemas)


def create_app(
    settings: Settings | None = None,
    api: ApiSettings | None = None,
    *,
    wired: Services | None = None,
    progress: Any = None,
) -> Litestar:
    """`wired` lets tests hand in the Services they opened; otherwise the app opens its own."""
    api = api or ApiSettings.from_env()
    rate_limit = rate_limit_config(api.host, parse_rate(api.rate_limit), api.token)

    def on_too_large(_: Request, exc: RequestEntityTooLarge) -> Response:
        detail = f"the request body is larger than {api.max_body_bytes} bytes (WANDER_API_MAX_BODY_BYTES)"
        return problems.problem_response(413, detail)

    return Litestar(
        route_handlers=[*ROUTES, *static.static_routes()],
        dependencies=DEPENDENCIES,
        state=State({"api_settings": api}),  # auth and the page shell read the token before any service
        plugins=[problems.PLUGIN],
        exception_handlers={
            **problems.HANDLERS,  # type: ignore[dict-item]
            NotFoundException: static.on_not_found,
            RequestEntityTooLarge: on_too_large,
            TooManyRequestsException: on_rate_limited(api.rate_limit),
        },
        guards=[make_token_guard(api.token)],
        middleware=[rate_limit.middleware] if rate_limit else [],
        stores=rate_limit_stores(),
        request_max_body_size=api.max_body_bytes,
        lifespan=[server_lifespan(api, settings, wired, progress)],
        before_request=check_request,
        openapi_config=OpenAPIConfig(title="Wander", version="0.1.0", path=SCHEMA_PATH),
        cors_config=CORSConfig(allow_origins=list(api.allowed_origins)) if api.allowed_origins else None,
        response_headers=API_HEADERS,
        debug=False,
    )


async def check_request(request: Request) -> Response | None:
    """Before every handler: no query parameter over MAX_QUERY_CHARS, no NUL character; the
    OpenAPI document gets its problem answers before it is first served."""
    document_problems_on_first_read(request)
    for key, value in request.query_params.multi_items():
        if len(value) > MAX_QUERY_CHARS:
            return problems.problem_response(422, f"{key}: at most {MAX_QUERY_CHARS} characters", key)
    return await refuse_nul(request)
