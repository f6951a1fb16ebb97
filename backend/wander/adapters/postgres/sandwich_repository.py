"""The SANDWICH corpus in Postgres: foraging runs and their log and outbox, sandwiches with
their ingredients and relations (updated in the transaction that stores each sandwich), the
wanders' crystals as sandwiches. The reading side (the crystals not yet stored among it) and
the analysis queries of 004 (5.3, 7, 8.1) are sandwich_read_models.py."""

from __future__ import annotations

import uuid
from typing import Any

import numpy as np
from sqlalchemy import func, insert, select, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from wander.adapters.postgres.sandwich_evaluation import SandwichEvaluation
from wander.adapters.postgres.sandwich_read_models import SandwichReadModels
from wander.adapters.postgres.sandwich_relating import SandwichRelating, facts_of
from wander.adapters.postgres.sandwich_reviews import SandwichReviews
from wander.adapters.postgres.sandwich_tables import (
    EVENTS,
    INGREDIENTS,
    LOG,
    RUNS,
    SANDWICH_INGREDIENTS,
    SANDWICHES,
    SOURCES,
)
from wander.core.domain.models import Event
from wander.core.sandwich.model import FINISHED, STARTED, Attempt, Sandwich, content_hash


def _vecs(rows: list[Any]) -> np.ndarray:
    if not rows:
        return np.zeros((0, 0), dtype=np.float32)
    return np.stack([np.asarray(r, dtype=np.float32) for r in rows])


class SandwichRepository(SandwichReviews, SandwichRelating, SandwichEvaluation, SandwichReadModels):
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
        made (or the marginal one in the review queue), the run's counters and the events: one
        transaction."""
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
            if attempt.review is not None:
                await self._queue_review(conn, run_id, source_id, attempt.review)
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
                    bread_top_embedding=s.bread_top.vector,
                    bread_bottom_embedding=s.bread_bottom.vector,
                    lineage={k: list(v) for k, v in (s.lineage or {}).items()},
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
                text=ing.label,
                ingredient_type=kind,
                domains=list(ing.domains),
                embedding=ing.vector,
                first_seen_sandwich=sid,
            )
            stmt = stmt.on_conflict_do_update(
                constraint="uq_ingredient_text_type",
                set_={
                    "usage_count": INGREDIENTS.c.usage_count + 1,
                    "embedding": func.coalesce(INGREDIENTS.c.embedding, stmt.excluded.embedding),
                },
            )
            iid = (await conn.execute(stmt.returning(INGREDIENTS.c.id))).scalar_one()
            await conn.execute(
                pg_insert(SANDWICH_INGREDIENTS)
                .values(sandwich_id=sid, ingredient_id=iid, role=role)
                .on_conflict_do_nothing()
            )
        await self._relate(conn, facts_of(sid, s))
        await self._canonical(conn, sid, s)
        return sid

    async def _canonical(self, conn: AsyncConnection, sid: Any, s: Sandwich) -> None:
        """The type's canonical example in the corpus: its sandwich of the highest V."""
        await conn.execute(
            text("""
                UPDATE structural_types st SET canonical_example_id = :sid
                WHERE st.name = :name AND (st.canonical_example_id IS NULL OR
                  (SELECT validity_score FROM sandwiches WHERE id = st.canonical_example_id) < :v)"""),
            {"sid": sid, "name": s.structural_type, "v": float(np.clip(s.validity["V"], 0, 1))},
        )

    async def store_crystal(self, crystal_id: str, s: Sandwich) -> str | None:
        """A wander's crystal as a sandwich (origin 'crystal'); None when it is already stored."""
        async with self.engine.begin() as conn:
            cid = uuid.UUID(crystal_id)
            exists = (await conn.execute(select(SANDWICHES.c.id).where(SANDWICHES.c.crystal_id == cid))).first()
            if exists:
                return None
            return str(await self._store_sandwich(conn, s, None, cid))
