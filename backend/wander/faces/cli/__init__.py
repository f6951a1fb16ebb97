"""The `wander` command: a face over the engine (wire, call, print; nothing more).
One module per command group; this one only assembles them."""

from __future__ import annotations

import typer

from wander.faces.cli.action import register as register_action_commands
from wander.faces.cli.archive import archive, export, import_
from wander.faces.cli.db import db_app
from wander.faces.cli.doctor import doctor
from wander.faces.cli.kb import kb_app
from wander.faces.cli.mcp import mcp
from wander.faces.cli.memory import memory_app
from wander.faces.cli.sandwich import corpus_app, forage, sandwich_app
from wander.faces.cli.serve import serve, worker
from wander.faces.cli.show import children, sessions, show
from wander.faces.cli.wanders import resume, run, spawn

app = typer.Typer(help="Wander: divergent exploration of idea space.", no_args_is_help=True, add_completion=False)
for command in (run, resume, sessions, show, spawn, children):
    app.command()(command)
app.add_typer(kb_app, name="kb")
app.add_typer(db_app, name="db")
app.command()(serve)
app.command()(worker)
app.add_typer(memory_app, name="memory", help="Wheeler CA memory: store, recall, temps, scrub, info.")
app.command("doctor")(doctor)
register_action_commands(app)  # propose, proposals, approve, reject, execute, wallet
app.command("mcp")(mcp)
app.command("forage")(forage)
app.add_typer(corpus_app, name="corpus")
app.add_typer(sandwich_app, name="sandwich")
app.command()(archive)
app.command()(export)
app.command("import")(import_)


def main() -> None:
    from wander.bootstrap.warmup import defer_ca_kernel

    defer_ca_kernel()  # a command's process loads numba only when its CA work pays for it
    app()
