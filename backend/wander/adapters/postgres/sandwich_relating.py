"""Relating sandwiches in Postgres (mixed into SandwichRepository): a sandwich being stored is
related (wander.core.sandwich.relations) to the stored ones that may hold a relation to it, in the
transaction that stores it; and `relate_all` brings a corpus stored before the bread and
ingredient embeddings (migration 0013) up to date: it embeds what lacks an embedding and
relates every sandwich to those stored before it, adding only the relations missing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import Any

import numpy as np
from sqlalchemy import select, tuple_, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from wander.adapters.postgres.sandwich_tables import INGREDIENTS, RELATIONS, SANDWICHES
from wander.core.sandwich.model import Sandwich
from wander.core.sandwich.relations import SandwichFacts, relate

RELATE_NEAREST, RELATE_SHARING, RELATE_SAME_TYPE = 20, 50, 100  # the candidates a sandwich is related to
COLS = (
    SANDWICHES.c.id,
    SANDWICHES.c.created_at,
    SANDWICHES.c.bread_top,
    SANDWICHES.c.filling,
    SANDWICHES.c.bread_bottom,
    SANDWICHES.c.bread_top_embedding,
    SANDWICHES.c.filling_embedding,
    SANDWICHES.c.bread_bottom_embedding,
    SANDWICHES.c.sandwich_embedding,
    SANDWICHES.c.structural_type,
    SANDWICHES.c.domains,
    SANDWICHES.c.lineage,
)


def facts_of(sid: Any, s: Sandwich) -> SandwichFacts:
    return SandwichFacts(
        id=str(sid),
        labels={"bread_top": s.bread_top.label, "filling": s.filling.label, "bread_bottom": s.bread_bottom.label},
        vectors={"bread_top": s.bread_top.vector, "filling": s.filling.vector, "bread_bottom": s.bread_bottom.vector},
        embedding=s.embedding,
        structural_type=s.structural_type,
        domains=tuple(s.validity.get("domains") or ()),
        lineage={k: tuple(v) for k, v in (s.lineage or {}).items()},
    )


def facts_of_row(r: Any) -> SandwichFacts:
    def vec(x: Any) -> np.ndarray | None:
        return None if x is None else np.asarray(x, dtype=np.float32)

    return SandwichFacts(
        id=str(r.id),
        labels={"bread_top": r.bread_top, "filling": r.filling, "bread_bottom": r.bread_bottom},
        vectors={
            "bread_top": vec(r.bread_top_embedding),
            "filling": vec(r.filling_embedding),
            "bread_bottom": vec(r.bread_bottom_embedding),
        },
        embedding=np.asarray(r.sandwich_embedding, dtype=np.float32),
        structural_type=r.structural_type,
        domains=tuple(r.domains or ()),
        lineage={k: tuple(v) for k, v in (r.lineage or {}).items()},
    )


class SandwichRelating:
    engine: AsyncEngine

    async def _relate(self, conn: AsyncConnection, new: SandwichFacts, before: tuple[Any, Any] | None = None) -> int:
        """Stores NEW's relations to the candidates (the nearest by sandwich embedding, those
        sharing an ingredient's label, the latest of its structural type: a domain transfer's),
        among the sandwiches stored before `before` (created_at, id) when given; how many."""
        sid = new.id
        dist = SANDWICHES.c.sandwich_embedding.cosine_distance(new.embedding)
        labels = list(new.labels.values())
        others = [SANDWICHES.c.id != sid]
        if before is not None:
            others.append(tuple_(SANDWICHES.c.created_at, SANDWICHES.c.id) < tuple_(*before))
        near = select(*COLS).where(*others).order_by(dist).limit(RELATE_NEAREST)
        sharing = (
            select(*COLS)
            .where(*others)
            .where(
                SANDWICHES.c.bread_top.in_(labels)
                | SANDWICHES.c.bread_bottom.in_(labels)
                | SANDWICHES.c.filling.in_(labels)
            )
            .limit(RELATE_SHARING)
        )
        same_type = (
            select(*COLS)
            .where(*others, SANDWICHES.c.structural_type == new.structural_type)
            .order_by(SANDWICHES.c.created_at.desc())
            .limit(RELATE_SAME_TYPE)
        )
        found: dict[Any, Any] = {}
        for q in (near, sharing, same_type):
            for r in (await conn.execute(q)).all():
                found.setdefault(r.id, r)
        relations = relate(new, [facts_of_row(r) for r in found.values()])
        if not relations:
            return 0
        done = await conn.execute(
            pg_insert(RELATIONS)
            .values([asdict(r) for r in relations])
            .on_conflict_do_nothing()
            .returning(RELATIONS.c.id)
        )
        return len(done.all())

    async def relate_all(self, embed: Callable[[list[str]], Any]) -> dict[str, int]:
        """Embeds the breads and ingredients that lack an embedding (EMBED: labels -> vectors,
        awaitable), then relates every sandwich to those stored before it; the counts."""
        async with self.engine.connect() as conn:
            bare = (
                await conn.execute(
                    select(SANDWICHES.c.id, SANDWICHES.c.bread_top, SANDWICHES.c.bread_bottom).where(
                        SANDWICHES.c.bread_top_embedding.is_(None) | SANDWICHES.c.bread_bottom_embedding.is_(None)
                    )
                )
            ).all()
            plain = (
                await conn.execute(
                    select(INGREDIENTS.c.id, INGREDIENTS.c.text).where(INGREDIENTS.c.embedding.is_(None))
                )
            ).all()
        texts = list(dict.fromkeys([x for r in bare for x in (r.bread_top, r.bread_bottom)] + [r.text for r in plain]))
        vectors = dict(zip(texts, await embed(texts))) if texts else {}
        added = 0
        async with self.engine.begin() as conn:
            for b in bare:
                await conn.execute(
                    update(SANDWICHES)
                    .where(SANDWICHES.c.id == b.id)
                    .values(bread_top_embedding=vectors[b.bread_top], bread_bottom_embedding=vectors[b.bread_bottom])
                )
            for p in plain:
                await conn.execute(
                    update(INGREDIENTS).where(INGREDIENTS.c.id == p.id).values(embedding=vectors[p.text])
                )
            rows = (await conn.execute(select(*COLS).order_by(SANDWICHES.c.created_at, SANDWICHES.c.id))).all()
            for row in rows:
                added += await self._relate(conn, facts_of_row(row), (row.created_at, row.id))
        return {"embedded_sandwiches": len(bare), "embedded_ingredients": len(plain), "relations_added": added}
