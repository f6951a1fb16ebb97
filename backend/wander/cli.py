"""The `wander` command: a face over the engine (wire, call, print; nothing more)."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import sys
import warnings
from collections.abc import Callable, Coroutine
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from wander.domain.errors import Conflict, InvalidInput, NotFound, WanderError
from wander.domain.geometry import BAND_HIGH, BAND_LOW
from wander.domain.models import SessionStatus
from wander.cli_memory import memory_app
from wander.cli_archive import register as register_archive
from wander.cli_doctor import DWELLER_HELP, doctor, dweller_builder_for
from wander.domain.validation import check_random_seed, check_steps, check_temperature, clean_text

app = typer.Typer(help="Wander: divergent exploration of idea space.", no_args_is_help=True, add_completion=False)
kb_app = typer.Typer(help="The knowledge base: import notes, show counts.", no_args_is_help=True)
db_app = typer.Typer(help="The database: migrations.", no_args_is_help=True)
app.add_typer(kb_app, name="kb")
app.add_typer(db_app, name="db")
console = Console()
err = Console(stderr=True)


def _quiet_libraries() -> None:
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    logging.basicConfig(level=os.environ.get("WANDER_LOG_LEVEL", "WARNING").upper())
    # pgserver asks platformdirs for a runtime dir; its fallback warning is noise here.
    warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
    for noisy in ("pgserver", "alembic", "sentence_transformers", "httpx", "transformers"):
        logging.getLogger(noisy).setLevel(logging.WARNING)


def fail(message: str) -> None:
    err.print(f"[bold red]error:[/] {message}", highlight=False)
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
        self._task = None

    def start(self, description: str, total: int) -> None:
        self._bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                             TimeElapsedColumn(), console=err)  # fmt: skip
        self._bar.start()
        self._task = self._bar.add_task(description, total=total)

    def advance(self, n: int) -> None:
        if self._bar is not None:
            self._bar.advance(self._task, n)

    def stop(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


@asynccontextmanager
async def _store():
    """The store alone (no model, no knowledge index): for commands that only read."""
    from wander.config import load_settings
    from wander.store.repository import PostgresStore
    from wander.wiring import open_database

    db = await open_database(load_settings())
    try:
        yield PostgresStore(db)
    finally:
        await db.dispose()


def _open_app(dweller=None):
    from wander.wiring import open_app

    return open_app(progress=RichProgress(), dweller=dweller)


def _print_fallback_notice(app_) -> None:
    from wander.cli_doctor import fallback_notice

    notice = fallback_notice(app_.engine)
    if notice:
        err.print(f"[bold yellow]note:[/] {notice}", highlight=False)


async def _run_steps(app_, session_id: str, total: int, done_before: int, as_json: bool) -> Any:
    bar = Progress(TextColumn("[bold]step[/] {task.completed}/{task.total}"), BarColumn(),
                   TextColumn("{task.description}"), TimeElapsedColumn(), console=err, disable=False)  # fmt: skip
    with bar:
        task = bar.add_task("", total=total, completed=done_before)

        def on_step(result) -> None:
            bar.update(task, completed=result.step_number,
                       description=f"{result.from_locus.concept[:28]} -> {result.to_locus.concept[:28]}")  # fmt: skip

        return await app_.engine.run(session_id, on_step=on_step)


async def _summary(app_, session_id: str) -> dict[str, Any]:
    session = await app_.store.get_session(session_id)
    steps = await app_.store.trace(session_id)
    distances = [s["selection_scores"].get("distance") for s in steps if s["selection_scores"]]
    in_band = sum(1 for d in distances if d is not None and BAND_LOW <= d <= BAND_HIGH)
    return {
        "session_id": session_id,
        "status": str(session.status),
        "stopped_reason": session.stopped_reason,
        "steps": len(steps),
        "in_band": in_band,
        "in_band_share": round(in_band / len(steps), 4) if steps else None,
        "path": [session.seed_concept] + [s["to_concept"] for s in steps],
        "residues": [
            {"step": s["step_number"], "from": s["from_concept"], "to": s["to_concept"],
             **{k: s[k] for k in ("connection", "tension", "bridge", "surprise", "possibility", "themes")}}
            for s in steps
        ],
    }  # fmt: skip


def _print_summary(summary: dict[str, Any], as_json: bool) -> None:
    if as_json:
        console.print_json(json.dumps(summary, default=str))
        return
    share = summary["in_band_share"]
    console.print(f"[bold]wander[/] {summary['session_id']}  status {summary['status']}"
                  + (f" ({summary['stopped_reason']})" if summary["stopped_reason"] else ""))  # fmt: skip
    console.print(" -> ".join(summary["path"][:12]) + (" -> ..." if len(summary["path"]) > 12 else ""))
    if share is not None:
        console.print(f"steps in the {BAND_LOW}-{BAND_HIGH} band: {summary['in_band']}/{summary['steps']} "
                      f"({share:.0%})")  # fmt: skip
    console.print(f"see it whole: wander show {summary['session_id']}")


@app.command()
def run(
    seed: Optional[str] = typer.Argument(None, help="The seed concept the wander starts from."),
    attractor: Optional[str] = typer.Option(None, help="A vague sense of what we are looking for."),
    steps: Optional[int] = typer.Option(None, help="Steps to take (1..10000; default 50, or the preset's)."),
    preset: Optional[str] = typer.Option(None, help="A ready-made wander: meta-wander (001's first use case)."),
    checkpoint_every: int = typer.Option(0, help="Pause for a human checkpoint every N steps (0: never)."),
    temperature: float = typer.Option(0.7, help="Softmax temperature (> 0; higher wanders more)."),
    random_seed: int = typer.Option(0, "--seed", help="Random seed: same seed, same path."),
    domains: Optional[list[str]] = typer.Option(None, "--domains", help="Allowed domain (repeatable)."),
    forbid: Optional[list[str]] = typer.Option(None, "--forbid", help="Forbidden domain (repeatable)."),
    name: Optional[str] = typer.Option(None, help="A name for the wander."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    dweller: Optional[str] = typer.Option(None, "--dweller", help=DWELLER_HELP),
) -> None:
    """Start a wander from SEED and walk it to the end."""
    _quiet_libraries()
    from wander.engine.presets import PRESETS

    others: list[str] = []
    if preset is not None:
        if preset not in PRESETS:
            fail(f"preset: unknown preset '{preset}' (known: {', '.join(PRESETS)})")
        p = PRESETS[preset]
        seed, attractor, others = seed or p.seed_concept, attractor or p.attractor, list(p.other_seeds)
        steps = steps or p.max_steps
    steps = 50 if steps is None else steps
    try:  # cheap checks first: a typo costs no database start
        clean_text("seed", seed)
        check_steps("steps", steps)
        if checkpoint_every < 0:
            raise InvalidInput("checkpoint_every", "must not be negative")
        check_temperature(temperature)
        check_random_seed(random_seed)
        builder = dweller_builder_for(dweller)
    except InvalidInput as exc:
        fail(f"{exc.field}: {exc.reason}")

    from wander.engine.service import NewWander

    async def main():
        async with _open_app(builder) as a:
            session = await a.engine.create(NewWander(
                seed_concept=seed, attractor=attractor, name=name, allowed_domains=domains or [],
                forbidden_domains=forbid or [], max_steps=steps, temperature=temperature, random_seed=random_seed,
                human_checkpoint_frequency=checkpoint_every, other_seeds=others,
            ))  # fmt: skip
            err.print(f"wander {session.id} started", highlight=False)
            await _run_steps(a, session.id, steps, 0, as_json)
            _print_fallback_notice(a)
            return await _summary(a, session.id)

    _print_summary(run_async(main), as_json)


@app.command()
def resume(
    session_id: str = typer.Argument(..., help="The wander to continue."),
    as_json: bool = typer.Option(False, "--json"),
    dweller: Optional[str] = typer.Option(None, "--dweller", help=DWELLER_HELP),
) -> None:
    """Continue a paused or interrupted wander from its last committed step."""
    _quiet_libraries()
    try:
        builder = dweller_builder_for(dweller)
    except InvalidInput as exc:
        fail(f"{exc.field}: {exc.reason}")

    async def main():
        async with _open_app(builder) as a:
            session = await a.store.get_session(session_id)
            if session is None:
                raise NotFound("session", session_id)
            if session.status in (SessionStatus.COMPLETED, SessionStatus.ABANDONED):
                raise Conflict(f"session {session_id} is {session.status}; nothing to resume")
            await a.engine.set_status(session_id, SessionStatus.ACTIVE)
            await _run_steps(a, session_id, session.max_steps, session.step_count, as_json)
            _print_fallback_notice(a)
            return await _summary(a, session_id)

    _print_summary(run_async(main), as_json)


@app.command()
def sessions(
    status: Optional[str] = typer.Option(None, help="active, paused, completed or abandoned."),
    as_json: bool = typer.Option(False, "--json", help="Print the list as JSON."),
) -> None:
    """List wanders, newest first."""
    _quiet_libraries()
    if status is not None and status not in {s.value for s in SessionStatus}:
        fail(f"status: must be one of {', '.join(s.value for s in SessionStatus)} (got '{status}')")

    async def main():
        async with _store() as store:
            return await store.list_sessions(status=status, limit=200)

    rows = run_async(main)
    if as_json:
        console.print_json(json.dumps([{"id": s.id, "name": s.name, "status": str(s.status), "step_count": s.step_count,
                                        "max_steps": s.max_steps} for s in rows]))  # fmt: skip
        return
    table = Table("id", "name", "status", "steps", "created")
    for s in rows:
        table.add_row(s.id, s.name[:40], str(s.status), f"{s.step_count}/{s.max_steps}",
                      s.created_at.strftime("%Y-%m-%d %H:%M") if s.created_at else "")  # fmt: skip
    console.print(table if rows else "no wanders yet: try `wander run \"information asymmetry\"`")


@app.command()
def show(session_id: str = typer.Argument(..., help="The wander to show.")) -> None:
    """The path and the residue of every step, readable."""
    _quiet_libraries()

    async def main():
        async with _store() as store:
            session = await store.get_session(session_id)
            if session is None:
                raise NotFound("session", session_id)
            found = (await store.find_resonances(session_id=session_id), await store.find_crystals(session_id=session_id),
                     {lo.id: lo for lo in await store.loci(session_id)})  # fmt: skip
            return session, await store.trace(session_id), found

    session, steps, (resonances, crystals, loci) = run_async(main)
    console.rule(f"[bold]{session.name}")
    console.print(f"seed: {session.seed_concept}    attractor: {session.attractor or '-'}")
    console.print(f"status: {session.status}"
                  + (f" ({session.stopped_reason})" if session.stopped_reason else "")
                  + f"    steps: {session.step_count}/{session.max_steps}    temperature: {session.temperature}"
                  + f"    random seed: {session.random_seed}")  # fmt: skip
    for s in steps:
        sc = s["selection_scores"] or {}
        console.print(f"\n[bold cyan]{s['step_number']:>3}[/] {s['from_concept']} [dim]->[/] [bold]{s['to_concept']}[/]"
                      f"  [dim]({', '.join(s['to_domains'])}; distance {sc.get('distance', 0):.2f}, "
                      f"score {sc.get('composite', 0):.2f}, p {sc.get('probability', 0):.2f})[/]", highlight=False)  # fmt: skip
        for facet in ("connection", "tension", "bridge", "surprise", "possibility"):
            console.print(f"    [green]{facet:<11}[/] {s[facet]}", highlight=False)
        console.print(f"    [green]{'themes':<11}[/] {', '.join(s['themes'] or [])}", highlight=False)
    from wander.cli_show import print_crystals, print_resonances

    print_resonances(console, resonances)
    print_crystals(console, crystals, loci)


@app.command()
def spawn(
    session_id: str = typer.Argument(..., help="The parent wander."),
    locus_id: str = typer.Argument(..., help="The locus to go deeper from (see `wander show`)."),
    steps: int = typer.Option(50, help="Steps for the sub-wander."),
    budget_share: float = typer.Option(0.25, help="Share of the parent's remaining cloud budget (0..1)."),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Go deeper: a sub-wander seeded at a locus of a wander, inheriting its fences and domains."""
    _quiet_libraries()
    try:
        check_steps("steps", steps)
    except InvalidInput as exc:
        fail(f"{exc.field}: {exc.reason}")

    async def main():
        from wander.engine.service import Interventions

        async with _open_app() as a:
            child = await Interventions(a.engine).spawn(session_id, locus_id, steps, budget_share)
            err.print(f"sub-wander {child.id} of {session_id} started at '{child.seed_concept}'", highlight=False)
            await _run_steps(a, child.id, steps, 0, as_json)
            return await _summary(a, child.id)

    _print_summary(run_async(main), as_json)


