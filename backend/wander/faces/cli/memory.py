"""`wander memory ...`: the Wheeler memory from the command line.

Mounted by wander.faces.cli as ``app.add_typer(memory_app, name="memory")``. The memory lives
in WANDER_HOME/memory; WANDER_MEMORY_CAPACITY caps it (default 1000 memories).
Bad input ends with one line, ``error: <field>: <reason>``, and exit code 2.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NoReturn, Optional

import typer
from rich.console import Console
from rich.table import Table

memory_app = typer.Typer(
    name="memory",
    help="Wheeler CA memory: store texts as attractors, recall by correlation.",
    no_args_is_help=True,
    add_completion=False,
)

_out = Console(highlight=False, soft_wrap=True)  # one line per memory, whatever the terminal width
_err = Console(stderr=True, highlight=False)


def _fail(field: str, reason: str) -> NoReturn:
    _err.print(f"error: {field}: {reason}", markup=False, soft_wrap=True)
    raise typer.Exit(code=2)


def _memory():
    from wander.adapters.ca.wheeler_memory import MemoryInputError
    from wander.adapters.ca.xp import CABackendError
    from wander.bootstrap.standalone import wheeler_memory

    try:
        return wheeler_memory()
    except (MemoryInputError, CABackendError) as exc:
        field, _, reason = str(exc).partition(": ")
        _fail(field, reason)


def _check_text(value: str, field: str) -> str:
    if not value or not value.strip():
        _fail(field, "must not be empty")
    return value


_TIER_STYLE = {"hot": "red", "warm": "yellow", "cold": "blue"}


@memory_app.command("store")
def store(text: str = typer.Argument(..., help="The text to remember.")) -> None:
    """Evolve TEXT to its attractor and store it (with its brick)."""
    _check_text(text, "text")
    mem = _memory()
    try:
        with _out.status("evolving..."):
            entry = mem.store_entry(text)
    except OSError as exc:
        _fail("memory", f"cannot write {mem.root}: {exc.strerror or exc}")
    _out.print(f"stored {entry.id} in {entry.chunk}: {_outcome_line(entry)}", markup=False)


def _outcome_line(e) -> str:
    """The rotation retry's outcome in words: CONVERGED at an angle, or FAILED_ALL_ROTATIONS
    and the best failure kept (its CA state, ticks and angle)."""
    if e.outcome == "CONVERGED":
        return f"CONVERGED after {e.ticks} ticks at {e.angle} degrees"
    return f"{e.outcome} (kept: {e.state} after {e.ticks} ticks at {e.angle} degrees, {e.attempts} angles tried)"


def _cycle_line(view) -> str:
    if view.cycle_period is None:
        return "no cycle"
    began = "?" if view.divergence_tick is None else str(view.divergence_tick)
    return f"a cycle of {view.cycle_period} ticks began at tick {began}"


@memory_app.command("recall")
def recall(
    query: str = typer.Argument(..., help="What to look for."),
    top_k: int = typer.Option(5, "--top-k", help="How many memories to show (1 or more)."),
    boost: float = typer.Option(0.0, "--boost", help="Weight of temperature in the ranking."),
) -> None:
    """Memories whose attractors correlate best with QUERY's."""
    _check_text(query, "query")
    if top_k < 1:
        _fail("--top-k", f"must be at least 1, got {top_k}")
    mem = _memory()
    hits = mem.recall(query, top_k=top_k, temperature_boost=boost)
    if not hits:
        _out.print("no memories stored yet", markup=False)
        return
    table = Table(title=f"recall: {query}")
    table.add_column("id", no_wrap=True)
    table.add_column("text")
    table.add_column("correlation", justify="right")
    table.add_column("temperature", justify="right")
    table.add_column("tier")
    for h in hits:
        table.add_row(
            h.id,
            h.text,
            f"{h.correlation:.4f}",
            f"{h.temperature:.3f}",
            f"[{_TIER_STYLE[h.tier]}]{h.tier}[/]",
        )
    _out.print(table)


