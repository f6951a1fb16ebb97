"""The SANDWICH corpus in Postgres: foraging runs and their log and outbox, sandwiches with
their ingredients and relations (updated in the transaction that stores each sandwich), the
wanders' crystals as sandwiches, and the analysis queries of 004 (5.3, 7, 8.1)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

import numpy as np
from sqlalchemy import func, insert, select, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from wander.domain.models import Event
from wander.sandwich.model import FINISHED, STARTED, Attempt, Sandwich, content_hash
from wander.store.sandwich_tables import (
    EVENTS,
    INGREDIENTS,
    LOG,
    RELATIONS,
    RUNS,
    SANDWICH_INGREDIENTS,
    SANDWICHES,
    SOURCES,
)

SIMILAR_COS = 0.8  # sandwiches this close (sandwich embeddings) are related as 'similar'


def _vecs(rows: list[Any]) -> np.ndarray:
    if not rows:
        return np.zeros((0, 0), dtype=np.float32)
    return np.stack([np.asarray(r, dtype=np.float32) for r in rows])


class SandwichRepository:
    def __init__(self, engine: AsyncEngine):
        self.engine = engine

    # ---- the runs' outbox ------------------------------------------------------------------

    async def _events(self, conn: AsyncConnection, run_id: str, drafts: list[dict[str, Any]]) -> list[Event]:
        if not drafts:
            return []
        rid = uuid.UUID(run_id)
        seq = (
            await conn.execute(
                update(RUNS)
                .where(RUNS.c.id == rid)
                .values(event_seq=RUNS.c.event_seq + len(drafts))
                .returning(RUNS.c.event_seq, func.now())
            )
        ).one()
        first = seq[0] - len(drafts) + 1
        events = [
            Event(run_id, first + i, d["subject"], seq[1], {"run_id": run_id, **d["payload"]})
            for i, d in enumerate(drafts)
        ]
        await conn.execute(
            insert(EVENTS),
            [{"run_id": rid, "seq": e.seq, "subject": e.subject, "ts": e.ts, "payload": e.payload} for e in events],
        )
        return events

    async def start_run(self, mode: str, target: str | None, patience: int) -> tuple[str, list[Event]]:
        async with self.engine.begin() as conn:
            rid = (
                await conn.execute(
                    insert(RUNS).values(mode=mode, target=target, patience=patience).returning(RUNS.c.id)
                )
            ).scalar_one()
            events = await self._events(
                conn,
                str(rid),
                [{"subject": STARTED, "payload": {"mode": mode, "target": target, "patience": patience}}],
            )
        return str(rid), events

    async def finish_run(self, run_id: str, status: str, summary: dict[str, Any]) -> list[Event]:
        async with self.engine.begin() as conn:
            await conn.execute(
                update(RUNS).where(RUNS.c.id == uuid.UUID(run_id)).values(status=status, finished_at=func.now())
            )
            return await self._events(conn, run_id, [{"subject": FINISHED, "payload": {"status": status, **summary}}])

    async def events_after(self, run_id: str, after_seq: int = 0) -> list[Event]:
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(EVENTS)
                    .where(EVENTS.c.run_id == uuid.UUID(run_id), EVENTS.c.seq > after_seq)
                    .order_by(EVENTS.c.seq)
                )
            ).all()
        return [Event(str(r.run_id), r.seq, r.subject, r.ts, r.payload) for r in rows]

    # ---- what the forager asks -------------------------------------------------------------

    async def recent_content_vectors(self, limit: int) -> np.ndarray:
        async with self.engine.connect() as conn:
            rows = (
                (
                    await conn.execute(
                        select(SOURCES.c.embedding)
                        .where(SOURCES.c.kind != "crystal")
                        .order_by(SOURCES.c.fetched_at.desc())
                        .limit(limit)
                    )
                )
                .scalars()
                .all()
            )
        return _vecs(list(rows))

    async def seen_content(self, content_hash_: str) -> bool:
        async with self.engine.connect() as conn:
            q = select(func.count()).select_from(SOURCES).where(SOURCES.c.content_hash == content_hash_)
            return (await conn.execute(q)).scalar_one() > 0

    async def filling_vectors(self) -> np.ndarray:
        async with self.engine.connect() as conn:
            return _vecs(list((await conn.execute(select(SANDWICHES.c.filling_embedding))).scalars().all()))

    # ---- storing -------------------------------------------------------------------------------

    async def record_attempt(
        self, run_id: str, attempt: Attempt, content_vector: np.ndarray | None, drafts: list[dict[str, Any]]
    ) -> tuple[str | None, list[Event]]:
        """The log row, its source, the sandwich with its ingredients and relations when one was
        made, the run's counters and the events: one transaction."""
        async with self.engine.begin() as conn:
            source_id = None
            c = attempt.content
            if c is not None and content_vector is not None:
                source_id = (
                    await conn.execute(
                        insert(SOURCES)
                        .values(
                            kind=c.kind,
                            ref=c.ref,
                            title=c.title[:2000],
                            domain=c.domain[:255],
                            content_type=c.content_type,
                            content=c.text,
                            content_hash=content_hash(c.text),
                            embedding=content_vector,
                        )
                        .returning(SOURCES.c.id)
                    )
                ).scalar_one()
            sandwich_id = None
            if attempt.sandwich is not None:
                sandwich_id = await self._store_sandwich(conn, attempt.sandwich, source_id, None)
            await conn.execute(
                insert(LOG).values(
                    run_id=uuid.UUID(run_id),
                    source_id=source_id,
                    source_ref=c.ref if c else None,
                    curiosity_prompt=attempt.curiosity_prompt,
                    outcome=attempt.outcome,
                    outcome_rationale=attempt.rationale,
                    sandwich_id=sandwich_id,
                )
            )
            await conn.execute(
                update(RUNS)
                .where(RUNS.c.id == uuid.UUID(run_id))
                .values(attempts=RUNS.c.attempts + 1, made=RUNS.c.made + (1 if sandwich_id else 0))
            )
            if sandwich_id:
                for d in drafts:
                    if d["subject"] == "sandwich.made":
                        d["payload"]["sandwich_id"] = str(sandwich_id)
            events = await self._events(conn, run_id, drafts)
        return (str(sandwich_id) if sandwich_id else None), events

    async def _store_sandwich(self, conn: AsyncConnection, s: Sandwich, source_id: Any, crystal_id: Any) -> Any:
        v = s.validity
        sid = (
            await conn.execute(
                insert(SANDWICHES)
                .values(
                    name=s.name,
                    description=s.description,
                    validity_score=float(np.clip(v["V"], 0, 1)),
                    bread_compat_score=v["bread_compat"],
                    containment_score=v["containment"],
                    nontrivial_score=v["non_triviality"],
                    novelty_score=v["novelty"],
                    bread_top=s.bread_top.label,
                    bread_bottom=s.bread_bottom.label,
                    filling=s.filling.label,
                    filling_embedding=s.filling.vector,
                    sandwich_embedding=s.embedding,
                    source_id=source_id,
                    structural_type=s.structural_type,
                    domains=list(v.get("domains") or []),
                    origin=s.origin,
                    crystal_id=crystal_id,
                    assembly_rationale=s.assembly_rationale,
                    validation_rationale="; ".join(v.get("reasons") or []) or f"V = {v['V']}",
                    reuben_commentary=s.commentary,
                )
                .returning(SANDWICHES.c.id)
            )
        ).scalar_one()
        for role, ing, kind in (
            ("bread_top", s.bread_top, "bread"),
            ("filling", s.filling, "filling"),
            ("bread_bottom", s.bread_bottom, "bread"),
        ):
            stmt = pg_insert(INGREDIENTS).values(
                text=ing.label, ingredient_type=kind, domains=list(ing.domains), first_seen_sandwich=sid
            )
            stmt = stmt.on_conflict_do_update(
                constraint="uq_ingredient_text_type", set_={"usage_count": INGREDIENTS.c.usage_count + 1}
            )
            iid = (await conn.execute(stmt.returning(INGREDIENTS.c.id))).scalar_one()
            await conn.execute(
                pg_insert(SANDWICH_INGREDIENTS)
                .values(sandwich_id=sid, ingredient_id=iid, role=role)
                .on_conflict_do_nothing()
            )
        await self._relate(conn, sid, s)
        return sid

    async def _relate(self, conn: AsyncConnection, sid: Any, s: Sandwich) -> None:
        """Relations to the sandwiches already stored: similar (cosine of the sandwich embeddings
        >= SIMILAR_COS), same_bread, same_filling."""
        dist = SANDWICHES.c.sandwich_embedding.cosine_distance(s.embedding)
        near = (
            await conn.execute(
                select(SANDWICHES.c.id, (1 - dist).label("sim"))
                .where(SANDWICHES.c.id != sid)
                .where(dist <= 1 - SIMILAR_COS)
                .order_by(dist)
                .limit(10)
            )
        ).all()
        rows = [
            {
                "sandwich_a": sid,
                "sandwich_b": r.id,
                "relation_type": "similar",
                "similarity_score": float(r.sim),
                "rationale": f"sandwich embeddings at cosine {float(r.sim):.2f}",
            }
            for r in near
        ]
        breads = [s.bread_top.label, s.bread_bottom.label]
        shared = (
            await conn.execute(
                select(SANDWICHES.c.id, SANDWICHES.c.bread_top, SANDWICHES.c.bread_bottom, SANDWICHES.c.filling)
                .where(SANDWICHES.c.id != sid)
                .where(
                    SANDWICHES.c.bread_top.in_(breads)
                    | SANDWICHES.c.bread_bottom.in_(breads)
                    | (SANDWICHES.c.filling == s.filling.label)
                )
                .limit(50)
            )
        ).all()
        for r in shared:
            common = sorted({r.bread_top, r.bread_bottom} & set(breads))
            if common:
                rows.append(
                    {
                        "sandwich_a": sid,
                        "sandwich_b": r.id,
                        "relation_type": "same_bread",
                        "similarity_score": 1.0,
                        "rationale": f"both use {', '.join(common)} as bread",
                    }
                )
            if r.filling == s.filling.label:
                rows.append(
                    {
                        "sandwich_a": sid,
                        "sandwich_b": r.id,
                        "relation_type": "same_filling",
                        "similarity_score": 1.0,
                        "rationale": f"both are filled with {r.filling}",
                    }
                )
        if rows:
            await conn.execute(pg_insert(RELATIONS).values(rows).on_conflict_do_nothing())

    async def store_crystal(self, crystal_id: str, s: Sandwich) -> str | None:
        """A wander's crystal as a sandwich (origin 'crystal'); None when it is already stored."""
        async with self.engine.begin() as conn:
            cid = uuid.UUID(crystal_id)
            exists = (await conn.execute(select(SANDWICHES.c.id).where(SANDWICHES.c.crystal_id == cid))).first()
            if exists:
                return None
            return str(await self._store_sandwich(conn, s, None, cid))

    async def unstored_crystals(self) -> list[dict[str, Any]]:
        """Crystals (not invalidated) with their bread loci, not yet in the sandwich corpus."""
        q = text("""
            SELECT c.id, c.insight, c.validity, c.structural_type, c.domains, c.embedding,
                   a.concept AS bread_a, a.embedding AS bread_a_embedding, a.domains AS bread_a_domains,
                   b.concept AS bread_b, b.embedding AS bread_b_embedding, b.domains AS bread_b_domains
            FROM wander_crystals c
            JOIN wander_loci a ON a.id = c.bread_a_locus_id
            JOIN wander_loci b ON b.id = c.bread_b_locus_id
            WHERE c.status <> 'invalidated'
              AND NOT EXISTS (SELECT 1 FROM sandwiches s WHERE s.crystal_id = c.id)
            ORDER BY c.created_at""")
        async with self.engine.connect() as conn:
            return [dict(r._mapping) for r in (await conn.execute(q)).all()]

    # ---- reading -------------------------------------------------------------------------------

    async def sandwiches(self, limit: int = 50, origin: str | None = None) -> list[dict[str, Any]]:
        cols = [c for c in SANDWICHES.c if c.name not in ("filling_embedding", "sandwich_embedding")]
        q = select(*cols).order_by(SANDWICHES.c.created_at.desc()).limit(limit)
        if origin is not None:
            q = q.where(SANDWICHES.c.origin == origin)
        async with self.engine.connect() as conn:
            return [_plain(dict(r._mapping)) for r in (await conn.execute(q)).all()]

    async def similar(self, vector: np.ndarray, limit: int = 10) -> list[dict[str, Any]]:
        """004 5.3's vector similarity search over the sandwiches."""
        dist = SANDWICHES.c.sandwich_embedding.cosine_distance(np.asarray(vector, dtype=np.float32))
        q = (
            select(
                SANDWICHES.c.id,
                SANDWICHES.c.name,
                SANDWICHES.c.description,
                SANDWICHES.c.bread_top,
                SANDWICHES.c.filling,
                SANDWICHES.c.bread_bottom,
                (1 - dist).label("similarity"),
            )
            .order_by(dist)
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            return [_plain(dict(r._mapping)) for r in (await conn.execute(q)).all()]

    async def best_per_type(self) -> dict[str, dict[str, Any]]:
        rows = await self._rows("""
            SELECT DISTINCT ON (structural_type) structural_type, name, bread_top, filling, bread_bottom,
                   validity_score AS v
            FROM sandwiches ORDER BY structural_type, validity_score DESC""")
        return {r["structural_type"]: r for r in rows}

    async def log(self, run_id: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        q = (
            select(
                LOG.c.id,
                LOG.c.ts,
                LOG.c.run_id,
                LOG.c.source_ref,
                SOURCES.c.kind.label("source_kind"),
                SOURCES.c.title.label("source_title"),
                LOG.c.curiosity_prompt,
                LOG.c.outcome,
                LOG.c.outcome_rationale,
                LOG.c.sandwich_id,
            )
            .select_from(LOG.outerjoin(SOURCES, SOURCES.c.id == LOG.c.source_id))
            .order_by(LOG.c.ts.desc(), LOG.c.id)
            .limit(limit)
        )
        if run_id is not None:
            q = q.where(LOG.c.run_id == uuid.UUID(run_id))
        async with self.engine.connect() as conn:
            return [_plain(dict(r._mapping)) for r in (await conn.execute(q)).all()]

    async def run(self, run_id: str) -> dict[str, Any] | None:
        async with self.engine.connect() as conn:
            r = (await conn.execute(select(RUNS).where(RUNS.c.id == uuid.UUID(run_id)))).first()
        return _plain(dict(r._mapping)) if r else None

    async def _rows(self, sql: str, **params: Any) -> list[dict[str, Any]]:
        async with self.engine.connect() as conn:
            return [_plain(dict(r._mapping)) for r in (await conn.execute(text(sql), params)).all()]

    async def type_distribution(self) -> list[dict[str, Any]]:
        return await self._rows("""
            SELECT structural_type, COUNT(*) AS sandwich_count, AVG(validity_score) AS avg_validity,
                   MIN(validity_score) AS min_validity, MAX(validity_score) AS max_validity
            FROM sandwiches GROUP BY structural_type ORDER BY sandwich_count DESC, structural_type""")

    async def ingredient_frequency(self, limit: int = 20) -> list[dict[str, Any]]:
        return await self._rows(
            """
            SELECT text, ingredient_type, usage_count FROM sandwich_ingredient_catalog
            ORDER BY usage_count DESC, text LIMIT :limit""",
            limit=limit,
        )

    async def validity_over_time(self) -> list[dict[str, Any]]:
        return await self._rows("""
            SELECT date_trunc('day', created_at) AS day, COUNT(*) AS sandwiches, AVG(validity_score) AS avg_validity,
                   AVG(novelty_score) AS avg_novelty
            FROM sandwiches GROUP BY 1 ORDER BY 1""")

    async def foraging_efficiency(self, limit: int = 50) -> list[dict[str, Any]]:
        return await self._rows(
            """
            SELECT l.run_id, r.mode, MIN(l.ts) AS started_at, COUNT(*) AS foraging_attempts,
                   SUM(CASE WHEN l.outcome = 'sandwich_made' THEN 1 ELSE 0 END) AS sandwiches_made,
                   ROUND(100.0 * SUM(CASE WHEN l.outcome = 'sandwich_made' THEN 1 ELSE 0 END) / COUNT(*), 2)
                     AS success_rate
            FROM foraging_log l JOIN foraging_runs r ON r.id = l.run_id
            GROUP BY l.run_id, r.mode ORDER BY MIN(l.ts) DESC LIMIT :limit""",
            limit=limit,
        )

    async def outcome_counts(self) -> dict[str, int]:
        rows = await self._rows("SELECT outcome, COUNT(*) AS n FROM foraging_log GROUP BY outcome")
        return {r["outcome"]: int(r["n"]) for r in rows}

    async def cross_domain_breads(self, limit: int = 20) -> list[dict[str, Any]]:
        return await self._rows(
            """
            SELECT i.text AS bread_concept, COUNT(DISTINCT src.domain) AS domain_count,
                   ARRAY_AGG(DISTINCT src.domain) AS domains
            FROM sandwich_ingredient_catalog i
            JOIN sandwich_ingredients si ON si.ingredient_id = i.id
            JOIN sandwiches s ON s.id = si.sandwich_id
            JOIN sandwich_sources src ON src.id = s.source_id
            WHERE i.ingredient_type = 'bread'
            GROUP BY i.text HAVING COUNT(DISTINCT src.domain) > 1
            ORDER BY domain_count DESC, i.text LIMIT :limit""",
            limit=limit,
        )

    async def metric_inputs(self) -> dict[str, Any]:
        """The raw figures behind 8.1's metrics (see wander.sandwich.analysis)."""
        rows = await self._rows("""
            SELECT
              (SELECT COUNT(*) FROM foraging_log) AS attempts,
              (SELECT COUNT(*) FROM foraging_log WHERE outcome = 'sandwich_made') AS made,
              (SELECT COUNT(*) FROM sandwiches) AS sandwiches,
              (SELECT AVG(validity_score) FROM sandwiches WHERE validity_score >= 0.7) AS mean_validity,
              (SELECT COUNT(*) FROM sandwich_ingredient_catalog) AS unique_ingredients,
              (SELECT COUNT(DISTINCT structural_type) FROM sandwiches) AS types_used,
              (SELECT COUNT(*) FROM sandwiches s WHERE (
                 SELECT COUNT(DISTINCT i.domains[1]) FROM sandwich_ingredients si
                 JOIN sandwich_ingredient_catalog i ON i.id = si.ingredient_id
                 WHERE si.sandwich_id = s.id AND si.role IN ('bread_top', 'bread_bottom')) > 1) AS cross_domain""")
        novelty = await self._rows("SELECT novelty_score FROM sandwiches ORDER BY created_at, id")
        return {**rows[0], "novelty_series": [float(r["novelty_score"]) for r in novelty]}


def _plain(row: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for k, v in row.items():
        if isinstance(v, uuid.UUID):
            v = str(v)
        elif isinstance(v, datetime):
            v = v.isoformat()
        elif hasattr(v, "__float__") and not isinstance(v, (int, float, bool)):
            v = float(v)
        out[k] = v
    return out
