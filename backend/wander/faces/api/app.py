"""The Litestar app: the endpoints of 000, the WebSocket bridge, OpenAPI at /schema and the
built mind map, over the same wiring as the CLI."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

from litestar import Litestar, Request, Response
from litestar.config.cors import CORSConfig
from litestar.di import Provide
from litestar.exceptions import NotFoundException
from litestar.exceptions.http_exceptions import RequestEntityTooLarge
from litestar.openapi import OpenAPIConfig

from wander.bootstrap.archivist import open_archivist
from wander.bootstrap.settings import Settings, load_settings, parse_rate
from wander.bootstrap.warmup import START, Warmup, phase
from wander.bootstrap.wiring import App, dweller_builder_for, make_runner, open_app
from wander.core.engine.runner import Runner
from wander.faces.api import auth, problems, static
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
from wander.faces.api.deps import Services, provide_services
from wander.faces.api.headers import API_HEADERS
from wander.faces.api.openapi_problems import SCHEMA_PATH, document_problems_on_first_read
from wander.faces.api.rate_limit import RateLimited, make_rate_guard, on_rate_limited
from wander.faces.api.security import make_token_guard
from wander.faces.api.text_guard import refuse_nul
from wander.faces.api.ws import session_socket


@dataclass(frozen=True)
class ApiSettings:
    token: str | None = None
    heartbeat_s: float = 15.0
    allowed_origins: tuple[str, ...] = field(default_factory=tuple)
    resume_interrupted: bool = True
    umap_warm_up: bool = False  # compile UMAP in the background at start (`wander serve`: on; WANDER_UMAP_WARMUP=0)
    host: str = "127.0.0.1"  # the address the server binds (`wander serve --host`): beyond loopback, rate limits
    max_body_bytes: int = 1_048_576  # WANDER_API_MAX_BODY_BYTES
    rate_limit: str = "60/minute"  # WANDER_API_RATE_LIMIT; applied only beyond loopback
    forage_roots: tuple[Path, ...] = ()  # where POST /sandwich/forage may read a `source` path (none: nowhere)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, *, host: str = "127.0.0.1") -> ApiSettings:
        s = load_settings(env)
        a = s.api
        return cls(
            token=a.token or None,
            heartbeat_s=a.ws_heartbeat_s,
            allowed_origins=a.allowed_origins,
            umap_warm_up=s.archive.umap_warmup,
            host=host,
            max_body_bytes=a.max_body_bytes,
            rate_limit=a.rate_limit,
            forage_roots=s.forage_roots,
        )


def create_app(
    settings: Settings | None = None, api: ApiSettings | None = None, *, wired: App | None = None, progress=None
) -> Litestar:
    """`wired` lets tests hand in an App they opened; otherwise the app opens its own."""
    api = api or ApiSettings.from_env()

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        async def start(a: App) -> Runner:
            # Load the embedding model before the first request (it now runs in a thread, and a
            # first load can take longer than a client waits).
            with phase("loading the embedding model"):
                await a.engine.warm_up()
            warmup = Warmup()  # the CA kernel and the domain neighbourhoods, in the background
            warmup.start(a.knowledge, a.settings.cache_dir)
            runner = make_runner(a)  # in-process tasks, or the NATS run queue for workers
            archivist = open_archivist(a.db, a.bus, a.settings, embedder=a.embedder)
            archivist.attach(warm_up=api.umap_warm_up)
            archivist.spawn("catch-up", archivist.catch_up)  # finished while no archivist listened
            app.state.services = Services(app=a, runner=runner, archivist=archivist, warmup=warmup)
            app.state.api_settings = api
            if api.resume_interrupted:
                await runner.resume_interrupted()
            START.info("answering requests")
            return runner

        async def stop(runner: Runner) -> None:
            await runner.shutdown()
            await app.state.services.archivist.close()

        if wired is not None:
            runner = await start(wired)
            try:
                yield
            finally:
                await stop(runner)
        else:
            async with open_app(settings or load_settings(), progress=progress, dweller=dweller_builder_for(None)) as a:
                runner = await start(a)
                try:
                    yield
                finally:
                    await stop(runner)

    def on_too_large(_: Request, exc: RequestEntityTooLarge) -> Response:
        return problem_too_large(api.max_body_bytes)

    rate_guard = make_rate_guard(api.host, parse_rate(api.rate_limit), api.rate_limit)
    return Litestar(
        route_handlers=[
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
            *static.static_routes(),
        ],
        dependencies={"svc": Provide(provide_services, sync_to_thread=False)},
        exception_handlers={
            **problems.HANDLERS,  # type: ignore[dict-item]
            NotFoundException: static.on_not_found,
            RequestEntityTooLarge: on_too_large,
            RateLimited: on_rate_limited,
        },
        guards=[make_token_guard(api.token), *([rate_guard] if rate_guard else [])],
        request_max_body_size=api.max_body_bytes,
        lifespan=[lifespan],
        before_request=check_request,
        openapi_config=OpenAPIConfig(title="Wander", version="0.1.0", path=SCHEMA_PATH),
        cors_config=CORSConfig(allow_origins=list(api.allowed_origins)) if api.allowed_origins else None,
        response_headers=API_HEADERS,
        debug=False,
    )


MAX_QUERY_CHARS = 8192  # a query parameter's value; bodies have their fields' own limits (shared_schemas)


async def check_request(request: Request) -> Response | None:
    """Before every handler: no query parameter over MAX_QUERY_CHARS, no NUL character; the
    OpenAPI document gets its problem answers before it is first served."""
    document_problems_on_first_read(request)
    for key, value in request.query_params.multi_items():
        if len(value) > MAX_QUERY_CHARS:
            return problems.problem(422, f"{key}: at most {MAX_QUERY_CHARS} characters", key)
    return await refuse_nul(request)


def problem_too_large(limit: int) -> Response:
    return problems.problem(413, f"the request body is larger than {limit} bytes (WANDER_API_MAX_BODY_BYTES)")
