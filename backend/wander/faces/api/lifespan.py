"""Opening the services when the server starts, and closing them when it stops: what the
controllers are handed (ApiServices) is built here, once."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from typing import Any

from litestar import Litestar

from wander.bootstrap.settings import Settings, load_settings
from wander.bootstrap.warmup import START, Warmup, phase
from wander.bootstrap.wiring import Services, make_runner, open_app
from wander.faces.api.api_settings import ApiSettings
from wander.faces.api.deps import ApiServices


def server_lifespan(
    api: ApiSettings, settings: Settings | None, wired: Services | None, progress: Any
) -> Callable[[Litestar], AbstractAsyncContextManager[None]]:
    """Opens the services (or takes the Services a test opened: `wired`) and builds what the
    controllers are handed, once; closes them on the way out."""

    async def start(app: Litestar, a: Services) -> ApiServices:
        # Load the embedding model before the first request (it now runs in a thread, and a
        # first load can take longer than a client waits).
        with phase("loading the embedding model"):
            await a.engine.warm_up()
        warmup = Warmup()  # the CA kernel and the domain neighbourhoods, in the background
        warmup.start(a.knowledge, a.settings.cache_dir)
        runner = make_runner(a)  # in-process tasks, or the NATS run queue for workers
        a.archivist.attach(warm_up=api.umap_warm_up)
        a.archivist.spawn("catch-up", a.archivist.catch_up)  # finished while no archivist listened
        services = ApiServices.build(a, api, runner, warmup)
        app.state.services = services
        if api.resume_interrupted:
            await runner.resume_interrupted()
        START.info("answering requests")
        return services

    async def stop(services: ApiServices) -> None:
        await services.runner.shutdown()
        await services.archivist.close()

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        async with AsyncExitStack() as stack:
            a = wired
            if a is None:
                s = settings or load_settings()
                a = await stack.enter_async_context(open_app(s, progress=progress, dweller=s.models.dweller))
            services = await start(app, a)
            try:
                yield
            finally:
                await stop(services)

    return lifespan
