"""`wander propose | proposals | approve | reject | execute | wallet`: the economic action
layer from the terminal (the human gate included). Registered by wander.faces.cli."""

from __future__ import annotations

import getpass
import hmac
import json
from dataclasses import asdict
from pathlib import Path

import typer
from rich.table import Table

from wander.bootstrap.settings import load_section
from wander.core.domain.errors import Refused
from wander.faces.cli.common import console, quiet_libraries, run_async
from wander.faces.wire import proposal_out


def _service():
    """The action service over the database alone (no model, no knowledge index)."""
    from wander.bootstrap.standalone import open_actions  # imported late: `wander --help` stays quick

    quiet_libraries()
    return open_actions()


def _money(cents) -> str:
    return "-" if cents is None else f"{cents / 100:,.2f}"


def _print(p, as_json: bool) -> None:
    if as_json:
        console.print_json(proposal_out(p).model_dump_json())
        return
    e = p.evaluation
    console.print(
        f"[bold]proposal[/] {p.id}  [{'green' if p.status == 'executed' else 'yellow'}]{p.status}[/]  "
        f"crystal {p.crystal_id}",
        highlight=False,
    )
    console.print(f"  {e['action']}", highlight=False)
    console.print(
        f"  EV {_money(e['expected_value_cents'])}  cost {_money(e['cost_cents'])}  worst-case loss "
        f"{_money(e['worst_case_loss_cents'])}  risk {e['risk']}  tractability {e['tractability']}  "
        f"({e['recommendation']})",
        highlight=False,
    )
    console.print(f"  image sha256 {p.image_sha256}", highlight=False)
    if p.decision:
        d = p.decision
        console.print(
            f"  {d.decision} by {d.reviewer} at {d.decided_at:%Y-%m-%d %H:%M:%S} via {d.via}"
            f"{' (token)' if d.token_verified else ''}",
            highlight=False,
        )
    if p.execution:
        console.print(
            f"  executed: ledger #{p.execution['ledger_id']}, balance after "
            f"{_money(p.execution['balance_after_cents'])}",
            highlight=False,
        )


def propose(
    crystal_id: str = typer.Argument(..., help="An accepted crystal (see `wander show`)."),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Evaluate an accepted crystal into an action proposal, encoded as a fractal image."""

    async def main():
        async with _service() as s:
            return await s.propose(crystal_id)

    _print(run_async(main), as_json)


def proposals(
    status: str | None = typer.Option(None, help="pending, approved, rejected or executed."),
    images: Path | None = typer.Option(None, help="Write each proposal's image to this folder."),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """The review queue: proposals with their evaluation and image sha256."""

    async def main():
        async with _service() as s:
            found = await s.repo.find(status)
            if images is not None:
                images.mkdir(parents=True, exist_ok=True)
                for p in found:
                    (images / f"{p.id}.png").write_bytes(await s.repo.image(p.id))
            return found

    found = run_async(main)
    if as_json:
        console.print_json(json.dumps([proposal_out(p).model_dump(mode="json") for p in found]))
        return
    table = Table("id", "status", "EV", "cost", "action", "image sha256")
    for p in found:
        e = p.evaluation
        table.add_row(
            p.id,
            p.status,
            _money(e["expected_value_cents"]),
            _money(e["cost_cents"]),
            e["action"][:60],
            p.image_sha256[:16],
        )
    console.print(table)


def _decide(decision: str, proposal_id: str, sha: str, reviewer: str | None, token: str | None, note, as_json):
    configured = load_section("api").token
    verified = bool(configured and token and hmac.compare_digest(token.encode(), configured.encode()))
    if configured and not verified:
        raise typer.BadParameter("a decision needs --token equal to WANDER_API_TOKEN", param_hint="--token")

    async def main():
        async with _service() as s:
            return await s.decide(
                proposal_id,
                decision,
                reviewer or getpass.getuser(),
                sha,
                token_verified=verified,
                via="cli",
                note=note,
            )

    _print(run_async(main), as_json)


def approve(
    proposal_id: str = typer.Argument(...),
    image_sha256: str = typer.Option(..., "--image-sha256", help="sha256 of the image you reviewed."),
    reviewer: str | None = typer.Option(None, help="Who approves (default: your login)."),
    token: str | None = typer.Option(None, help="The API token, when WANDER_API_TOKEN is set."),
    note: str | None = typer.Option(None),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Approve a proposal (bound to the image you reviewed)."""
    _decide("approved", proposal_id, image_sha256, reviewer, token, note, as_json)


def reject(
    proposal_id: str = typer.Argument(...),
    image_sha256: str = typer.Option(..., "--image-sha256", help="sha256 of the image you reviewed."),
    reviewer: str | None = typer.Option(None, help="Who rejects (default: your login)."),
    token: str | None = typer.Option(None, help="The API token, when WANDER_API_TOKEN is set."),
    note: str | None = typer.Option(None),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Reject a proposal."""
    _decide("rejected", proposal_id, image_sha256, reviewer, token, note, as_json)


def execute(proposal_id: str = typer.Argument(...), as_json: bool = typer.Option(False, "--json")) -> None:
    """Execute an approved proposal on the paper wallet (refused without approval or past a limit)."""

    async def main():
        async with _service() as s:
            try:
                return await s.execute(proposal_id)
            except Refused as exc:
                raise Refused(f"refused: {exc.reason}", exc.status) from exc

    _print(run_async(main), as_json)


def wallet(as_json: bool = typer.Option(False, "--json")) -> None:
    """The paper wallet: balance, breaker, positions and ledger."""

    async def main():
        async with _service() as s:
            return await s.wallet.state(s.limits)

    state = run_async(main)
    if as_json:
        console.print_json(json.dumps(asdict(state), default=str))
        return
    console.print(
        f"[bold]paper wallet[/] balance {_money(state.balance_cents)}"
        + (f"  [red]breaker: {state.breaker}[/]" if state.breaker else ""),
        highlight=False,
    )
    for row in state.ledger:
        console.print(
            f"  #{row.id} {row.created_at[:19]} {row.kind} {row.asset[:40]} "
            f"{_money(row.amount_cents)} -> {_money(row.balance_after_cents)} "
            f"(proposal {row.proposal_id[:8]}, decision {row.decision_id[:8]})",
            highlight=False,
        )


def register(app: typer.Typer) -> None:
    for command in (propose, proposals, approve, reject, execute, wallet):
        app.command()(command)
