"""`wander sessions`, `wander show`, `wander children`: read what wanders there are and
what one found (the path, every residue, resonances and crystals as sandwiches)."""

from __future__ import annotations

import json
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from wander.core.domain.errors import InvalidInput
from wander.core.domain.models import Crystal, Locus, Resonance, ResonanceStatus, SessionStatus
from wander.faces.cli.common import console, fail, open_queries, quiet_libraries, run_async


def print_resonances(console: Console, resonances: list[Resonance]) -> None:
    confirmed = [r for r in resonances if r.status == ResonanceStatus.CONFIRMED]
    console.rule(f"[bold]resonances[/]: {len(confirmed)} confirmed of {len(resonances)}")
    for r in sorted(confirmed, key=lambda r: -r.strength)[:12]:
        console.print(
            f"  [magenta]{', '.join(r.themes[:5])}[/]  occurrences {r.occurrences}, strength {r.strength:.2f}",
            highlight=False,
        )


def print_crystals(console: Console, crystals: list[Crystal], loci: dict[str, Locus]) -> None:
    console.rule(f"[bold]crystals[/]: {len(crystals)}")
    for c in crystals:
        v = c.validity
        b1 = loci.get(c.bread_a_locus_id or "")
        b2 = loci.get(c.bread_b_locus_id or "")
        verdict = v.get("verdict", "?")
        colour = {"accepted": "green", "review": "yellow", "rejected": "red"}.get(verdict, "white")
        console.print(
            f"\n[bold {colour}]◆ {c.structural_type or '?'} sandwich[/]  V = {v.get('V', 0):.3f} ({verdict})"
            f"  trigger: {v.get('trigger', '?')}",
            highlight=False,
        )
        console.print(f"    [dim]bread[/]    {b1.concept if b1 else '?'}", highlight=False)
        console.print(f"    [dim]filling[/]  {v.get('filling', '?')}: {c.insight}", highlight=False)
        console.print(f"    [dim]bread[/]    {b2.concept if b2 else '?'}", highlight=False)
        console.print(
            f"    V = 0.25 x {v.get('bread_compat', 0):.2f} (bread compat) + 0.35 x {v.get('containment', 0):.2f} "
            f"(containment) + 0.20 x {v.get('non_triviality', 0):.2f} (non-triviality) + 0.20 x "
            f"{v.get('novelty', 0):.2f} (novelty)",
            highlight=False,
        )
        if v.get("reasons"):
            console.print(f"    [red]{'; '.join(v['reasons'])}[/]", highlight=False)
        console.print(f"    rumination, {len(c.rumination)} steps:", highlight=False)
        for s in c.rumination:
            guard = f"  [yellow]{s['guard']}[/]" if s.get("guard") else ""
            rejected = f"  [red]rejected: {s['rejected']}[/]" if s.get("rejected") else ""
            console.print(
                f"      {s['step']:>2}. [{s['signal']}] {s['lens']:<12} gap {s['gap_before']:.2f} -> "
                f"{s['gap_after']:.2f}  {s['finding'][:110]}{guard}{rejected}",
                highlight=False,
            )


def sessions(
    status: Optional[str] = typer.Option(None, help="active, paused, completed or abandoned."),
    as_json: bool = typer.Option(False, "--json", help="Print the list as JSON."),
) -> None:
    """List wanders, newest first."""
    quiet_libraries()
    from wander.core.engine.queries import check_status

    try:  # before the database starts
        check_status("status", status, SessionStatus)
    except InvalidInput as exc:
        fail(f"{exc.field}: {exc.reason}")

    async def main():
        async with open_queries() as queries:
            rows, _ = await queries.sessions(status=status, limit=200)
            return rows

    rows = run_async(main)
    if as_json:
        console.print_json(
            json.dumps(
                [
                    {
                        "id": s.id,
                        "name": s.name,
                        "status": str(s.status),
                        "step_count": s.step_count,
                        "max_steps": s.max_steps,
                    }
                    for s in rows
                ]
            )
        )
        return
    table = Table("id", "name", "status", "steps", "created")
    for s in rows:
        table.add_row(
            s.id,
            s.name[:40],
            str(s.status),
            f"{s.step_count}/{s.max_steps}",
            s.created_at.strftime("%Y-%m-%d %H:%M") if s.created_at else "",
        )
    console.print(table if rows else 'no wanders yet: try `wander run "information asymmetry"`')


def show(session_id: str = typer.Argument(..., help="The wander to show.")) -> None:
    """The path and the residue of every step, readable."""
    quiet_libraries()

    async def main():
        async with open_queries() as q:
            session = await q.session(session_id)
            found = (
                await q.resonances(session_id=session_id),
                await q.crystals(session_id=session_id),
                {lo.id: lo for lo in await q.loci(session_id)},
            )
            return session, await q.trace(session_id), found

    session, steps, (resonances, crystals, loci) = run_async(main)
    console.rule(f"[bold]{session.name}")
    console.print(f"seed: {session.seed_concept}    attractor: {session.attractor or '-'}")
    console.print(
        f"status: {session.status}"
        + (f" ({session.stopped_reason})" if session.stopped_reason else "")
        + f"    steps: {session.step_count}/{session.max_steps}    temperature: {session.temperature}"
        + f"    random seed: {session.random_seed}"
    )
    for s in steps:
        sc = s.selection_scores
        console.print(
            f"\n[bold cyan]{s.step_number:>3}[/] {s.from_concept} [dim]->[/] [bold]{s.to_concept}[/]"
            f"  [dim]({', '.join(s.to_domains)}; distance {sc.get('distance', 0):.2f}, "
            f"score {sc.get('composite', 0):.2f}, p {sc.get('probability', 0):.2f})[/]",
            highlight=False,
        )
        for facet, text in s.facets().items():
            console.print(f"    [green]{facet:<11}[/] {text}", highlight=False)
        console.print(f"    [green]{'themes':<11}[/] {', '.join(s.themes)}", highlight=False)
    print_resonances(console, resonances)
    print_crystals(console, crystals, loci)


def children(session_id: str = typer.Argument(..., help="The parent wander.")) -> None:
    """The sub-wanders spawned from a wander."""
    quiet_libraries()

    async def main():
        async with open_queries() as queries:
            return await queries.children(session_id)

    rows = run_async(main)
    table = Table("id", "seed", "status", "steps")
    for s in rows:
        table.add_row(s.id, s.seed_concept[:40], str(s.status), f"{s.step_count}/{s.max_steps}")
    console.print(table if rows else f"no sub-wanders of {session_id} yet")
