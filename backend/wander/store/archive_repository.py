"""Store side of the archive room: a wander's rows as JSON-ready dicts (export) and back
(import, in one transaction), archives, stored projections and the archive search."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
from pgvector.sqlalchemy import Vector
from sqlalchemy import ARRAY, Boolean, DateTime, Float, Integer, String, Table, Text, func, insert, select, update
from sqlalchemy.dialects.postgresql import UUID
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from wander.domain.errors import Conflict, InvalidInput
from wander.domain.models import Event
from wander.store.archive_tables import WanderArchive, WanderProjection
from wander.store.tables import (
    Project,
    WanderCompost,
    WanderCrystal,
    WanderEvent,
    WanderLocus,
    WanderResidue,
    WanderResonance,
    WanderSession,
    WanderTrace,
    WanderWarmMemory,
)

A = WanderArchive.__table__
P = WanderProjection.__table__
S = WanderSession.__table__
L = WanderLocus.__table__
C = WanderCrystal.__table__
RS = WanderResonance.__table__
E = WanderEvent.__table__

# Export order is insert order (foreign keys point backwards).
TABLES: dict[str, Table] = {
    "project": Project.__table__, "session": S, "loci": L, "traces": WanderTrace.__table__,
    "residues": WanderResidue.__table__, "resonances": RS, "crystals": C,
    "warm_memory": WanderWarmMemory.__table__, "compost": WanderCompost.__table__, "events": E,
    "projection": P,
}  # fmt: skip
SINGLE = ("project", "session")  # one row each; the others are lists (projection: 0 or 1)


def _out(col: Any, v: Any) -> Any:
    if v is None:
        return None
    if isinstance(v, uuid.UUID):
        return str(v)
    if isinstance(v, datetime):
        return v.isoformat()
    if isinstance(v, np.ndarray):
        return [float(x) for x in v]
    if isinstance(v, (list, tuple)):
        return [_out(col, x) for x in v]
    return v


def _in(table: str, col: Any, v: Any) -> Any:
    if v is None:
        return None
    t = col.type
    try:
        if isinstance(t, ARRAY):
            if not isinstance(v, list):
                raise ValueError("expected a list")
            item = t.item_type
            if isinstance(item, UUID):
                return [uuid.UUID(str(x)) for x in v]
            if isinstance(item, Vector):
                return [np.asarray(x, dtype=np.float32) for x in v]
            return list(v)
        if isinstance(t, UUID):
            return uuid.UUID(str(v))
        if isinstance(t, DateTime):
            return datetime.fromisoformat(str(v))
        if isinstance(t, Boolean):
            if not isinstance(v, bool):
                raise ValueError("expected true or false")
        elif isinstance(t, Integer):
            if isinstance(v, bool) or not isinstance(v, int):
                raise ValueError("expected an integer")
        elif isinstance(t, Float):
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise ValueError("expected a number")
        elif isinstance(t, (Text, String)):
            if not isinstance(v, str):
                raise ValueError("expected text")
        if isinstance(t, Vector):
            arr = np.asarray(v, dtype=np.float32)
            if arr.ndim != 1 or arr.shape[0] != t.dim:
                raise ValueError(f"expected {t.dim} numbers")
            return arr
    except (ValueError, TypeError) as exc:
        raise InvalidInput(f"{table}.{col.name}", f"{exc} (got {str(v)[:40]!r})") from None
    return v


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
    return ArchiveRow(str(r.session_id), r.fingerprint, r.status, r.step_count, r.loci_count, r.crystal_count,
                      r.fit_id, r.created_at, r.name, r.seed_concept, r.attractor, r.session_created_at,
                      None if sim is None else round(float(sim), 4))  # fmt: skip


class ArchiveRepository:
    def __init__(self, engine: AsyncEngine):
        self.engine = engine

    # ---- export / import -----------------------------------------------------------------

    async def dump(self, session_id: str) -> dict[str, Any] | None:
        """Every stored row of one wander, JSON-ready, by table (see TABLES)."""
        sid = uuid.UUID(session_id)
        out: dict[str, Any] = {}
        async with self.engine.connect() as conn:
            srow = (await conn.execute(select(S).where(S.c.id == sid))).first()
            if srow is None:
                return None
            for key, table in TABLES.items():
                if key == "project":
                    q = select(table).where(table.c.id == srow.project_id)
                elif key == "session":
                    q = select(table).where(table.c.id == sid)
                else:
                    q = select(table).where(table.c.session_id == sid)
                    order = [c for c in ("seq", "step_number", "created_at", "first_encountered") if c in table.c]
                    q = q.order_by(*(table.c[c] for c in order[:1]), *(table.primary_key.columns))
                rows = [{c.name: _out(c, r._mapping[c.name]) for c in table.columns}
                        for r in (await conn.execute(q)).all()]  # fmt: skip
                out[key] = rows[0] if key in SINGLE else rows
        return out

    def _rows_for_insert(self, doc: dict[str, Any]) -> list[tuple[str, Table, list[dict[str, Any]]]]:
        """Checked and converted before anything is written; InvalidInput names what is wrong."""
        plan = []
        for key, table in TABLES.items():
            value = doc.get(key, [] if key not in SINGLE else None)
            if key in SINGLE:
                if not isinstance(value, dict):
                    raise InvalidInput(key, "missing or not an object")
                rows = [value]
            else:
                if not isinstance(value, list) or not all(isinstance(r, dict) for r in value):
                    raise InvalidInput(key, "must be a list of objects")
                rows = value
            converted = []
            for i, row in enumerate(rows):
                unknown = set(row) - set(table.c.keys())
                if unknown:
                    raise InvalidInput(f"{key}[{i}]", f"unknown column {sorted(unknown)[0]!r}")
                for c in table.columns:
                    if not c.nullable and c.server_default is None and row.get(c.name) is None:
                        raise InvalidInput(f"{key}[{i}].{c.name}", "missing")
                converted.append({name: _in(key, table.c[name], v) for name, v in row.items()})
            plan.append((key, table, converted))
        sid = doc["session"].get("id")
        for key, _, rows in plan:
            if key not in SINGLE and any(str(r.get("session_id")) != str(sid) for r in rows):
                raise InvalidInput(key, f"has rows of another session than {sid}")
        return plan

    async def load(self, doc: dict[str, Any]) -> str:
        """Insert a dumped wander with the same ids, in one transaction: all or nothing."""
        plan = self._rows_for_insert(doc)
        session = plan[1][2][0]
        try:
            async with self.engine.begin() as conn:
                if (await conn.execute(select(S.c.id).where(S.c.id == session["id"]))).first():
                    raise Conflict(f"session {session['id']} already exists in this database")
                project = plan[0][2][0]
                if not (
                    await conn.execute(select(TABLES["project"].c.id).where(TABLES["project"].c.id == project["id"]))
                ).first():
                    project = {**project, "name": f"{project['name']} ({str(project['id'])[:8]})"}
                    await conn.execute(pg_insert(TABLES["project"]).values(**project).on_conflict_do_nothing())
                parent = session.get("parent_session_id")
                if parent and not (await conn.execute(select(S.c.id).where(S.c.id == parent))).first():
                    session = {**session, "parent_session_id": None}  # the parent stayed behind
                known_res = {r["id"] for r in plan[5][2]}
                for key, table, rows in plan[1:]:
                    if key == "session":
                        rows = [session]
                    if key == "crystals":  # a resonance of another wander may not be here
                        rows = [{**r, "source_resonance_id": r.get("source_resonance_id")
                                 if r.get("source_resonance_id") in known_res else None} for r in rows]  # fmt: skip
                    if rows:
                        await conn.execute(insert(table), rows)
        except (IntegrityError, DBAPIError) as exc:
            detail = str(getattr(exc, "orig", exc)).splitlines()[0]
            raise InvalidInput("file", f"rejected by the database: {detail[:200]}") from None
        return str(session["id"])

    # ---- archives ------------------------------------------------------------------------

    async def save_archive(self, session_id: str, values: dict[str, Any]) -> None:
        sid = uuid.UUID(session_id)
        stmt = pg_insert(A).values(session_id=sid, created_at=func.now(), **values)
        stmt = stmt.on_conflict_do_update(index_elements=[A.c.session_id],
                                          set_={**values, "created_at": func.now()})  # fmt: skip
        async with self.engine.begin() as conn:
            await conn.execute(stmt)

    def _archive_select(self, extra: list[Any] | None = None):
        return (select(A.c.session_id, A.c.fingerprint, A.c.status, A.c.step_count, A.c.loci_count,
                       A.c.crystal_count, A.c.fit_id, A.c.created_at, S.c.name, S.c.seed_concept, S.c.attractor,
                       S.c.created_at.label("session_created_at"), *(extra or []))
                .join(S, S.c.id == A.c.session_id))  # fmt: skip

    async def archive(self, session_id: str) -> ArchiveRow | None:
        async with self.engine.connect() as conn:
            r = (await conn.execute(self._archive_select().where(A.c.session_id == uuid.UUID(session_id)))).first()
        return _archive_row(r) if r else None

    async def archive_blob(self, session_id: str, column: str) -> Any:
        async with self.engine.connect() as conn:
            return (await conn.execute(select(A.c[column]).where(A.c.session_id == uuid.UUID(session_id)))).scalar()

    async def list_archives(self, *, vector: np.ndarray | None = None, status: str | None = None,
                            has_crystals: bool | None = None, since: datetime | None = None,
                            limit: int = 50) -> list[ArchiveRow]:  # fmt: skip
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
        q = (select(S.c.id).outerjoin(A, A.c.session_id == S.c.id)
             .where(S.c.status.in_(("completed", "abandoned")), A.c.session_id.is_(None)).limit(limit))  # fmt: skip
        async with self.engine.connect() as conn:
            return [str(r[0]) for r in (await conn.execute(q)).all()]

    # ---- projections ---------------------------------------------------------------------

    async def loci_vectors(self, session_ids: list[str]) -> tuple[list[str], list[str], np.ndarray]:
        """(locus ids, their session ids, embeddings) in order of first encounter."""
        q = (select(L.c.id, L.c.session_id, L.c.embedding).where(L.c.session_id.in_([uuid.UUID(s) for s in session_ids]))
             .order_by(L.c.session_id, L.c.first_encountered, L.c.id))  # fmt: skip
        async with self.engine.connect() as conn:
            rows = (await conn.execute(q)).all()
        vectors = np.asarray([np.asarray(r.embedding, dtype=np.float32) for r in rows], dtype=np.float32)
        return [str(r.id) for r in rows], [str(r.session_id) for r in rows], vectors

    async def session_exists(self, session_id: str) -> bool:
        async with self.engine.connect() as conn:
            return (await conn.execute(select(S.c.id).where(S.c.id == uuid.UUID(session_id)))).first() is not None

    async def projection(self, session_id: str) -> dict[str, Any] | None:
        async with self.engine.connect() as conn:
            r = (await conn.execute(select(P).where(P.c.session_id == uuid.UUID(session_id)))).first()
        return dict(r._mapping) if r else None

    async def save_projection(self, session_id: str, fit_id: str, method: str, points: dict[str, list[float]],
                              subject: str, payload: dict[str, Any]) -> list[Event]:  # fmt: skip
        """Store the fit and append its event to the wander's outbox, in one transaction."""
        sid = uuid.UUID(session_id)
        values = dict(fit_id=fit_id, method=method, points=points, n_loci=len(points))
        async with self.engine.begin() as conn:
            row = (await conn.execute(select(S.c.event_seq).where(S.c.id == sid).with_for_update())).first()
            if row is None:
                return []
            await conn.execute(pg_insert(P).values(session_id=sid, created_at=func.now(), **values)
                               .on_conflict_do_update(index_elements=[P.c.session_id],
                                                      set_={**values, "created_at": func.now()}))  # fmt: skip
            seq = row.event_seq + 1
            ts = (await conn.execute(select(func.now()))).scalar_one()
            await conn.execute(insert(E).values(session_id=sid, seq=seq, subject=subject, ts=ts, payload=payload))
            await conn.execute(update(S).where(S.c.id == sid).values(event_seq=seq))
        return [Event(session_id=session_id, seq=seq, subject=subject, ts=ts, payload=payload)]
