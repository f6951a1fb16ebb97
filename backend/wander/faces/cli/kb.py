"""`wander kb ...`: the knowledge base (import notes, show counts)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from wander.core.domain.errors import InvalidInput
from wander.faces.cli.common import RichProgress, console, fail, open_app, quiet_libraries, run_async

kb_app = typer.Typer(help="The knowledge base: import notes, show counts.", no_args_is_help=True)


@kb_app.command("import")
def kb_import(path: Path = typer.Argument(..., help="A Markdown/text file or a folder of them.")) -> None:
    """Add your own notes to the knowledge base (a chunk per heading or paragraph)."""
    quiet_libraries()
    from wander.adapters.kb.importer import note_files

    try:
        note_files(path.expanduser())
    except InvalidInput as exc:
        fail(f"{exc.field}: {exc.reason}")

    async def main():
        from wander.bootstrap.wiring import import_notes

        async with open_app() as a:
            return await import_notes(a.kb, a.embedder, path, RichProgress())

    n = run_async(main)
    console.print(f"imported {n} chunks from {path}")


@kb_app.command("stats")
def kb_stats() -> None:
    """Concept counts per source and domain."""
    quiet_libraries()

    async def main():
        async with open_app() as a:
            return await a.kb.stats(), await a.kb.sources()

    stats, sources = run_async(main)
    table = Table("source", "domain", "concepts")
    for source, domain, count in stats:
        table.add_row(source, domain, str(count))
    console.print(table)
    for s in sources:
        console.print(f"{s.source}: {s.concepts} concepts, embedded with {s.embedder}")
    console.print(f"total: {sum(c for _, _, c in stats)} concepts")
