"""`wander run`, `wander resume`, `wander spawn`: start or continue a wander and walk it,
with a progress bar, then print its summary."""

from __future__ import annotations

import json
from typing import Any, Optional

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from wander.core.domain.errors import InvalidInput
from wander.core.domain.geometry import BAND_HIGH, BAND_LOW
from wander.core.domain.validation import check_random_seed, check_steps, check_temperature, clean_text
from wander.faces.cli.common import DWELLER_HELP, console, err, fail, open_app, quiet_libraries, run_async


def _dweller(name: str | None) -> str:
    """NAME, else WANDER_DWELLER, checked before the database starts (InvalidInput)."""
    from wander.bootstrap.llm_factory import check_dweller  # imported late: `wander --help` stays quick
    from wander.bootstrap.settings import load_settings

    return check_dweller(name, load_settings().models)


def _print_fallback_notice(app_) -> None:
    from wander.faces.cli.doctor import fallback_notice

    notice = fallback_notice(app_.engine)
    if notice:
        err.print(f"[bold yellow]note:[/] {notice}", highlight=False)


async def _run_steps(app_, session_id: str, total: int, done_before: int, as_json: bool) -> Any:
    bar = Progress(
        TextColumn("[bold]step[/] {task.completed}/{task.total}"),
        BarColumn(),
        TextColumn("{task.description}"),
        TimeElapsedColumn(),
        console=err,
        disable=False,
    )
    with bar:
        task = bar.add_task("", total=total, completed=done_before)

        def on_step(result) -> None:
            bar.update(
                task,
                completed=result.step_number,
                description=f"{result.from_locus.concept[:28]} -> {result.to_locus.concept[:28]}",
            )

        return await app_.engine.run(session_id, on_step=on_step)


async def _summary(app_, session_id: str, outcome: Any) -> dict[str, Any]:
    """The wander after the run, led by 000's answer to a run: steps completed, crystals
    formed, and why it stopped (null while it is still active)."""
    session = await app_.queries.session(session_id)
    steps = await app_.queries.trace(session_id)
    distances = [s.selection_scores.get("distance") for s in steps if s.selection_scores]
    in_band = sum(1 for d in distances if d is not None and BAND_LOW <= d <= BAND_HIGH)
    return {
        "session_id": session_id,
        "steps_completed": outcome.steps_completed,
        "crystals_formed": outcome.crystals_formed,
        "stopped_reason": outcome.stopped_reason,
        "status": str(session.status),
        "steps": len(steps),
        "in_band": in_band,
        "in_band_share": round(in_band / len(steps), 4) if steps else None,
        "path": [session.seed_concept] + [s.to_concept for s in steps],
        "residues": [
            {"step": s.step_number, "from": s.from_concept, "to": s.to_concept, **s.facets(), "themes": s.themes}
            for s in steps
        ],
    }


def _print_summary(summary: dict[str, Any], as_json: bool) -> None:
    if as_json:
        console.print_json(json.dumps(summary, default=str))
        return
    share = summary["in_band_share"]
    console.print(
        f"[bold]wander[/] {summary['session_id']}  status {summary['status']}"
        + (f" ({summary['stopped_reason']})" if summary["stopped_reason"] else "")
    )
    console.print(
        f"this run: {summary['steps_completed']} steps, {summary['crystals_formed']} crystal"
        + ("" if summary["crystals_formed"] == 1 else "s")
    )
    console.print(" -> ".join(summary["path"][:12]) + (" -> ..." if len(summary["path"]) > 12 else ""))
    if share is not None:
        console.print(
            f"steps in the {BAND_LOW}-{BAND_HIGH} band: {summary['in_band']}/{summary['steps']} ({share:.0%})"
        )
    console.print(f"see it whole: wander show {summary['session_id']}")