@memory_app.command("temps")
def temps() -> None:
    """Every memory's temperature, grouped by tier (hot, warm, cold)."""
    from wander.adapters.ca.temperature import TIERS

    mem = _memory()
    rows = mem.temperatures()
    if not rows:
        _out.print("no memories stored yet", markup=False)
        return
    table = Table(title="memory temperatures")
    table.add_column("tier")
    table.add_column("id", no_wrap=True)
    table.add_column("text")
    table.add_column("temperature", justify="right")
    table.add_column("hits", justify="right")
    table.add_column("last access")
    for tr in TIERS:
        group = sorted((r for r in rows if r[2] == tr), key=lambda r: -r[1])
        for i, (e, t, _) in enumerate(group):
            table.add_row(
                f"[{_TIER_STYLE[tr]}]{tr}[/]" if i == 0 else "",
                e.id,
                e.text,
                f"{t:.3f}",
                str(e.hits),
                e.last_access[:19].replace("T", " "),
            )
        if group:
            table.add_section()
    _out.print(table)


@memory_app.command("scrub")
def scrub(
    text: str = typer.Argument(..., help="The text whose evolution to draw."),
    out: Path = typer.Option(..., "--out", help="Output file: .gif animates, else PNG strip."),
    frames: Optional[int] = typer.Option(
        None, "--frames", help="Ticks to draw (default: 8 in a PNG strip, up to 120 in a GIF)."
    ),
) -> None:
    """Draw TEXT's brick (its evolution, seed to attractor) as a GIF or a PNG strip."""
    _check_text(text, "text")
    if frames is not None and frames < 1:
        _fail("--frames", f"must be at least 1, got {frames}")
    parent = out.parent if str(out.parent) else Path(".")
    if out.exists() and out.is_dir():
        _fail("--out", f"{out} is a directory")
    if not parent.is_dir():
        _fail("--out", f"folder {parent} does not exist")
    if not os.access(parent, os.W_OK):
        _fail("--out", f"folder {parent} is not writable")

    from wander.adapters.ca.brick_view import text_brick, view_of
    from wander.adapters.ca.image import brick_gif, brick_strip

    brick = text_brick(text)
    view = view_of(brick)
    if out.suffix.lower() == ".gif":
        data = brick_gif(brick, max_frames=frames or 120)
        kind = "animated GIF"
    else:
        data = brick_strip(brick, frames=frames or 8)
        kind = "PNG strip"
    try:
        out.write_bytes(data)
    except OSError as exc:
        _fail("--out", f"cannot write {out}: {exc.strerror or exc}")
    _out.print(f"wrote {kind} {out}: {_outcome_line(view)}; {_cycle_line(view)}", markup=False)


@memory_app.command("brick")
def brick(memory_id: str = typer.Argument(..., help="The memory's id (as `store` and `recall` print it).")) -> None:
    """A stored memory's brick: its outcome, ticks, rotation and, if it cycles, where the cycle began."""
    _check_text(memory_id, "id")
    from wander.adapters.ca.brick_view import view_of

    mem = _memory()
    entry = mem.get(memory_id)
    if entry is None:
        _fail("id", f"no memory {memory_id!r}")
    try:
        view = view_of(mem.brick(memory_id))
    except FileNotFoundError:
        _fail("id", f"memory {memory_id!r} has no brick (stored without one)")
    _out.print(f"{entry.id} in {entry.chunk}: {entry.text}", markup=False)
    _out.print(f"outcome: {_outcome_line(view)}", markup=False)
    _out.print(f"frames: {view.frame_count} ({view.height}x{view.width}); {_cycle_line(view)}", markup=False)
    _out.print(f"view it: /memory/{entry.id} in `wander serve`'s app", markup=False)


@memory_app.command("info")
def info() -> None:
    """Backend, counts per chunk and tier, per-angle rotation counts, memory folder."""
    mem = _memory()
    data = mem.info()
    _out.print(f"memory folder: {data['root']}", markup=False)
    _out.print(f"CA backend: {data['backend']}", markup=False)
    _out.print(f"memories: {data['count']} of {data['capacity']}", markup=False)
    t = Table(title="chunks")
    t.add_column("chunk")
    for col in ("count", "hot", "warm", "cold"):
        t.add_column(col, justify="right")
    for name, c in sorted(data["chunks"].items()):
        t.add_row(name, str(c["count"]), str(c["hot"]), str(c["warm"]), str(c["cold"]))
    tiers = data["tiers"]
    t.add_section()
    t.add_row("all", str(data["count"]), str(tiers["hot"]), str(tiers["warm"]), str(tiers["cold"]))
    _out.print(t)
    r = Table(title="rotation retry")
    r.add_column("angle", justify="right")
    r.add_column("attempts", justify="right")
    r.add_column("successes", justify="right")
    for angle, c in data["rotation"].items():
        r.add_row(angle, str(c["attempts"]), str(c["successes"]))
    _out.print(r)


__all__ = ["memory_app"]