@app.command()
def children(session_id: str = typer.Argument(..., help="The parent wander.")) -> None:
    """The sub-wanders spawned from a wander."""
    _quiet_libraries()

    async def main():
        async with _store() as store:
            if await store.get_session(session_id) is None:
                raise NotFound("session", session_id)
            return await store.children(session_id)

    rows = run_async(main)
    table = Table("id", "seed", "status", "steps")
    for s in rows:
        table.add_row(s.id, s.seed_concept[:40], str(s.status), f"{s.step_count}/{s.max_steps}")
    console.print(table if rows else f"no sub-wanders of {session_id} yet")


@kb_app.command("import")
def kb_import(path: Path = typer.Argument(..., help="A Markdown/text file or a folder of them.")) -> None:
    """Add your own notes to the knowledge base (a chunk per heading or paragraph)."""
    _quiet_libraries()
    from wander.kb.importer import note_files

    try:
        note_files(path.expanduser())
    except InvalidInput as exc:
        fail(f"{exc.field}: {exc.reason}")

    async def main():
        from wander.wiring import import_notes

        async with _open_app() as a:
            return await import_notes(a.kb, a.embedder, path, RichProgress())

    n = run_async(main)
    console.print(f"imported {n} chunks from {path}")


@kb_app.command("stats")
def kb_stats() -> None:
    """Concept counts per source and domain."""
    _quiet_libraries()

    async def main():
        async with _open_app() as a:
            return await a.kb.stats(), await a.kb.sources()

    stats, sources = run_async(main)
    table = Table("source", "domain", "concepts")
    for source, domain, count in stats:
        table.add_row(source, domain, str(count))
    console.print(table)
    for s in sources:
        console.print(f"{s['source']}: {s['concepts']} concepts, embedded with {s['embedder']}")
    console.print(f"total: {sum(c for _, _, c in stats)} concepts")


