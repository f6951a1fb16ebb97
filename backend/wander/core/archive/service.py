"""The archivist: archives finished wanders and keeps their projections fitted, in
background tasks off the wander's hot path (never inside a step).

- wander.session.completed (also a stop or a breaker): archive it (idempotent by
  fingerprint; a wander resumed and finished again is archived again).
- wander.session.paused, and every `refit_every` steps: refit the projection; between
  refits new loci are placed by Fit.transform when the projection is read.
- a refit stores the fit and appends wander.projection.updated to the wander's events.

`repo` is an ArchiveStore and `projectors` the Projectors (wander.core.archive.ports; the
composition root hands in the Postgres and projection adapters); `bus` an EventBus;
`embedder` (optional) embeds archive searches, in a thread.

The faces call it for everything about archives (the API's archive controller only
translates): the stored archive, its artefacts (archived first when there is none yet),
the JSON export with its "final" rule, and the archive list with semantic search."""

from __future__ import annotations

import asyncio
import logging
import threading
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import numpy as np

from shared_schemas.events import ProjectionUpdatedPayload, payload_json
from wander.core.archive import fit as proj
from wander.core.archive.build import ARCHIVED_STATUSES, PROJECTION_SUBJECT, Artefacts, build, document, fingerprint
from wander.core.archive.plot import SIZE, SIZES, render_png
from wander.core.archive.ports import ArchiveStore, Projectors
from wander.core.domain.errors import Conflict, InvalidInput, NotFound
from wander.core.domain.models import SessionStatus
from wander.core.engine.ports import Embedder, EventBus

log = logging.getLogger(__name__)
REFIT_EVERY = 25  # the default of WANDER_PROJECTION_REFIT_EVERY (the API passes the setting)