def run(
    seed: Optional[str] = typer.Argument(None, help="The seed concept the wander starts from."),
    attractor: Optional[str] = typer.Option(None, help="A vague sense of what we are looking for."),
    steps: Optional[int] = typer.Option(None, help="Steps to take (1..10000; default 50, or the preset's)."),
    preset: Optional[str] = typer.Option(None, help="A ready-made wander: meta-wander (001's first use case)."),
    checkpoint_every: int = typer.Option(0, help="Pause for a human checkpoint every N steps (0: never)."),
    require_approval: bool = typer.Option(
        False, "--require-approval", help="Hold every crystal for a person's verdict (none stands on the gate alone)."
    ),
    temperature: float = typer.Option(0.7, help="Softmax temperature (> 0; higher wanders more)."),
    random_seed: int = typer.Option(0, "--seed", help="Random seed: same seed, same path."),
    domains: Optional[list[str]] = typer.Option(None, "--domains", help="Allowed domain (repeatable)."),
    forbid: Optional[list[str]] = typer.Option(None, "--forbid", help="Forbidden domain (repeatable)."),
    name: Optional[str] = typer.Option(None, help="A name for the wander."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    dweller: Optional[str] = typer.Option(None, "--dweller", help=DWELLER_HELP),
) -> None:
    """Start a wander from SEED and walk it to the end."""
    quiet_libraries()
    from wander.core.engine.presets import PRESETS

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
        builder = _dweller(dweller)
    except InvalidInput as exc:
        fail(f"{exc.field}: {exc.reason}")

    from wander.core.engine.service import NewWander

    async def main():
        async with open_app(builder) as a:
            session = await a.engine.create(
                NewWander(
                    seed_concept=seed,
                    attractor=attractor,
                    name=name,
                    allowed_domains=domains or [],
                    forbidden_domains=forbid or [],
                    max_steps=steps,
                    temperature=temperature,
                    random_seed=random_seed,
                    human_checkpoint_frequency=checkpoint_every,
                    require_crystal_approval=require_approval,
                    other_seeds=others,
                )
            )
            err.print(f"wander {session.id} started", highlight=False)
            outcome = await _run_steps(a, session.id, steps, 0, as_json)
            _print_fallback_notice(a)
            return await _summary(a, session.id, outcome)

    _print_summary(run_async(main), as_json)


def resume(
    session_id: str = typer.Argument(..., help="The wander to continue."),
    as_json: bool = typer.Option(False, "--json"),
    dweller: Optional[str] = typer.Option(None, "--dweller", help=DWELLER_HELP),
) -> None:
    """Continue a paused or interrupted wander from its last committed step."""
    quiet_libraries()
    try:
        builder = _dweller(dweller)
    except InvalidInput as exc:
        fail(f"{exc.field}: {exc.reason}")

    async def main():
        async with open_app(builder) as a:
            session = await a.engine.resume(session_id)
            outcome = await _run_steps(a, session_id, session.max_steps, session.step_count, as_json)
            _print_fallback_notice(a)
            return await _summary(a, session_id, outcome)

    _print_summary(run_async(main), as_json)


def spawn(
    session_id: str = typer.Argument(..., help="The parent wander."),
    locus_id: str = typer.Argument(..., help="The locus to go deeper from (see `wander show`)."),
    steps: int = typer.Option(50, help="Steps for the sub-wander."),
    budget_share: float = typer.Option(0.25, help="Share of the parent's remaining cloud budget (0..1)."),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Go deeper: a sub-wander seeded at a locus of a wander, inheriting its fences and domains."""
    quiet_libraries()
    try:
        check_steps("steps", steps)
    except InvalidInput as exc:
        fail(f"{exc.field}: {exc.reason}")

    async def main():
        from wander.core.engine.service import Interventions

        async with open_app() as a:
            child = await Interventions(a.engine).spawn(session_id, locus_id, steps, budget_share)
            err.print(f"sub-wander {child.id} of {session_id} started at '{child.seed_concept}'", highlight=False)
            outcome = await _run_steps(a, child.id, steps, 0, as_json)
            return await _summary(a, child.id, outcome)

    _print_summary(run_async(main), as_json)
