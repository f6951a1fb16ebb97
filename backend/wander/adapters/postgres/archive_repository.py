"""Store side of the archive room: archives, stored projections and the archive search;
a wander's rows as JSON-ready dicts and back (export, import) are wander_rows.py, mixed in."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
from sqlalchemy import func, insert, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncEngine

from wander.adapters.postgres.archive_tables import WanderArchive, WanderProjection
from wander.adapters.postgres.tables import WanderEvent, WanderLocus, WanderSession
from wander.adapters.postgres.wander_rows import WanderRowsRepository
from wander.core.domain.models import FINISHED, Event
from wander.core.domain.views import StoredProjection

A = WanderArchive.__table__
P = WanderProjection.__table__
S = WanderSession.__table__
L = WanderLocus.__table__
E = WanderEvent.__table__


@dataclass
class ArchiveRow:
    session_id: str
    fingerprint: str
    status: str
    step_count: int
    loci_count: int
    crystal_count: int
    fit_id: str | None
    created_at: datetime | None
    name: str = ""
    seed_concept: str = ""
    attractor: str | None = None
    session_created_at: datetime | None = None
    similarity: float | None = None


def _archive_row(r: Any) -> ArchiveRow:
    sim = getattr(r, "sim", None)
    return ArchiveRow(
        str(r.session_id),
        r.fingerprint,
        r.status,
        r.step_count,
        r.loci_count,
        r.crystal_count,
        r.fit_id,
        r.created_at,
        r.name,
        r.seed_concept,
        r.attractor,
        r.session_created_at,
        None if sim is None else round(float(sim), 4),
    )


class ArchiveRepository(WanderRowsRepository):
    def __init__(self, engine: AsyncEngine):
        self.engine = engine

    # ---- archives ------------------------------------------------------------------------

    async def save_archive(self, session_id: str, values: dict[str, Any]) -> None:
        sid = uuid.UUID(session_id)
        stmt = pg_insert(A).values(session_id=sid, created_at=func.now(), **values)
        stmt = stmt.on_conflict_do_update(index_elements=[A.c.session_id], set_={**values, "created_at": func.now()})
        async with self.engine.begin() as conn:
            await conn.execute(stmt)

    def _archive_select(self, extra: list[Any] | None = None):
        return select(
            A.c.session_id,
            A.c.fingerprint,
            A.c.status,
            A.c.step_count,
            A.c.loci_count,
            A.c.crystal_count,
            A.c.fit_id,
            A.c.created_at,
            S.c.name,
            S.c.seed_concept,
            S.c.attractor,
            S.c.created_at.label("session_created_at"),
            *(extra or []),
        ).join(S, S.c.id == A.c.session_id)

    async def archive(self, session_id: str) -> ArchiveRow | None:
        async with self.engine.connect() as conn:
            r = (await conn.execute(self._archive_select().where(A.c.session_id == uuid.UUID(session_id)))).first()
        return _archive_row(r) if r else None

    async def archive_blob(self, session_id: str, column: str) -> Any:
        async with self.engine.connect() as conn:
            return (await conn.execute(select(A.c[column]).where(A.c.session_id == uuid.UUID(session_id)))).scalar()

    async def list_archives(
        self,
        *,
        vector: np.ndarray | None = None,
        status: str | None = None,
        has_crystals: bool | None = None,
        since: datetime | None = None,
        limit: int = 50,
    ) -> list[ArchiveRow]:
        q = self._archive_select()
        if vector is not None:
            d = A.c.embedding.cosine_distance(np.asarray(vector, dtype=np.float32))
            q = self._archive_select([(1 - d).label("sim")]).order_by(d)
        else:
            q = q.order_by(S.c.created_at.desc())
        if status:
            q = q.where(A.c.status == status)
        if has_crystals is not None:
            q = q.where(A.c.crystal_count > 0 if has_crystals else A.c.crystal_count == 0)
        if since is not None:
            q = q.where(S.c.created_at >= since)
        async with self.engine.connect() as conn:
            return [_archive_row(r) for r in (await conn.execute(q.limit(limit))).all()]

    async def unarchived_finished(self, limit: int = 20) -> list[str]:
        """Finished wanders with no archive yet (finished while no archivist listened)."""
        q = (
            select(S.c.id)
            .outerjoin(A, A.c.session_id == S.c.id)
            .where(S.c.status.in_([str(s) for s in sorted(FINISHED)]), A.c.session_id.is_(None))
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            return [str(r[0]) for r in (await conn.execute(q)).all()]

    # ---- projections ---------------------------------------------------------------------

    async def loci_vectors(self, session_ids: list[str]) -> tuple[list[str], list[str], np.ndarray]:
        """(locus ids, their session ids, embeddings) in order of first encounter."""
        q = (
            select(L.c.id, L.c.session_id, L.c.embedding)
            .where(L.c.session_id.in_([uuid.UUID(s) for s in session_ids]))
            .order_by(L.c.session_id, L.c.first_encountered, L.c.id)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(q)).all()
        vectors = np.asarray([np.asarray(r.embedding, dtype=np.float32) for r in rows], dtype=np.float32)
        return [str(r.id) for r in rows], [str(r.session_id) for r in rows], vectors

    async def session_exists(self, session_id: str) -> bool:
        async with self.engine.connect() as conn:
            return (await conn.execute(select(S.c.id).where(S.c.id == uuid.UUID(session_id)))).first() is not None

    async def projection(self, session_id: str) -> StoredProjection | None:
        async with self.engine.connect() as conn:
            r = (await conn.execute(select(P).where(P.c.session_id == uuid.UUID(session_id)))).first()
        if r is None:
            return None
        return StoredProjection(str(r.session_id), r.fit_id, r.method, r.points, r.n_loci, r.created_at)

    async def save_projection(
        self,
        session_id: str,
        fit_id: str,
        method: str,
        points: dict[str, list[float]],
        subject: str,
        payload: dict[str, Any],
    ) -> list[Event]:
        """Store the fit and append its event to the wander's outbox, in one transaction."""
        sid = uuid.UUID(session_id)
        values = dict(fit_id=fit_id, method=method, points=points, n_loci=len(points))
        async with self.engine.begin() as conn:
            row = (await conn.execute(select(S.c.event_seq).where(S.c.id == sid).with_for_update())).first()
            if row is None:
                return []
            await conn.execute(
                pg_insert(P)
                .values(session_id=sid, created_at=func.now(), **values)
                .on_conflict_do_update(index_elements=[P.c.session_id], set_={**values, "created_at": func.now()})
            )
            seq = row.event_seq + 1
            ts = (await conn.execute(select(func.now()))).scalar_one()
            await conn.execute(insert(E).values(session_id=sid, seq=seq, subject=subject, ts=ts, payload=payload))
            await conn.execute(update(S).where(S.c.id == sid).values(event_seq=seq))
        return [Event(session_id=session_id, seq=seq, subject=subject, ts=ts, payload=payload)]
