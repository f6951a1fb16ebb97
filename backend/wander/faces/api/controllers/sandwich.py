"""/api/v1/sandwich/...: SANDWICH foraging (004) over HTTP, the same as `wander forage`,
`wander corpus` and `wander sandwich explain`: forage (autonomous or directed), the
sandwiches, the foraging log and a run's events, the analysis queries and 8.1's metrics.

A URL `source` whose host is an internal address (private, loopback, link-local) is a 422
unless WANDER_FORAGE_ALLOW_NETWORKS allows it, and never when the server binds beyond
loopback; the forage itself runs its fetches, parsing and embedding in worker threads, so the
server keeps answering while a source is slow.

A `source` path is confined: only an absolute path under one of the foraging roots
(WANDER_FORAGE_ROOTS, else WANDER_HOME/forage), without `..`, and, for a folder, none of the
files the forager would read leading outside through a symbolic link; anything else is a 422
naming `source`. `wander forage --from` (the local user) stays unconfined."""

from __future__ import annotations

import asyncio
import re
from dataclasses import asdict
from pathlib import Path
from typing import Annotated, Any

import httpx
from litestar import Controller, get, post
from litestar.params import Parameter

from shared_schemas.sandwich_corpus import (
    CorpusQuestion,
    ForageLogEntry,
    ForageRequest,
    ForageRunOut,
    ReviewDecision,
    SandwichMetrics,
)
from wander.adapters.postgres.sandwich_repository import SandwichRepository
from wander.adapters.sources.egress import Refused
from wander.adapters.sources.files import SUFFIXES
from wander.core.domain.errors import InvalidInput, NotFound
from wander.core.domain.validation import parse_uuid
from wander.faces.api.api_settings import ApiSettings
from wander.faces.api.corpus import SandwichCorpus
from wander.faces.api.security import is_loopback

URL = re.compile(r"^[a-z][a-z0-9+.-]*://", re.IGNORECASE)


def confine_source(source: str, roots: tuple[Path, ...]) -> None:
    """Refuses (InvalidInput on `source`) a path the API must not read: not absolute, with
    `..`, outside every root once symbolic links are resolved, or a folder holding a file
    (of those the forager reads) that a symbolic link leads outside. A URL passes here."""
    target = source.strip()
    if URL.match(target):
        return
    path = Path(target)
    if ".." in path.parts:
        raise InvalidInput("source", "must not contain '..'")
    if not path.is_absolute():
        raise InvalidInput("source", "must be an absolute path under one of the foraging roots (WANDER_FORAGE_ROOTS)")
    resolved = path.resolve()
    root = next((r for r in (r.resolve() for r in roots) if resolved.is_relative_to(r)), None)
    if root is None:
        raise InvalidInput("source", "is outside the foraging roots (WANDER_FORAGE_ROOTS) the API may read")
    if resolved.is_dir():
        for p in resolved.rglob("*"):  # the files the forager would read (sources.files)
            if (
                p.suffix.lower() in SUFFIXES
                and not any(x.startswith(".") for x in p.relative_to(resolved).parts)
                and not p.resolve().is_relative_to(root)
            ):
                raise InvalidInput("source", f"'{p}' leads outside the foraging roots (WANDER_FORAGE_ROOTS)")


def refuse_internal(url: str, forager: Any) -> None:
    """A URL whose host is (or resolves to) an internal address the egress policy refuses is a
    422 on `source` before any foraging; the fetcher checks again at every hop and redirect."""
    try:
        u = httpx.URL(url)
    except (httpx.InvalidURL, ValueError) as exc:
        raise InvalidInput("source", f"is not a valid URL ({exc})") from exc
    if u.scheme not in ("http", "https") or not u.host:
        raise InvalidInput("source", "only http(s) URLs can be foraged")
    try:
        forager.reader.web.fetcher.policy.resolve(u.raw_host.decode("ascii"), u.port or 80)
    except Refused as exc:
        raise InvalidInput("source", str(exc)) from exc
    except Exception:  # noqa: BLE001 - unresolvable now: the run logs it as a source error
        return


