"""004's data model read back (mixed into SandwichRepository): the structural types with their
parent, canonical example and validity stats, the relations of a sandwich (5.3's "similar
structure" and every other kind), the sandwiches using a bread concept (5.3), and 7.2's
research queries. Rows are plain JSON-ready dicts."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import numpy as np
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from wander.adapters.postgres.columns import SizedVector, vector_dim
from wander.adapters.postgres.sandwich_corpus_tables import STRUCTURAL_TYPES  # noqa: F401  (the table joins the metadata)
from wander.adapters.postgres.sandwich_read_models import _plain
from wander.core.domain.errors import InvalidInput, NotFound
from wander.core.domain.sandwich import ACCEPT
from wander.core.sandwich.relations import KINDS
from wander.core.sandwich.research import predict_validity

RESEARCH = {  # 7.2's questions, by the name of the query that answers each
    "types_across_domains": "What structural types appear most frequently across all domains?",
    "cross_domain_breads": "Which bread concepts have the most cross-domain usage?",
    "filling_specificity": "Are there fillings that only work with specific bread types?",
    "bread_distance": "What is the average 'distance' between bread elements in valid sandwiches?",
    "validity_by_source_domain": "Do certain source domains produce higher-validity sandwiches?",
    "underrepresented_types": "What sandwich structures are underrepresented in the corpus?",
    "validity_prediction": "Can we predict sandwich validity from ingredient embeddings alone?",
}


def _uuid(field: str, value: str) -> uuid.UUID:
    try:
        return uuid.UUID(str(value))
    except ValueError as exc:
        raise InvalidInput(field, f"must be a UUID (got '{value}')") from exc


class SandwichCorpusQueries:
    engine: AsyncEngine

    async def _rows(self, sql: str, **params: Any) -> list[dict[str, Any]]:
        async with self.engine.connect() as conn:
            return [_plain(dict(r._mapping)) for r in (await conn.execute(text(sql), params or None)).all()]

    async def structural_types(self) -> list[dict[str, Any]]:
        """The taxonomy (004 4.2) with each type's parent, canonical examples (004's, and the
        corpus's best sandwich of the type) and 5.3's validity stats by type."""
        return await self._rows("""
            SELECT st.type_id, st.name, st.description, st.bread_relation, st.filling_role,
                   p.name AS parent, st.canonical_example, st.canonical_example_id,
                   ce.name AS canonical_example_name,
                   COUNT(s.id) AS sandwich_count, AVG(s.validity_score) AS avg_validity,
                   MIN(s.validity_score) AS min_validity, MAX(s.validity_score) AS max_validity
            FROM structural_types st
            LEFT JOIN structural_types p ON p.type_id = st.parent_type_id
            LEFT JOIN sandwiches ce ON ce.id = st.canonical_example_id
            LEFT JOIN sandwiches s ON s.structural_type = st.name
            GROUP BY st.type_id, p.name, ce.name ORDER BY st.type_id""")

    async def related(self, sandwich_id: str, relation_type: str | None = None) -> list[dict[str, Any]]:
        """The sandwich's relations of either direction ('similar' alone: 5.3's sandwiches with
        a similar structure), strongest first; `direction` says whether the relation was
        stored from this sandwich (out) or to it (in); for a generalization, out means the
        other sandwich is the more general one."""
        sid = _uuid("sandwich_id", sandwich_id)
        if relation_type is not None and relation_type not in KINDS:
            raise InvalidInput("type", f"must be one of {', '.join(KINDS)} (got '{relation_type}')")
        found = await self._rows("SELECT 1 AS x FROM sandwiches WHERE id = :sid", sid=sid)
        if not found:
            raise NotFound("sandwich", sandwich_id)
        return await self._rows(
            """
            SELECT r.relation_type, CASE WHEN r.sandwich_a = :sid THEN 'out' ELSE 'in' END AS direction,
                   s.id AS sandwich_id, s.name, s.bread_top, s.filling, s.bread_bottom, s.structural_type,
                   s.validity_score, r.similarity_score, r.rationale
            FROM sandwich_relations r
            JOIN sandwiches s ON s.id = CASE WHEN r.sandwich_a = :sid THEN r.sandwich_b ELSE r.sandwich_a END
            WHERE (r.sandwich_a = :sid OR r.sandwich_b = :sid)
              AND (CAST(:kind AS text) IS NULL OR r.relation_type = :kind)
            ORDER BY r.similarity_score DESC, r.relation_type, s.name""",
            sid=sid,
            kind=relation_type,
        )

    async def relation_counts(self) -> dict[str, int]:
        rows = await self._rows("SELECT relation_type, COUNT(*) AS n FROM sandwich_relations GROUP BY 1")
        return {k: 0 for k in KINDS} | {r["relation_type"]: int(r["n"]) for r in rows}

    async def by_bread(self, concept: str, limit: int = 50) -> list[dict[str, Any]]:
        """5.3: every sandwich using a bread concept whose text contains CONCEPT (any case)."""
        concept = (concept or "").strip()
        if not concept:
            raise InvalidInput("concept", "must not be empty")
        pattern = "%" + concept.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        return await self._rows(
            """
            SELECT DISTINCT s.id, s.name, s.bread_top, s.filling, s.bread_bottom, s.structural_type,
                   s.validity_score, s.created_at, i.text AS bread_concept, si.role
            FROM sandwiches s
            JOIN sandwich_ingredients si ON si.sandwich_id = s.id
            JOIN sandwich_ingredient_catalog i ON i.id = si.ingredient_id
            WHERE i.text ILIKE :pattern AND i.ingredient_type = 'bread'
            ORDER BY s.validity_score DESC, s.created_at DESC LIMIT :limit""",
            pattern=pattern,
            limit=limit,
        )

    # ---- 7.2's research queries -----------------------------------------------------------------

    async def research(self, name: str) -> dict[str, Any]:
        """{query, question, answer (rows, or the fit's figures for validity_prediction)}."""
        if name not in RESEARCH:
            raise InvalidInput("query", f"must be one of {', '.join(RESEARCH)} (got '{name}')")
        answer: Any = await getattr(self, f"_research_{name}")()
        return {"query": name, "question": RESEARCH[name], "answer": answer}

    async def _research_types_across_domains(self) -> list[dict[str, Any]]:
        return await self._rows("""
            SELECT s.structural_type, COUNT(DISTINCT s.id) AS sandwich_count,
                   COUNT(DISTINCT d.domain) AS domain_count,
                   COALESCE(ARRAY_AGG(DISTINCT d.domain) FILTER (WHERE d.domain IS NOT NULL), '{}') AS domains
            FROM sandwiches s LEFT JOIN LATERAL unnest(s.domains) AS d(domain) ON TRUE
            GROUP BY s.structural_type ORDER BY domain_count DESC, sandwich_count DESC, s.structural_type""")

    async def _research_cross_domain_breads(self) -> list[dict[str, Any]]:
        """Bread concepts by the domains of the sandwiches using them (a sandwich's own domains:
        a crystal has no source, so 5.3's source-domain version misses them)."""
        return await self._rows("""
            SELECT i.text AS bread_concept, COUNT(DISTINCT d.domain) AS domain_count,
                   ARRAY_AGG(DISTINCT d.domain) AS domains, COUNT(DISTINCT s.id) AS sandwich_count
            FROM sandwich_ingredient_catalog i
            JOIN sandwich_ingredients si ON si.ingredient_id = i.id
            JOIN sandwiches s ON s.id = si.sandwich_id
            CROSS JOIN LATERAL unnest(s.domains) AS d(domain)
            WHERE i.ingredient_type = 'bread'
            GROUP BY i.text HAVING COUNT(DISTINCT d.domain) > 1
            ORDER BY domain_count DESC, i.text LIMIT 20""")

    async def _research_filling_specificity(self) -> list[dict[str, Any]]:
        """Fillings used more than once: with how many bread pairs and structural types;
        `specific` when every use has the same bread pair or the same type."""
        return await self._rows("""
            SELECT filling, COUNT(*) AS sandwich_count,
                   COUNT(DISTINCT LEAST(bread_top, bread_bottom) || ' / ' || GREATEST(bread_top, bread_bottom))
                     AS bread_pairs,
                   COUNT(DISTINCT structural_type) AS structural_types,
                   ARRAY_AGG(DISTINCT structural_type) AS types,
                   (COUNT(DISTINCT structural_type) = 1 OR COUNT(DISTINCT
                     LEAST(bread_top, bread_bottom) || ' / ' || GREATEST(bread_top, bread_bottom)) = 1) AS specific
            FROM sandwiches GROUP BY filling HAVING COUNT(*) > 1
            ORDER BY specific DESC, sandwich_count DESC, filling LIMIT 50""")

    async def _research_bread_distance(self) -> list[dict[str, Any]]:
        """The cosine distance between the two breads of valid sandwiches (V >= ACCEPT, with
        bread embeddings), over all of them (structural_type 'all') and by type."""
        return await self._rows(
            """
            WITH d AS (
              SELECT structural_type, bread_top_embedding <=> bread_bottom_embedding AS distance
              FROM sandwiches
              WHERE validity_score >= :accept AND bread_top_embedding IS NOT NULL
                AND bread_bottom_embedding IS NOT NULL)
            SELECT 'all' AS structural_type, COUNT(*) AS sandwiches, AVG(distance) AS avg_distance,
                   MIN(distance) AS min_distance, MAX(distance) AS max_distance FROM d HAVING COUNT(*) > 0
            UNION ALL
            SELECT * FROM (SELECT structural_type, COUNT(*), AVG(distance), MIN(distance), MAX(distance)
                           FROM d GROUP BY structural_type ORDER BY 2 DESC, 1) AS by_type""",
            accept=ACCEPT,
        )

    async def _research_validity_by_source_domain(self) -> list[dict[str, Any]]:
        """Mean V by the domain of the source foraged (crystals: 'wander crystal')."""
        return await self._rows("""
            SELECT COALESCE(src.domain, CASE WHEN s.origin = 'crystal' THEN 'wander crystal' ELSE 'unknown' END)
                     AS source_domain,
                   COUNT(*) AS sandwich_count, AVG(s.validity_score) AS avg_validity,
                   MIN(s.validity_score) AS min_validity, MAX(s.validity_score) AS max_validity
            FROM sandwiches s LEFT JOIN sandwich_sources src ON src.id = s.source_id
            GROUP BY 1 ORDER BY avg_validity DESC, 1""")

    async def _research_underrepresented_types(self) -> list[dict[str, Any]]:
        """Each taxonomy type's share of the corpus against an even share (1 / types):
        `underrepresented` below half the even share; fewest first."""
        return await self._rows("""
            WITH c AS (SELECT st.name, COUNT(s.id) AS n FROM structural_types st
                       LEFT JOIN sandwiches s ON s.structural_type = st.name GROUP BY st.name),
                 t AS (SELECT SUM(n) AS total, COUNT(*) AS types FROM c)
            SELECT c.name AS structural_type, c.n AS sandwich_count,
                   CASE WHEN t.total > 0 THEN c.n::float / t.total ELSE 0 END AS share,
                   1.0 / t.types AS even_share,
                   (t.total = 0 OR c.n::float / t.total < 0.5 / t.types) AS underrepresented
            FROM c, t ORDER BY c.n, c.name""")

    async def _research_validity_prediction(self) -> dict[str, Any]:
        q = text("""
            SELECT bread_top_embedding, filling_embedding, bread_bottom_embedding, validity_score FROM sandwiches
            WHERE bread_top_embedding IS NOT NULL AND bread_bottom_embedding IS NOT NULL
            ORDER BY created_at, id""").columns(
            bread_top_embedding=SizedVector(), filling_embedding=SizedVector(), bread_bottom_embedding=SizedVector()
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(q)).all()
        if not rows:
            return predict_validity(np.zeros((0, 3 * vector_dim())), np.zeros(0))
        x = np.stack([np.concatenate([np.asarray(r[0]), np.asarray(r[1]), np.asarray(r[2])]) for r in rows])
        return await asyncio.to_thread(predict_validity, x, np.array([float(r[3]) for r in rows]))
