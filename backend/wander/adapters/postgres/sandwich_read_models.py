"""The SANDWICH corpus's reading side in Postgres: sandwiches, vector similarity (004 5.3),
the foraging log and runs, the analysis queries of 004 (7, 8.1) and the wanders' crystals not
yet stored as sandwiches; each row as a typed read model (wander.core.domain.sandwich_views).
Mixed into SandwichRepository, which supplies the engine."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

import numpy as np
from sqlalchemy import Executable, select, text
from sqlalchemy.ext.asyncio import AsyncEngine

from wander.adapters.postgres.columns import SizedVector
from wander.adapters.postgres.sandwich_tables import (
    LOG,
    RUNS,
    SANDWICHES,
    SOURCES,
)
from wander.core.domain.sandwich_views import (
    CrossDomainBreadRow,
    ForageLogRow,
    ForageRunRow,
    ForagingEfficiencyRow,
    IngredientFrequencyRow,
    MetricInputs,
    SandwichRow,
    SimilarSandwich,
    TypeDistributionRow,
    TypeExample,
    UnstoredCrystal,
    ValidityOverTimeRow,
)

T = TypeVar("T")


class SandwichReadModels:
    engine: AsyncEngine

    # ---- reading -------------------------------------------------------------------------------

    async def _fetch(self, make: Callable[..., T], query: Executable | str, **params: Any) -> list[T]:
        """Each row of a query (a select, or SQL text with its parameters) as make(**columns)."""
        q = text(query) if isinstance(query, str) else query
        async with self.engine.connect() as conn:
            return [make(**_plain(dict(r._mapping))) for r in (await conn.execute(q, params or None)).all()]

    async def _rows(self, sql: str, **params: Any) -> list[dict[str, Any]]:
        return await self._fetch(dict, sql, **params)

    async def sandwiches(self, limit: int = 50, origin: str | None = None) -> list[SandwichRow]:
        hidden = ("filling_embedding", "sandwich_embedding", "bread_top_embedding", "bread_bottom_embedding", "lineage")
        cols = [c for c in SANDWICHES.c if c.name not in hidden]
        q = select(*cols).order_by(SANDWICHES.c.created_at.desc()).limit(limit)
        if origin is not None:
            q = q.where(SANDWICHES.c.origin == origin)
        return await self._fetch(SandwichRow, q)

    async def similar(self, vector: np.ndarray, limit: int = 10) -> list[SimilarSandwich]:
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
        return await self._fetch(SimilarSandwich, q)

    async def best_per_type(self) -> dict[str, TypeExample]:
        rows = await self._fetch(
            TypeExample,
            """
            SELECT DISTINCT ON (structural_type) structural_type, name, bread_top, filling, bread_bottom,
                   validity_score AS v
            FROM sandwiches ORDER BY structural_type, validity_score DESC""",
        )
        return {r.structural_type: r for r in rows}

    async def log(self, run_id: str | None = None, limit: int = 100) -> list[ForageLogRow]:
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
        return await self._fetch(ForageLogRow, q)

    async def run(self, run_id: str) -> ForageRunRow | None:
        found = await self._fetch(ForageRunRow, select(RUNS).where(RUNS.c.id == uuid.UUID(run_id)))
        return found[0] if found else None

    async def type_distribution(self) -> list[TypeDistributionRow]:
        return await self._fetch(
            TypeDistributionRow,
            """
            SELECT structural_type, COUNT(*) AS sandwich_count, AVG(validity_score) AS avg_validity,
                   MIN(validity_score) AS min_validity, MAX(validity_score) AS max_validity
            FROM sandwiches GROUP BY structural_type ORDER BY sandwich_count DESC, structural_type""",
        )

    async def ingredient_frequency(self, limit: int = 20) -> list[IngredientFrequencyRow]:
        return await self._fetch(
            IngredientFrequencyRow,
            """
            SELECT text, ingredient_type, usage_count FROM sandwich_ingredient_catalog
            ORDER BY usage_count DESC, text LIMIT :limit""",
            limit=limit,
        )

    async def validity_over_time(self) -> list[ValidityOverTimeRow]:
        return await self._fetch(
            ValidityOverTimeRow,
            """
            SELECT date_trunc('day', created_at) AS day, COUNT(*) AS sandwiches, AVG(validity_score) AS avg_validity,
                   AVG(novelty_score) AS avg_novelty
            FROM sandwiches GROUP BY 1 ORDER BY 1""",
        )

    async def foraging_efficiency(self, limit: int = 50) -> list[ForagingEfficiencyRow]:
        return await self._fetch(
            ForagingEfficiencyRow,
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

    async def cross_domain_breads(self, limit: int = 20) -> list[CrossDomainBreadRow]:
        return await self._fetch(
            CrossDomainBreadRow,
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

    async def metric_inputs(self) -> MetricInputs:
        """The raw figures behind 8.1's metrics (see wander.core.sandwich.analysis)."""
        (counts,) = await self._rows("""
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
        return MetricInputs(**counts, novelty_series=[float(r["novelty_score"]) for r in novelty])

    async def unstored_crystals(self) -> list[UnstoredCrystal]:
        """Crystals (not invalidated) with their bread loci, not yet in the sandwich corpus."""
        q = text("""
            SELECT c.id, c.insight, c.validity, c.structural_type, c.domains,
                   a.concept AS bread_a, a.embedding AS bread_a_embedding, a.domains AS bread_a_domains,
                   b.concept AS bread_b, b.embedding AS bread_b_embedding, b.domains AS bread_b_domains
            FROM wander_crystals c
            JOIN wander_loci a ON a.id = c.bread_a_locus_id
            JOIN wander_loci b ON b.id = c.bread_b_locus_id
            WHERE c.status <> 'invalidated'
              AND NOT EXISTS (SELECT 1 FROM sandwiches s WHERE s.crystal_id = c.id)
            ORDER BY c.created_at""")
        # Typed, the vector columns are parsed (from pgvector's text form) rather than left as text.
        typed = q.columns(bread_a_embedding=SizedVector(), bread_b_embedding=SizedVector())
        return await self._fetch(_unstored_crystal, typed)


def _unstored_crystal(**row: Any) -> UnstoredCrystal:
    for k in ("bread_a_embedding", "bread_b_embedding"):
        row[k] = np.asarray(row[k], dtype=np.float32)
    return UnstoredCrystal(**row)


def _plain(row: dict[str, Any]) -> dict[str, Any]:
    """Ids and times as text, numerics (Decimal) as floats: the read models' field types."""
    out = {}
    for k, v in row.items():
        if isinstance(v, uuid.UUID):
            v = str(v)
        elif isinstance(v, datetime):
            v = v.isoformat()
        elif hasattr(v, "__float__") and not isinstance(v, (int, float, bool, np.ndarray)):
            v = float(v)
        out[k] = v
    return out