@db_app.command("upgrade")
def db_upgrade() -> None:
    """Run the database migrations (also done on every start)."""
    _quiet_libraries()

    async def main():
        async with _store():
            pass  # opening the database migrates it to head

    run_async(main)
    console.print("database at head")


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on (non-loopback needs WANDER_API_TOKEN)."),
    port: int = typer.Option(8765, help="Port to listen on."),
) -> None:
    """Serve the API, the live WebSocket and the VISLZR mind map."""
    _quiet_libraries()
    import uvicorn

    from wander.api.app import ApiSettings, create_app
    from wander.api.security import check_bind

    if not 0 < port < 65536:
        fail(f"port: must be between 1 and 65535 (got {port})")
    api = ApiSettings.from_env()
    check_bind(host, api.token)
    shown = f"[{host}]" if ":" in host else host
    err.print(f"Wander on http://{shown}:{port}/  (API docs at /schema; Ctrl+C to stop)", highlight=False)
    # uvicorn re-raises the signal that stopped it; for SIGTERM the default action would kill
    # the process before the embedded Postgres is stopped at exit, so exit cleanly instead.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    uvicorn.run(create_app(api=api, progress=RichProgress()), host=host, port=port, log_level="warning",
                ws_ping_interval=20)  # fmt: skip


@app.command()
def worker(
    concurrency: Optional[int] = typer.Option(None, help="Runs at a time (default WANDER_WORKER_CONCURRENCY or 1)."),
    worker_id: Optional[str] = typer.Option(None, "--id", help="Recorded on every step (default host-pid-random)."),
) -> None:
    """Run wanders from the NATS JetStream work queue (needs WANDER_NATS_URL); start as many as you like."""
    _quiet_libraries()
    from dataclasses import replace

    from wander.bus.nats import NatsSettings
    from wander.worker import WorkerSettings, run_worker

    if NatsSettings.from_env() is None:
        fail("WANDER_NATS_URL: not set (the NATS server to pull runs from, e.g. nats://127.0.0.1:4222)")
    ws = WorkerSettings.from_env()
    if concurrency is not None:
        if concurrency < 1:
            fail(f"concurrency: must be at least 1 (got {concurrency})")
        ws = replace(ws, concurrency=concurrency)
    if worker_id:
        ws = replace(ws, worker_id=worker_id)

    def ready(w) -> None:
        err.print(f"worker {ws.worker_id} ready (concurrency {ws.concurrency})", highlight=False)

    done = run_async(lambda: run_worker(worker=ws, ready=ready))
    err.print(f"worker {ws.worker_id} stopped after {done} runs", highlight=False)


app.add_typer(memory_app, name="memory", help="Wheeler CA memory: store, recall, temps, scrub, info.")
app.command("doctor")(doctor)
register_archive(app)


def main() -> None:
    app()


if __name__ == "__main__":
    sys.exit(main())
