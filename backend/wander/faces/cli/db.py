"""`wander db ...`: the database (migrations, backup and restore)."""

from __future__ import annotations

from pathlib import Path

import typer

from wander.faces.cli.common import console, fail, open_queries, quiet_libraries, run_async

db_app = typer.Typer(help="The database: migrations, backup and restore.", no_args_is_help=True)


@db_app.command("upgrade")
def db_upgrade() -> None:
    """Run the database migrations (also done on every start)."""
    quiet_libraries()

    async def main():
        async with open_queries():
            pass  # opening the database migrates it to head

    run_async(main)
    console.print("database at head")


def _where() -> tuple[str, Path]:
    from wander.adapters.postgres.database import database_url
    from wander.bootstrap.settings import load_settings

    settings = load_settings()
    return database_url(settings.database_url, settings.pg_dir), settings.memory_dir


@db_app.command("backup")
def db_backup(path: Path = typer.Argument(..., help="The backup file to write (replaced only when complete).")) -> None:
    """Back up the database (pg_dump, custom format) and the CA memory folder into one file."""
    quiet_libraries()
    from wander.adapters.postgres.backup import BackupError, backup

    url, memory = _where()
    try:
        manifest = backup(url, memory, path)
    except BackupError as e:
        fail(str(e))
    console.print(
        f"backed up to {path} (database {manifest['database_bytes']:,} bytes, {manifest['memory_files']} memory files)"
    )


@db_app.command("restore")
def db_restore(path: Path = typer.Argument(..., help="A file written by `wander db backup`.")) -> None:
    """Replace the database and the CA memory folder with a backup's (stop `wander serve` first)."""
    quiet_libraries()
    from wander.adapters.postgres.backup import BackupError, restore

    url, memory = _where()
    try:
        manifest = restore(url, memory, path)
    except BackupError as e:
        fail(str(e))
    console.print(f"restored {path} (made {manifest['created_at']})")