class Archivist:
    def __init__(
        self,
        repo: ArchiveStore,
        bus: EventBus,
        *,
        projectors: Projectors | None = None,
        refit_every: int = REFIT_EVERY,
        embedder: Embedder | None = None,
    ):
        self.repo = repo
        self.bus = bus
        self.embedder = embedder
        self.refit_every = refit_every
        self.projectors = projectors
        self._tasks: dict[str, asyncio.Task[Any]] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._steps: dict[str, int] = {}
        self._joint: dict[tuple[str, ...], tuple[int, dict[str, Any]]] = {}
        self._unsubscribe: Callable[[], None] | None = None

    # ---- archives ------------------------------------------------------------------------

    async def archive(self, session_id: str, force: bool = False, running: bool = False) -> tuple[Any, bool]:
        """(archive row, whether it was written now). A running wander is not final: 409."""
        if running:
            raise Conflict(f"session {session_id} is running; pause or stop it before archiving it as final")
        async with self._lock(f"archive:{session_id}"):
            rows = await self.rows(session_id)
            if rows["session"]["status"] == SessionStatus.ACTIVE:
                raise Conflict(f"session {session_id} is active; pause or stop it before archiving it as final")
            existing = await self.repo.archive(session_id)
            if existing is not None and not force and existing.fingerprint == fingerprint(rows):
                return existing, False
            points, fit_id = await self._points(session_id, rows)
            art: Artefacts = await asyncio.to_thread(build, rows, points, fit_id)
            await self.repo.save_archive(
                session_id,
                dict(
                    fingerprint=art.fingerprint,
                    status=art.status,
                    step_count=art.step_count,
                    loci_count=art.loci_count,
                    crystal_count=art.crystal_count,
                    markdown=art.markdown,
                    png=art.png,
                    embedding=art.embedding,
                    fit_id=art.fit_id,
                ),
            )
            return await self.repo.archive(session_id), True

    async def stored(self, session_id: str) -> Any:
        """The stored archive row; NotFound names the archive when the session exists."""
        found = await self.repo.archive(session_id) if _is_uuid(session_id) else None
        if found is None:
            if _is_uuid(session_id) and await self.repo.session_exists(session_id):
                raise NotFound("archive", session_id)
            raise NotFound("session", session_id)
        return found

    async def artefact(self, session_id: str, kind: str) -> Any:
        """The archive's "markdown" or "png", archived now if there is no archive yet (409
        while the wander is active); a stored one is served as it is (the archivist rewrites
        it whenever the wander finishes again)."""
        if not _is_uuid(session_id) or await self.repo.archive(session_id) is None:
            await self.archive(session_id)
        return await self.repo.archive_blob(session_id, kind)

    async def png(self, session_id: str, size: int = SIZE) -> bytes:
        """The plot at one of 000's sizes: the stored one (1024), or drawn now from the
        archived wander's rows and stored projection (512, or an archive stored at an older size)."""
        if size not in SIZES:
            raise InvalidInput("size", f"must be one of {', '.join(str(s) for s in SIZES)} (got {size})")
        stored = bytes(await self.artefact(session_id, "png"))
        if int.from_bytes(stored[16:20], "big") == size:  # the PNG header's width
            return stored
        rows = await self.rows(session_id)
        points, _ = await self._points(session_id, rows)
        return await asyncio.to_thread(render_png, rows, points, size)

    async def export(self, session_id: str, final: bool = True, running: bool = False) -> dict[str, Any]:
        """The JSON archive document. final: refused (409) while the wander may still change;
        final=False gives a snapshot of a live one."""
        rows = await self.rows(session_id)
        status = rows["session"]["status"]
        if final and (status == SessionStatus.ACTIVE or running):
            raise Conflict(
                f"session {session_id} is {status} and may still change; stop or pause it to export it "
                "as final, or ask for ?final=false for a snapshot"
            )
        return await asyncio.to_thread(document, rows, final)

    async def search(
        self,
        q: str | None = None,
        status: str | None = None,
        has_crystals: bool | None = None,
        since: Any = None,
        limit: int = 50,
    ) -> list[Any]:
        """Archives, nearest `q` first when given (embedded in a thread: the embedder is
        synchronous), else newest first; `status` one of ARCHIVED_STATUSES."""
        if status is not None and status not in ARCHIVED_STATUSES:
            names = ", ".join(str(s) for s in ARCHIVED_STATUSES)
            raise InvalidInput("status", f"must be one of {names} (got '{status}')")
        vector = None
        if q is not None and q.strip():
            if self.embedder is None:
                raise InvalidInput("q", "semantic search is not available here (no embedder)")
            vector = (await asyncio.to_thread(self.embedder.embed, [q.strip()[:500]]))[0]
        return await self.repo.list_archives(
            vector=vector, status=status, has_crystals=has_crystals, since=since, limit=limit
        )

    async def rows(self, session_id: str) -> dict[str, Any]:
        rows = await self.repo.dump(session_id) if _is_uuid(session_id) else None
        if rows is None:
            raise NotFound("session", session_id)
        return rows

    async def _points(self, session_id: str, rows: dict[str, Any]) -> tuple[dict[str, list[float]], str]:
        stored = rows["projection"][0] if rows.get("projection") else None
        if stored is None or {lo["id"] for lo in rows["loci"]} - set(stored["points"]):
            fit = await self.refit(session_id)
            return fit.points(), fit.fit_id
        return stored["points"], stored["fit_id"]

    # ---- projections ---------------------------------------------------------------------

    async def refit(self, session_id: str) -> proj.Fit:
        async with self._lock(f"fit:{session_id}"):
            ids, _, vectors = await self.repo.loci_vectors([session_id])
            fit = await asyncio.to_thread(self._fit, ids, vectors)
            payload = payload_json(
                ProjectionUpdatedPayload(session_id=session_id, fit_id=fit.fit_id, method=fit.method, n_loci=len(ids))
            )  # type: ignore[arg-type]
            events = await self.repo.save_projection(
                session_id, fit.fit_id, fit.method, fit.points(), PROJECTION_SUBJECT, payload
            )
            self._steps[session_id] = 0
            await self.bus.publish(events)
            return fit

    def _fit(self, ids: list[str], vectors: np.ndarray) -> proj.Fit:
        if self.projectors is None:
            raise RuntimeError("this archivist was built without projectors: it reads archives but cannot fit")
        return proj.fit(ids, vectors, 0, projector=self.projectors.for_points(len(ids)))

    async def projection(self, session_id: str) -> dict[str, Any]:
        """x, y per locus: fitted ones from the stored fit, newer ones transformed."""
        await self._rows_exist(session_id)
        stored = await self.repo.projection(session_id)
        ids, _, vectors = await self.repo.loci_vectors([session_id])
        if stored is None:
            fit = await self.refit(session_id)
            return _out(session_id, fit.fit_id, fit.method, [(i, p[0], p[1], True) for i, p in fit.points().items()])
        pts = stored.points
        fitted = [k for k, i in enumerate(ids) if i in pts]
        fresh = [k for k, i in enumerate(ids) if i not in pts]
        items = [(ids[k], pts[ids[k]][0], pts[ids[k]][1], True) for k in fitted]
        if fresh:
            f = proj.Fit(
                stored.fit_id,
                stored.method,
                [ids[k] for k in fitted],
                np.asarray([pts[ids[k]] for k in fitted], dtype=np.float64).reshape(-1, 2),
                proj.unit(vectors[fitted]) if fitted else np.zeros((0, vectors.shape[1]), np.float32),
            )
            xy = f.transform(vectors[fresh])
            items += [(ids[k], round(float(x), 5), round(float(y), 5), False) for k, (x, y) in zip(fresh, xy)]
        return _out(session_id, stored.fit_id, stored.method, items)

    async def joint_projection(self, session_ids: list[str]) -> dict[str, Any]:
        """Several wanders in one semantic space (not stored; cached while nothing grows)."""
        for sid in session_ids:
            await self._rows_exist(sid)
        ids, sids, vectors = await self.repo.loci_vectors(session_ids)
        key = tuple(sorted(session_ids))
        hit = self._joint.get(key)
        if hit and hit[0] == len(ids):
            return hit[1]
        fit = await asyncio.to_thread(self._fit, ids, vectors)
        out = {
            "sessions": list(session_ids),
            "fit_id": fit.fit_id,
            "method": fit.method,
            "points": [
                {"locus_id": i, "session_id": s, "x": p[0], "y": p[1], "fitted": True}
                for (i, p), s in zip(fit.points().items(), sids)
            ],
        }
        self._joint[key] = (len(ids), out)
        return out

    async def _rows_exist(self, session_id: str) -> None:
        if not _is_uuid(session_id) or not await self.repo.session_exists(session_id):
            raise NotFound("session", session_id)

    # ---- background ----------------------------------------------------------------------

    def attach(self, warm_up: bool = False) -> None:
        """Listen to the bus; optionally compile UMAP in a background thread now."""
        self._unsubscribe = self.bus.subscribe(self._on_event)
        if warm_up and self.projectors is not None:
            # A daemon thread, not the loop's executor: a stop (Ctrl+C) never waits out a
            # compile nobody needs any more (asyncio's shutdown joins its executor's threads).
            threading.Thread(target=self.projectors.warm_up, name="umap-warm-up", daemon=True).start()

    async def _on_event(self, event: Any) -> None:
        sid, subject = event.session_id, event.subject
        if subject == "wander.session.completed":
            self.spawn(f"archive:{sid}", lambda: self.archive(sid))
        elif subject == "wander.session.paused":
            self.spawn(f"fit:{sid}", lambda: self.refit(sid))
        elif subject == "wander.step.completed" and self.refit_every > 0:
            self._steps[sid] = self._steps.get(sid, 0) + 1
            if self._steps[sid] >= self.refit_every:
                self._steps[sid] = 0
                self.spawn(f"fit:{sid}", lambda: self.refit(sid))

    async def catch_up(self) -> list[str]:
        """Archive the finished wanders that have none (finished while nobody listened)."""
        done = []
        for sid in await self.repo.unarchived_finished():
            try:
                await self.archive(sid)
                done.append(sid)
            except Exception:
                log.exception("archiving %s failed", sid)
        return done

    def spawn(self, key: str, factory: Callable[[], Awaitable[Any]]) -> None:
        running = self._tasks.get(key)
        if running is not None and not running.done():
            if key.startswith("archive:"):  # finished again while archiving: archive after
                prev = running

                async def after() -> Any:
                    await asyncio.gather(prev, return_exceptions=True)
                    return await factory()

                self._tasks[key] = asyncio.create_task(_logged(key, after()))
            return
        self._tasks[key] = asyncio.create_task(_logged(key, factory()))

    async def idle(self) -> None:
        """Wait for every background task (tests, shutdown)."""
        while any(not t.done() for t in self._tasks.values()):
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    async def close(self) -> None:
        if self._unsubscribe:
            self._unsubscribe()
        for t in self._tasks.values():
            t.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    def _lock(self, key: str) -> asyncio.Lock:
        return self._locks.setdefault(key, asyncio.Lock())


def _is_uuid(value: str) -> bool:
    try:
        uuid.UUID(str(value))
        return True
    except ValueError:
        return False


async def _logged(key: str, coro: Awaitable[Any]) -> Any:
    try:
        return await coro
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("background %s failed", key)
        return None


def _out(session_id: str, fit_id: str, method: str, items: list[tuple[str, float, float, bool]]) -> dict[str, Any]:
    return {
        "session_id": session_id,
        "fit_id": fit_id,
        "method": method,
        "points": [{"locus_id": i, "x": x, "y": y, "fitted": f} for i, x, y, f in items],
    }
