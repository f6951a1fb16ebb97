"""A wander's stored rows as JSON-ready dicts, table by table (the archive's export), and
back (import: checked first, then inserted with the same ids in one transaction). Mixed
into ArchiveRepository."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

import numpy as np
from pgvector.sqlalchemy import Vector
from sqlalchemy import ARRAY, Boolean, DateTime, Float, Integer, String, Table, Text, insert, select
from sqlalchemy.dialects.postgresql import UUID
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from wander.adapters.postgres.archive_tables import WanderProjection
from wander.adapters.postgres.table_aliases import CP, RS, C, E, L, R, S, T, W
from wander.adapters.postgres.tables import Project
from wander.core.domain.errors import Conflict, InvalidInput

# Export order is insert order (foreign keys point backwards).
TABLES: dict[str, Table] = {
    "project": Project.__table__,
    "session": S,
    "loci": L,
    "traces": T,
    "residues": R,
    "resonances": RS,
    "crystals": C,
    "warm_memory": W,
    "compost": CP,
    "events": E,
    "projection": WanderProjection.__table__,
}
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
    """A JSON value as the column stores it; a clear error naming the column otherwise."""
    if v is None:
        return None
    try:
        return _typed(col.type, v)
    except (ValueError, TypeError) as exc:
        raise InvalidInput(f"{table}.{col.name}", f"{exc} (got {str(v)[:40]!r})") from None


# the column types whose values are taken as they are, once checked: (type, check, what it expects)
_CHECKED: tuple[tuple[Any, Any, str], ...] = (
    (Boolean, lambda v: isinstance(v, bool), "expected true or false"),
    (Integer, lambda v: isinstance(v, int) and not isinstance(v, bool), "expected an integer"),
    (Float, lambda v: isinstance(v, (int, float)) and not isinstance(v, bool), "expected a number"),
    ((Text, String), lambda v: isinstance(v, str), "expected text"),
)


def _typed(t: Any, v: Any) -> Any:
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
    if isinstance(t, Vector):
        arr = np.asarray(v, dtype=np.float32)
        if arr.ndim != 1 or arr.shape[0] != t.dim:
            raise ValueError(f"expected {t.dim} numbers")
        return arr
    for kind, check, expected in _CHECKED:
        if isinstance(t, kind):
            if not check(v):
                raise ValueError(expected)
            break
    return v


class WanderRowsRepository:
    engine: AsyncEngine

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
                rows = [
                    {c.name: _out(c, r._mapping[c.name]) for c in table.columns} for r in (await conn.execute(q)).all()
                ]
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
                        rows = [
                            {
                                **r,
                                "source_resonance_id": r.get("source_resonance_id")
                                if r.get("source_resonance_id") in known_res
                                else None,
                            }
                            for r in rows
                        ]
                    if rows:
                        await conn.execute(insert(table), rows)
        except (IntegrityError, DBAPIError) as exc:
            detail = str(getattr(exc, "orig", exc)).splitlines()[0]
            raise InvalidInput("file", f"rejected by the database: {detail[:200]}") from None
        return str(session["id"])
