"""`wander archive | export | import`: a finished wander's artefacts, its JSON export, and
reading an export back into another database with the same ids."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from wander.core.domain.errors import Conflict, InvalidInput, NotFound
from wander.faces.cli.common import console, err, fail, quiet_libraries, run_async

FORMATS = ("json", "md", "png")


def _archivist():
    """The archivist over the database alone."""
    from wander.bootstrap.standalone import open_archive  # imported late: `wander --help` stays quick

    return open_archive()


def archive(
    session_id: str = typer.Argument(..., help="The wander to archive."),
    force: bool = typer.Option(False, "--force", help="Write it again even if nothing changed."),
) -> None:
    """Write a finished wander's archive (JSON, Markdown, UMAP plot, session embedding)."""
    quiet_libraries()

    async def main():
        async with _archivist() as a:
            return await a.archive(session_id, force=force)

    row, written = run_async(main)
    console.print(
        f"{'archived' if written else 'already archived (unchanged)'} {row.session_id}: "
        f"{row.step_count} steps, {row.loci_count} loci, {row.crystal_count} crystals, "
        f"fingerprint {row.fingerprint[:12]}",
        highlight=False,
    )


def export(
    session_id: str = typer.Argument(..., help="The wander to export."),
    fmt: str = typer.Option("json", "--format", help="json, md or png."),
    out: Path = typer.Option(..., "--out", help="The file to write."),
    snapshot: bool = typer.Option(False, "--snapshot", help="json only: allow a wander still active."),
) -> None:
    """Export a wander: the full JSON (re-importable), the Markdown summary or the UMAP plot."""
    quiet_libraries()
    if fmt not in FORMATS:
        fail(f"format: must be one of {', '.join(FORMATS)} (got '{fmt}')")
    if out.exists() and out.is_dir():
        fail(f"out: {out} is a folder; name a file")

    async def main() -> bytes:
        from wander.core.archive.build import document

        async with _archivist() as a:
            if fmt == "json":
                rows = await a.rows(session_id)
                if rows["session"]["status"] == "active" and not snapshot:
                    raise Conflict(
                        f"session {session_id} is active and may still change; stop or pause it to "
                        "export it as final (or --snapshot)"
                    )
                doc = document(rows, final=rows["session"]["status"] != "active")
                return json.dumps(doc, indent=1).encode()
            await a.archive(session_id)
            blob = await a.repo.archive_blob(session_id, "markdown" if fmt == "md" else "png")
            return blob.encode() if fmt == "md" else bytes(blob)

    data = run_async(main)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(data)
    err.print(f"wrote {out} ({len(data):,} bytes)", highlight=False)


def import_(file: Path = typer.Argument(..., help="A JSON export (wander export --format json).")) -> None:
    """Read an export back, with the same ids, into this database (all or nothing)."""
    quiet_libraries()
    doc = read_export(file)

    async def main() -> str:
        from wander.bootstrap.standalone import import_export

        return await import_export(doc)

    sid = run_async(main)
    console.print(f"imported {sid}", highlight=False)


def read_export(file: Path) -> dict:
    """The parsed export, or one line naming what is wrong with it (nothing is written)."""
    from wander.core.archive.build import FORMAT, VERSION

    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        fail(f"file: {file} does not exist")
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"file: {file} cannot be read ({exc.__class__.__name__})")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        fail(f"file: {file} is not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})")
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        fail(f'file: {file} is not a Wander export (no "format": "{FORMAT}")')
    if doc.get("version") != VERSION:
        fail(f"version: {doc.get('version')!r} is not supported (this Wander reads version {VERSION})")
    return doc


__all__ = ["archive", "export", "import_", "read_export", "Conflict", "InvalidInput", "NotFound"]
