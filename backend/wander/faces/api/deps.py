"""What the controllers are handed: narrow typed services, each its own dependency
(Litestar's `Provide`), built once when the server starts (`ApiServices.build`)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Annotated, Any, Protocol, runtime_checkable

from litestar.datastructures import State
from litestar.di import Provide
from litestar.params import Dependency

from wander.adapters.ca.crystal_memory import CrystalMemory
from wander.adapters.kb.index import KnowledgeIndex
from wander.adapters.postgres.sandwich_repository import SandwichRepository
from wander.bootstrap.action_factory import ActionServices
from wander.bootstrap.settings import ApiSettingsSection
from wander.bootstrap.warmup import Warmup
from wander.bootstrap.wiring import Services
from wander.core.archive.service import Archivist
from wander.core.engine.ports import Embedder, EventBus
from wander.core.engine.queries import Queries
from wander.core.engine.runner import RunOutcome
from wander.core.engine.service import WanderEngine
from wander.faces.api.api_settings import ApiSettings
from wander.faces.api.corpus import SandwichCorpus


@runtime_checkable
class Runs(Protocol):
    """The runs in the background: in-process tasks, or the run queue's workers."""

    def is_running(self, session_id: str) -> bool: ...

    async def start(self, session_id: str, n_steps: int | None, step_delay_s: float = 0.0) -> Any: ...

    async def wait(self, session_id: str) -> RunOutcome | None: ...

    async def cancel(self, session_id: str) -> None: ...

    async def resume_interrupted(self) -> list[str]: ...

    async def shutdown(self) -> None: ...


# A port without runtime checks: handed over as it is (Litestar checks a dependency's type).
EmbedderDep = Annotated[Embedder, Dependency(skip_validation=True)]


@dataclass(frozen=True)
class ApiServices:
    """Every service a controller may ask for by name (its parameter's name)."""

    api: ApiSettings  # what this server was started with (token, host, foraging roots)
    limits: ApiSettingsSection  # WANDER_API_* and WANDER_WS_* of the settings
    queries: Queries
    engine: WanderEngine
    runner: Runs
    archivist: Archivist
    warmup: Warmup | None
    knowledge: KnowledgeIndex
    embedder: Embedder
    bus: EventBus
    crystal_memory: CrystalMemory | None
    sandwiches: SandwichRepository
    corpus: SandwichCorpus
    actions: ActionServices

    @classmethod
    def build(cls, wired: Services, api: ApiSettings, runner: Runs, warmup: Warmup | None) -> ApiServices:
        return cls(
            api=api,
            limits=wired.settings.api,
            queries=wired.queries,
            engine=wired.engine,
            runner=runner,
            archivist=wired.archivist,
            warmup=warmup,
            knowledge=wired.knowledge,
            embedder=wired.embedder,
            bus=wired.bus,
            crystal_memory=wired.crystal_memory,
            sandwiches=wired.sandwiches,
            corpus=SandwichCorpus(wired),
            actions=wired.actions.requiring_token(bool(api.token)),
        )


def services(state: State) -> ApiServices:
    return state.services


def _provider(name: str) -> Provide:
    def provide(state: State) -> Any:
        return getattr(state.services, name)

    return Provide(provide, sync_to_thread=False)


DEPENDENCIES: dict[str, Provide] = {f.name: _provider(f.name) for f in fields(ApiServices)}
