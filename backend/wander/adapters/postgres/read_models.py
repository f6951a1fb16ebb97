"""Read models: the walk as typed steps (trace, the steps at a locus), semantic search
over loci, crystals and resonances, and the evidence a rumination lens sees."""

from __future__ import annotations

from typing import Any

import numpy as np
from sqlalchemy import cast, func, or_, select
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.asyncio import AsyncEngine

from wander.adapters.postgres.mappers import as_uuid, parse_uuid
from wander.adapters.postgres.table_aliases import CP, RS, C, L, R, S, T, W
from wander.core.domain.models import CrystalStatus, Locus, ResonanceStatus, Session, SourceType
from wander.core.domain.views import EvidenceItem, SimilarItem, StepView


def _str(value: Any) -> str | None:
    return str(value) if value is not None else None


def _steps_query(where: Any) -> Any:
    frm, to = L.alias("frm"), L.alias("to")
    return (
        select(
            T,
            frm.c.concept.label("from_concept"),
            to.c.concept.label("to_concept"),
            to.c.domains.label("to_domains"),
            R.c.connection,
            R.c.tension,
            R.c.bridge,
            R.c.surprise,
            R.c.possibility,
            R.c.themes,
            R.c.interestingness.label("residue_interestingness"),
            R.c.actionability.label("residue_actionability"),
            R.c.details,
        )
        .join(to, to.c.id == T.c.to_locus_id)
        .outerjoin(frm, frm.c.id == T.c.from_locus_id)
        .outerjoin(R, R.c.trace_id == T.c.id)
        .where(where)
        .order_by(T.c.step_number)
    )


def step_from_row(r: Any) -> StepView:
    return StepView(
        id=str(r.id),
        session_id=str(r.session_id),
        step_number=r.step_number,
        from_locus_id=_str(r.from_locus_id),
        to_locus_id=str(r.to_locus_id),
        from_concept=r.from_concept,
        to_concept=r.to_concept,
        to_domains=list(r.to_domains or []),
        adjacencies_considered=r.adjacencies_considered,
        selection_scores=dict(r.selection_scores or {}),
        selection_reason=r.selection_reason,
        model_used=r.model_used,
        tokens_used=r.tokens_used,
        cost_cents=r.cost_cents,
        worker_id=r.worker_id,
        created_at=r.created_at,
        connection=r.connection,
        tension=r.tension,
        bridge=r.bridge,
        surprise=r.surprise,
        possibility=r.possibility,
        themes=list(r.themes or []),
        residue_interestingness=r.residue_interestingness,
        residue_actionability=r.residue_actionability,
        details=dict(r.details or {}),
    )


