"""`wander db ...`: the database (migrations)."""

from __future__ import annotations

import typer

from wander.cli.common import console, open_queries, quiet_libraries, run_async

db_app = typer.Typer(help="The database: migrations.", no_args_is_help=True)


@db_app.command("upgrade")
def db_upgrade() -> None:
    """Run the database migrations (also done on every start)."""
    quiet_libraries()

    async def main():
        async with open_queries():
            pass  # opening the database migrates it to head

    run_async(main)
    console.print("database at head")
