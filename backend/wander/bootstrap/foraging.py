"""Composition of SANDWICH foraging (like wiring.py for the wander engine): the forager over
the app's knowledge, embedder, bus and the sandwich repository; and the wanders' crystals
stored as sandwiches of the same corpus (a bus subscriber, and a catch-up for crystals formed
before it ran)."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import asdict
from typing import Any

import numpy as np

from shared_schemas.events import Subject
from wander.adapters.postgres.sandwich_corpus_queries import RESEARCH
from wander.adapters.postgres.sandwich_repository import SandwichRepository
from wander.adapters.sources import build_router, shared_fetcher
from wander.adapters.sources.egress import EgressPolicy
from wander.bootstrap.knowledge import learn_foraged
from wander.bootstrap.settings import ForageSettings
from wander.core.domain.errors import InvalidInput
from wander.core.domain.models import Event
from wander.core.domain.sandwich import ACCEPT, REVIEW, TAXONOMY, WEIGHTS
from wander.core.sandwich.analysis import metrics, route_with_args
from wander.core.sandwich.assembler import Assembler
from wander.core.sandwich.crystals import crystal_sandwich
from wander.core.sandwich.forager import Forager

log = logging.getLogger(__name__)
CRYSTAL_FORMED = str(Subject.CRYSTAL_FORMED)
_PROTOTYPES: dict[str, Any] = {}


def prototypes(embedder: Any) -> dict[str, Any]:
    if not _PROTOTYPES:
        names = list(TAXONOMY)
        _PROTOTYPES.update(zip(names, embedder.embed([f"{n}: {TAXONOMY[n]}" for n in names])))
    return _PROTOTYPES


def make_forager(
    app: Any, seed: int | None = None, *, beyond_loopback: bool = False, policy: EgressPolicy | None = None
) -> Forager:
    """The forager over the app's parts, its sources under the egress policy of the settings
    (WANDER_FORAGE_*): `beyond_loopback` (a server bound beyond loopback) never reaches an
    internal address whatever is allowed; `policy` replaces the settings' (tests)."""
    kb = app.knowledge
    settings = getattr(getattr(app, "settings", None), "forage", None) or ForageSettings()
    policy = policy or EgressPolicy.from_settings(settings.allow_networks, beyond_loopback=beyond_loopback)
    rng = np.random.default_rng(None if seed is None else seed + 1)

    def are_opposites(a: int, b: int) -> bool:
        return a >= 0 and b >= 0 and b in kb.opposites(a)

    def random_word() -> str:
        return kb.concept(int(rng.integers(len(kb)))).label

    return Forager(
        knowledge=kb,
        embedder=app.embedder,
        store=app.sandwiches,
        bus=app.bus,
        reader=build_router(settings, shared_fetcher(settings, policy), rng, random_word),
        assembler=Assembler(prototypes(app.embedder), are_opposites),
        seed=seed,
        online=settings.sources,
        wander_depth=settings.wander_depth,
        wander_pages=settings.wander_pages,
        voice=settings.voice,
        # pages and files foraged join the knowledge base (an app with its kb repository)
        learn=(lambda c, v: learn_foraged(app, c, v))
        if getattr(app, "kb", None) and getattr(app, "engine", None)
        else None,
    )


async def sync_crystals(repo: SandwichRepository, embedder: Any) -> int:
    """Store every crystal (not invalidated) that is not yet a sandwich; how many were stored."""
    rows = await repo.unstored_crystals()
    if not rows:
        return 0
    texts = [str((r.validity or {}).get("filling") or r.insight[:80]) for r in rows]
    fillings = await asyncio.to_thread(embedder.embed, texts)  # off the event loop
    stored = 0
    for row, vector in zip(rows, fillings):
        if await repo.store_crystal(row.id, crystal_sandwich(row, vector)):
            stored += 1
    return stored


def attach_crystal_sandwiches(bus: Any, repo: SandwichRepository, embedder: Any) -> None:
    async def on_event(event: Event) -> None:
        if event.subject == CRYSTAL_FORMED:
            await sync_crystals(repo, embedder)

    subscribe = getattr(bus, "subscribe", None)
    if subscribe is not None:
        subscribe(on_event)


async def corpus_report(app: Any) -> dict[str, Any]:
    """8.1's metrics and counts (plain dicts), the outcome counts and the analysis queries'
    rows (read models): SandwichMetrics's fields."""
    repo = app.sandwiches
    await sync_crystals(repo, app.embedder)
    return {
        **metrics(await repo.metric_inputs()),
        "type_distribution": await repo.type_distribution(),
        "ingredient_frequency": await repo.ingredient_frequency(),
        "validity_over_time": await repo.validity_over_time(),
        "foraging_efficiency": await repo.foraging_efficiency(),
        "outcomes": await repo.outcome_counts(),
        "cross_domain_breads": await repo.cross_domain_breads(),
    }


async def ask_corpus(app: Any, question: str) -> dict[str, Any]:
    """Reflective mode (`wander corpus ask`, POST /api/v1/sandwich/ask): the question routed to
    one of 004's analysis queries (or a vector search over the sandwiches when none fits),
    and that query's rows as the answer."""
    question = (question or "").strip()
    if not question:
        raise InvalidInput("question", "must not be empty")
    query, args = route_with_args(question)
    repo = app.sandwiches
    if query in RESEARCH or query in ("structural_types", "related", "by_bread"):
        await sync_crystals(repo, app.embedder)
        if query in RESEARCH:
            return {"question": question, **await repo.research(query)}
        if query == "structural_types":
            return {"question": question, "query": query, "answer": await repo.structural_types()}
        if query == "related":
            rows = await repo.related(args["sandwich_id"], args.get("relation_type"))
            return {"question": question, "query": query, "args": args, "answer": rows}
        return {"question": question, "query": query, "args": args, "answer": await repo.by_bread(args["concept"])}
    if query == "similar":
        await sync_crystals(app.sandwiches, app.embedder)
        vector = (await asyncio.to_thread(app.embedder.embed, [question]))[0]
        answer: Any = await app.sandwiches.similar(vector, 5)
    else:
        report = await corpus_report(app)
        answer = report[query]
    # The answer is a JSON document for both faces: rows as plain dicts (metrics already are).
    if isinstance(answer, list):
        answer = [asdict(r) for r in answer]
    return {"question": question, "query": query, "answer": answer}


async def explanation(app: Any) -> dict[str, Any]:
    """Pedagogical mode (`wander sandwich explain`, GET /api/v1/sandwich/explain): the
    definition, the validity function and the 10 types with the corpus's best example of each."""
    await sync_crystals(app.sandwiches, app.embedder)
    examples = await app.sandwiches.best_per_type()
    return {
        "definition": "Two pieces of bread bounding a filling: the breads related but not the same idea, "
        "the filling closer to each bread than they are to each other.",
        "weights": WEIGHTS,
        "accept": ACCEPT,
        "review": REVIEW,
        "types": [
            {"name": n, "description": d, "example": asdict(examples[n]) if n in examples else None}
            for n, d in TAXONOMY.items()
        ],
    }