class SandwichController(Controller):
    path = "/api/v1/sandwich"
    tags = ["sandwich"]

    @post("/forage", status_code=200, opt={"rate_limited": True})
    async def forage(self, data: ForageRequest, corpus: SandwichCorpus, api: ApiSettings) -> ForageRunOut:
        """Runs to the end (patience or max_attempts) and returns the run's summary; the run's
        events go out on the bus as it goes (GET /runs/{id}/events replays them). A `source`
        path must lie under the server's foraging roots (WANDER_FORAGE_ROOTS)."""
        beyond = not is_loopback(api.host)
        if data.source is not None:
            await asyncio.to_thread(confine_source, data.source, api.forage_roots)
        forager = await asyncio.to_thread(corpus.forager, data.seed, beyond_loopback=beyond)
        if data.source is not None and URL.match(data.source.strip()):
            await asyncio.to_thread(refuse_internal, data.source.strip(), forager)
        summary = await forager.run(
            patience=data.patience,
            source=data.source,
            topic=data.topic,
            max_attempts=data.max_attempts,
            depth=data.depth,
            pages=data.pages,
        )
        return ForageRunOut.model_validate(summary.__dict__)

    @get("/sandwiches")
    async def sandwiches(
        self, corpus: SandwichCorpus, limit: Annotated[int, Parameter(ge=1, le=500)] = 50, origin: str | None = None
    ) -> list[dict[str, Any]]:
        if origin is not None and origin not in ("forager", "crystal"):
            raise InvalidInput("origin", f"must be 'forager' or 'crystal' (got '{origin}')")
        await corpus.sync()
        return [asdict(s) for s in await corpus.repo.sandwiches(limit, origin)]

    @get("/reviews")
    async def reviews(
        self,
        sandwiches: SandwichRepository,
        status: str = "pending",
        limit: Annotated[int, Parameter(ge=1, le=500)] = 50,
    ) -> list[dict[str, Any]]:
        """The review queue: marginal sandwiches (0.5 <= V < 0.7) waiting for a person
        (`status`: pending, accepted, rejected or all), oldest first."""
        rows = await sandwiches.reviews(None if status == "all" else status, limit)
        return [asdict(r) for r in rows]

    @get("/reviews/{review_id:str}")
    async def review(self, review_id: str, sandwiches: SandwichRepository) -> dict[str, Any]:
        return asdict(await sandwiches.review(review_id))

    @post("/reviews/{review_id:str}/accept", status_code=200)
    async def accept(self, review_id: str, data: ReviewDecision, sandwiches: SandwichRepository) -> dict[str, Any]:
        """The marginal sandwich joins the corpus (sandwich_id); 409 once decided."""
        return asdict(await sandwiches.decide_review(review_id, True, data.reviewer, data.note))

    @post("/reviews/{review_id:str}/reject", status_code=200)
    async def reject(self, review_id: str, data: ReviewDecision, sandwiches: SandwichRepository) -> dict[str, Any]:
        return asdict(await sandwiches.decide_review(review_id, False, data.reviewer, data.note))

    @get("/log")
    async def log(
        self,
        sandwiches: SandwichRepository,
        run_id: str | None = None,
        limit: Annotated[int, Parameter(ge=1, le=1000)] = 100,
    ) -> list[ForageLogEntry]:
        if run_id is not None and parse_uuid(run_id) is None:
            raise InvalidInput("run_id", "must be a UUID")
        rows = await sandwiches.log(run_id, limit)
        return [ForageLogEntry.model_validate(r, from_attributes=True) for r in rows]

    @get("/runs/{run_id:str}")
    async def run(self, run_id: str, sandwiches: SandwichRepository) -> dict[str, Any]:
        found = await sandwiches.run(run_id) if parse_uuid(run_id) else None
        if found is None:
            raise NotFound("run", run_id)
        return asdict(found)

    @get("/runs/{run_id:str}/events")
    async def events(
        self, run_id: str, sandwiches: SandwichRepository, after_seq: Annotated[int, Parameter(ge=0)] = 0
    ) -> list[dict[str, Any]]:
        if parse_uuid(run_id) is None or await sandwiches.run(run_id) is None:
            raise NotFound("run", run_id)
        return [
            {"run_id": e.session_id, "seq": e.seq, "subject": e.subject, "ts": e.ts.isoformat(), "payload": e.payload}
            for e in await sandwiches.events_after(run_id, after_seq)
        ]

    @get("/metrics")
    async def metrics(self, corpus: SandwichCorpus) -> SandwichMetrics:
        """004 8.1's metrics with their targets, and the analysis queries (the dashboard's data)."""
        return SandwichMetrics.model_validate(await corpus.report(), from_attributes=True)

    @post("/ask", status_code=200)
    async def ask(self, data: CorpusQuestion, corpus: SandwichCorpus) -> dict[str, Any]:
        """Reflective mode, as `wander corpus ask`: {question, query (the analysis query it was
        routed to), answer (that query's rows)}."""
        return await corpus.ask(data.question)

    @get("/explain")
    async def explain(self, corpus: SandwichCorpus) -> dict[str, Any]:
        """Pedagogical mode, as `wander sandwich explain`."""
        return await corpus.explain()