class ReadModels:
    def __init__(self, engine: AsyncEngine):
        self.engine = engine

    async def trace(self, session_id: str) -> list[StepView]:
        """The walk in step order, each step with its loci and residue."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(_steps_query(T.c.session_id == as_uuid(session_id)))).all()
        return [step_from_row(r) for r in rows]

    async def linked_to(self, session_id: str, locus_id: str) -> list[Locus]:
        """The loci of the session whose bridges_to or contradicts name the locus (JSONB
        containment), with their concept, domains and links alone (no embedding)."""
        lid = parse_uuid(locus_id)
        if lid is None:
            return []
        probe = cast([{"locus_id": str(lid)}], JSONB)
        q = select(
            L.c.id, L.c.session_id, L.c.concept, L.c.source_type, L.c.domains, L.c.bridges_to, L.c.contradicts
        ).where(
            L.c.session_id == as_uuid(session_id), or_(L.c.bridges_to.contains(probe), L.c.contradicts.contains(probe))
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(q)).all()
        return [
            Locus(
                id=str(r.id),
                session_id=str(r.session_id),
                concept=r.concept,
                embedding=np.zeros(0, dtype=np.float32),
                source_type=SourceType(r.source_type),
                domains=list(r.domains or []),
                bridges_to=list(r.bridges_to or []),
                contradicts=list(r.contradicts or []),
            )
            for r in rows
        ]

    async def locus_steps(self, locus_id: str) -> list[StepView]:
        """The steps that arrived at or left a locus, in order, with their residues."""
        lid = as_uuid(locus_id)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(_steps_query((T.c.to_locus_id == lid) | (T.c.from_locus_id == lid)))).all()
        return [step_from_row(r) for r in rows]

    async def search(self, project_id: str, vector: np.ndarray, types: list[str], limit: int) -> list[SimilarItem]:
        """Semantic search over loci, crystals and resonances (pgvector HNSW, cosine)."""
        v = np.asarray(vector, dtype=np.float32)
        pid = as_uuid(project_id)
        queries = []
        if "locus" in types:
            d = L.c.embedding.cosine_distance(v)
            queries.append(
                (
                    "locus",
                    select(L.c.id, L.c.session_id, L.c.concept.label("text"), (1 - d).label("sim"))
                    .join(S, S.c.id == L.c.session_id)
                    .where(S.c.project_id == pid)
                    .order_by(d)
                    .limit(limit),
                )
            )
        if "crystal" in types:
            d = C.c.embedding.cosine_distance(v)
            queries.append(
                (
                    "crystal",
                    select(C.c.id, C.c.session_id, C.c.insight.label("text"), (1 - d).label("sim"))
                    .where(C.c.project_id == pid)
                    .order_by(d)
                    .limit(limit),
                )
            )
        if "resonance" in types:
            d = RS.c.embedding.cosine_distance(v)
            queries.append(
                (
                    "resonance",
                    select(
                        RS.c.id,
                        RS.c.session_id,
                        func.array_to_string(RS.c.themes, ", ").label("text"),
                        (1 - d).label("sim"),
                    )
                    .where(RS.c.project_id == pid)
                    .order_by(d)
                    .limit(limit),
                )
            )
        out: list[SimilarItem] = []
        async with self.engine.connect() as conn:
            for kind, q in queries:
                out += [
                    SimilarItem(
                        type=kind,
                        id=str(r.id),
                        session_id=_str(r.session_id),
                        text=r.text,
                        similarity=round(float(r.sim), 4),
                    )
                    for r in (await conn.execute(q)).all()
                ]
        out.sort(key=lambda x: -x.similarity)
        return out[:limit]

    async def lens_evidence(self, session: Session, lens: str, vector: np.ndarray, k: int) -> list[EvidenceItem]:
        sid, pid = as_uuid(session.id), as_uuid(session.project_id)
        v = np.asarray(vector, dtype=np.float32)
        facets = ("connection", "tension", "bridge", "surprise", "possibility")
        if lens == "constraints":
            items = [
                EvidenceItem(f"fence:{i}", "constraint", f"fence {a.action}s '{a.concept}'", float(a.embedding @ v))
                for i, a in enumerate(session.fence)
            ]
            if session.allowed_domains or session.forbidden_domains:
                domains = f"allowed {session.allowed_domains or 'all'}, forbidden {session.forbidden_domains or 'none'}"
                items.append(EvidenceItem("domains", "constraint", domains, 0.0))
            budget = (
                f"cloud budget {session.cloud_spent_cents}/{session.cloud_budget_cents} cents, "
                f"drift at most {session.max_drift_distance}"
            )
            items.append(EvidenceItem("budget", "constraint", budget, 0.0))
            return items
        if lens == "loci":
            table, text, where = L, L.c.concept, L.c.session_id == sid
            col = L.c.embedding
        elif lens in facets:
            table, text, where, col = R, R.c[lens], R.c.session_id == sid, R.c.themes_embedding
        elif lens == "resonances":
            table, text, col = RS, func.array_to_string(RS.c.themes, ", "), RS.c.embedding
            where = (RS.c.project_id == pid) & (RS.c.status != ResonanceStatus.INVALIDATED.value)
        elif lens == "crystals":
            table, text, col = C, C.c.insight, C.c.embedding
            where = (C.c.project_id == pid) & (C.c.status != CrystalStatus.INVALIDATED.value)
        elif lens == "failed_paths":
            table, text, col = W, W.c.content["from"].astext + " / " + W.c.content["to"].astext, W.c.embedding
            where = (W.c.session_id == sid) & (W.c.cluster_type == "failed_path")
        elif lens == "compost":
            table, text, col, where = CP, CP.c.text, CP.c.embedding, CP.c.session_id == sid
        else:
            raise ValueError(f"unknown lens {lens}")
        dist = col.cosine_distance(v)
        q = select(table.c.id, text.label("summary"), (1 - dist).label("sim")).where(where, col.isnot(None))
        q = q.order_by(dist).limit(k)
        kind = {
            "loci": "locus",
            "resonances": "resonance",
            "crystals": "crystal",
            "failed_paths": "failed_path",
            "compost": "compost",
        }.get(lens, f"residue.{lens}")
        async with self.engine.connect() as conn:
            rows = (await conn.execute(q)).all()
        # A residue's facets are separate nodes of the graph: one id per facet.
        suffix = f"#{lens}" if lens in facets else ""
        return [EvidenceItem(f"{r.id}{suffix}", kind, (r.summary or "")[:200], float(r.sim)) for r in rows]
