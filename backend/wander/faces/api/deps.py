"""What the controllers are handed: the wired app and the background runner."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from litestar.datastructures import State

from wander.bootstrap.wiring import App
from wander.core.engine.runner import Runner


@dataclass
class Services:
    app: App
    runner: Runner
    archivist: Any = None  # wander.core.archive.service.Archivist
    warmup: Any = None  # wander.bootstrap.warmup.Warmup: what a first start still prepares


def provide_services(state: State) -> Services:
    return state.services
