"""Archives: metadata, the JSON export, the Markdown summary, the UMAP plot,
projections of one or several wanders, and the archive list with semantic search. The
rules are the archivist's (wander.core.archive.service); this translates."""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator
from datetime import datetime
from typing import Annotated, Any

from litestar import Controller, Request, Response, get, post
from litestar.params import Parameter
from litestar.response import Stream

from shared_schemas.models import ArchiveList, ArchiveOut, ProjectionOut
from wander.core.archive.service import Archivist
from wander.core.domain.errors import InvalidInput
from wander.faces.api.deps import Runs


def archive_out(a: Any, written: bool | None = None) -> ArchiveOut:
    return ArchiveOut(
        session_id=a.session_id,
        name=a.name,
        seed_concept=a.seed_concept,
        attractor=a.attractor,
        status=a.status,
        step_count=a.step_count,
        loci_count=a.loci_count,
        crystal_count=a.crystal_count,
        fingerprint=a.fingerprint,
        fit_id=a.fit_id,
        archived_at=a.created_at,
        created_at=a.session_created_at,
        similarity=a.similarity,
        written=written,
    )


CHUNK = 1 << 16


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an Accept-Encoding header takes gzip (and does not refuse it with q=0)."""
    for part in accept_encoding.lower().split(","):
        name, _, params = part.partition(";")
        if name.strip() in ("gzip", "*"):
            q = params.strip()
            if not q.startswith("q="):
                return True
            try:
                return float(q[2:]) > 0
            except ValueError:
                return False
    return False


def gzip_chunks(body: bytes) -> Iterator[bytes]:
    """The body as a gzip stream, a chunk at a time."""
    z = zlib.compressobj(6, zlib.DEFLATED, 31)  # wbits 31: the gzip wrapper
    for i in range(0, len(body), CHUNK):
        out = z.compress(body[i : i + CHUNK])
        if out:
            yield out
    yield z.flush()


class ArchiveController(Controller):
    path = "/api/v1/wander"
    tags = ["archives"]

    @get("/sessions/{session_id:str}/archive")
    async def get_archive(self, session_id: str, archivist: Archivist) -> ArchiveOut:
        return archive_out(await archivist.stored(session_id))

    @post("/sessions/{session_id:str}/archive", status_code=200)
    async def post_archive(
        self, session_id: str, archivist: Archivist, runner: Runs, force: bool = False
    ) -> ArchiveOut:
        row, written = await archivist.archive(session_id, force=force, running=runner.is_running(session_id))
        return archive_out(row, written)

    @get("/sessions/{session_id:str}/archive.json")
    async def archive_json(
        self, request: Request, session_id: str, archivist: Archivist, runner: Runs, final: bool = True
    ) -> Response[bytes]:
        """The full JSON archive, streamed; gzip on the wire when the client accepts it (a
        wander's JSON is mostly vectors and repeated keys: it compresses several times over)."""
        doc = await archivist.export(session_id, final=final, running=runner.is_running(session_id))
        body = json.dumps(doc, separators=(",", ":")).encode()
        headers = {"Content-Disposition": f'attachment; filename="wander-{session_id}.json"', "Vary": "Accept-Encoding"}
        if not accepts_gzip(request.headers.get("accept-encoding", "")):
            return Response(body, media_type="application/json", headers=headers)
        return Stream(  # type: ignore[return-value]  # a Response too: the same document, gzipped
            gzip_chunks(body), media_type="application/json", headers={**headers, "Content-Encoding": "gzip"}
        )

    @get("/sessions/{session_id:str}/archive.md")
    async def archive_md(self, session_id: str, archivist: Archivist) -> Response[bytes]:
        text = await archivist.artefact(session_id, "markdown")
        return Response(
            text.encode(),
            media_type="text/markdown; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="wander-{session_id}.md"'},
        )

    @get("/sessions/{session_id:str}/umap.png", media_type="image/png")
    async def umap_png(
        self,
        session_id: str,
        archivist: Archivist,
        size: Annotated[
            int, Parameter(description="1024 (review, vision models) or 512 (a compact summary), as 000 asks")
        ] = 1024,
    ) -> Response[bytes]:
        png = await archivist.png(session_id, size)
        return Response(
            png,
            media_type="image/png",
            headers={
                "Content-Disposition": f'inline; filename="wander-{session_id}-umap{"" if size == 1024 else "-512"}.png"'
            },
        )

    @get("/sessions/{session_id:str}/projection")
    async def projection(self, session_id: str, archivist: Archivist) -> ProjectionOut:
        return ProjectionOut(**await archivist.projection(session_id))

    @get("/projection")
    async def joint_projection(
        self, archivist: Archivist, sessions: Annotated[str, Parameter(description="comma-separated session ids")]
    ) -> ProjectionOut:
        ids = [s.strip() for s in sessions.split(",") if s.strip()]
        if not ids:
            raise InvalidInput("sessions", "name at least one session id")
        if len(ids) > 20:
            raise InvalidInput("sessions", f"at most 20 sessions (got {len(ids)})")
        return ProjectionOut(**await archivist.joint_projection(ids))

    @get("/archives")
    async def list_archives(
        self,
        archivist: Archivist,
        q: Annotated[str | None, Parameter(description="wanders about ...")] = None,
        status: str | None = None,
        has_crystals: bool | None = None,
        since: datetime | None = None,
        limit: Annotated[int, Parameter(ge=1, le=200)] = 50,
    ) -> ArchiveList:
        rows = await archivist.search(q, status=status, has_crystals=has_crystals, since=since, limit=limit)
        return ArchiveList(items=[archive_out(r) for r in rows])
