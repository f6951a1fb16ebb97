"""The Store port on Postgres: sessions, loci, traces, residues and the event outbox.

Every write that changes a wander also writes its events to wander_events in the same
transaction, numbered from the session row's event_seq, which the transaction holds
locked: so seq is gapless per session, and a crash loses the change and its events
together or neither."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from datetime import datetime
from typing import Any

import numpy as np
from sqlalchemy import and_, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from wander.domain.errors import Conflict, StepAlreadyCommitted
from wander.domain.models import (
    CompostItem,
    Crystal,
    Event,
    EventDraft,
    FenceAnchor,
    HotItem,
    Locus,
    Resonance,
    ResonanceStatus,
    Session,
    SessionStatus,
    SourceType,
    WarmMemory,
)
from wander.engine.ports import SessionControls, StepCommit, WalkState
from wander.store.intervention_repository import InterventionWrites
from wander.store.tables import (
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

S = WanderSession.__table__
L = WanderLocus.__table__
T = WanderTrace.__table__
R = WanderResidue.__table__
E = WanderEvent.__table__
RS = WanderResonance.__table__
C = WanderCrystal.__table__
W = WanderWarmMemory.__table__
CP = WanderCompost.__table__


def fence_from_json(items: list[dict] | None) -> list[FenceAnchor]:
    return [FenceAnchor(i["concept"], i["action"], np.asarray(i["embedding"], dtype=np.float32)) for i in items or []]


def fence_to_json(anchors: list[FenceAnchor]) -> list[dict]:
    return [{"concept": a.concept, "action": a.action, "embedding": [round(float(x), 6) for x in a.embedding]}
            for a in anchors]  # fmt: skip


def resonance_from_row(r: Any) -> Resonance:
    return Resonance(
        id=str(r.id), project_id=str(r.project_id), session_id=str(r.session_id) if r.session_id else None,
        themes=list(r.themes), embedding=_vec(r.embedding), occurrences=r.occurrences, strength=r.strength,
        status=ResonanceStatus(r.status), supporting_residue_ids=[str(x) for x in r.supporting_residue_ids or []],
        last_reinforced_at=r.last_reinforced_at, decay_rate=r.decay_rate, created_at=r.created_at,
    )  # fmt: skip


def _resonance_values(r: Resonance) -> dict[str, Any]:
    return dict(project_id=_uuid(r.project_id), session_id=_uuid(r.session_id), themes=r.themes,
                embedding=r.embedding, occurrences=r.occurrences, strength=r.strength, status=str(r.status),
                supporting_residue_ids=[_uuid(x) for x in r.supporting_residue_ids],
                last_reinforced_at=r.last_reinforced_at, decay_rate=r.decay_rate)  # fmt: skip


def warm_from_row(r: Any) -> WarmMemory:
    return WarmMemory(id=str(r.id), session_id=str(r.session_id), cluster_type=r.cluster_type, content=r.content,
                      embedding=_vec(r.embedding), strength=r.strength, last_accessed_at=r.last_accessed_at,
                      created_at=r.created_at, expires_at=r.expires_at)  # fmt: skip


def crystal_from_row(r: Any) -> Crystal:
    return Crystal(
        id=str(r.id), project_id=str(r.project_id), session_id=str(r.session_id) if r.session_id else None,
        insight=r.insight, embedding=_vec(r.embedding), confidence=r.confidence, actionability=r.actionability,
        domains=list(r.domains), status=r.status,
        source_resonance_id=str(r.source_resonance_id) if r.source_resonance_id else None,
        source_locus_id=str(r.source_locus_id) if r.source_locus_id else None,
        supporting_evidence=list(r.supporting_evidence or []),
        bread_a_locus_id=str(r.bread_a_locus_id) if r.bread_a_locus_id else None,
        bread_b_locus_id=str(r.bread_b_locus_id) if r.bread_b_locus_id else None, validity=dict(r.validity or {}),
        structural_type=r.structural_type, rumination=list(r.rumination or []), validated_by=r.validated_by,
        validation_notes=r.validation_notes, human_approved=r.human_approved, created_at=r.created_at,
    )  # fmt: skip


def _crystal_values(c: Crystal) -> dict[str, Any]:
    return dict(
        id=_uuid(c.id), project_id=_uuid(c.project_id), session_id=_uuid(c.session_id), insight=c.insight,
        embedding=c.embedding, confidence=c.confidence, actionability=c.actionability, domains=c.domains,
        status=c.status, source_resonance_id=_uuid(c.source_resonance_id), source_locus_id=_uuid(c.source_locus_id),
        supporting_evidence=c.supporting_evidence, bread_a_locus_id=_uuid(c.bread_a_locus_id),
        bread_b_locus_id=_uuid(c.bread_b_locus_id), validity=c.validity, structural_type=c.structural_type,
        rumination=c.rumination, validated_by=c.validated_by, validation_notes=c.validation_notes,
        human_approved=c.human_approved, created_at=c.created_at,
    )  # fmt: skip


def _uuid(value: str | None) -> uuid.UUID | None:
    return uuid.UUID(value) if value else None


def parse_uuid(value: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(value))
    except ValueError:
        return None


def _vec(v: Any) -> np.ndarray | None:
    return None if v is None else np.asarray(v, dtype=np.float32)


def session_from_row(r: Any) -> Session:
    return Session(
        id=str(r.id), project_id=str(r.project_id), name=r.name, seed_concept=r.seed_concept,
        seed_embedding=_vec(r.seed_embedding), attractor=r.attractor, attractor_embedding=_vec(r.attractor_embedding),
        status=SessionStatus(r.status), allowed_domains=list(r.allowed_domains or []),
        forbidden_domains=list(r.forbidden_domains or []), max_drift_distance=r.max_drift_distance,
        max_steps=r.max_steps, cloud_budget_cents=r.cloud_budget_cents, cloud_spent_cents=r.cloud_spent_cents,
        local_calls=r.local_calls, cloud_calls=r.cloud_calls, temperature=r.temperature,
        human_checkpoint_frequency=r.human_checkpoint_frequency, random_seed=r.random_seed,
        step_count=r.step_count, current_locus_id=str(r.current_locus_id) if r.current_locus_id else None,
        stopped_reason=r.stopped_reason, parent_session_id=str(r.parent_session_id) if r.parent_session_id else None,
        run_until_step=r.run_until_step, event_seq=r.event_seq, fence=fence_from_json(r.fence),
        pending_injection=r.pending_injection, parent_locus_id=str(r.parent_locus_id) if r.parent_locus_id else None, created_at=r.created_at, last_step_at=r.last_step_at, completed_at=r.completed_at,
    )  # fmt: skip


def locus_from_row(r: Any) -> Locus:
    return Locus(
        id=str(r.id), session_id=str(r.session_id), concept=r.concept, embedding=_vec(r.embedding),
        source_type=SourceType(r.source_type), domains=list(r.domains or []), abstraction_level=r.abstraction_level,
        novelty_score=r.novelty_score, interestingness=r.interestingness, actionability=r.actionability,
        uncertainty=r.uncertainty, visit_count=r.visit_count, kb_key=r.kb_key, first_encountered=r.first_encountered,
        last_visited=r.last_visited, adjacent_to=list(r.adjacent_to or []),
    )  # fmt: skip


def _session_values(s: Session) -> dict[str, Any]:
    return dict(
        project_id=_uuid(s.project_id), name=s.name, status=str(s.status), seed_concept=s.seed_concept,
        seed_embedding=s.seed_embedding, attractor=s.attractor, attractor_embedding=s.attractor_embedding,
        allowed_domains=s.allowed_domains, forbidden_domains=s.forbidden_domains,
        max_drift_distance=s.max_drift_distance, max_steps=s.max_steps, cloud_budget_cents=s.cloud_budget_cents,
        cloud_spent_cents=s.cloud_spent_cents, local_calls=s.local_calls, cloud_calls=s.cloud_calls,
        temperature=s.temperature, human_checkpoint_frequency=s.human_checkpoint_frequency,
        random_seed=s.random_seed, step_count=s.step_count, current_locus_id=_uuid(s.current_locus_id),
        stopped_reason=s.stopped_reason, parent_session_id=_uuid(s.parent_session_id),
        run_until_step=s.run_until_step, fence=fence_to_json(s.fence), pending_injection=s.pending_injection,
        parent_locus_id=_uuid(s.parent_locus_id), last_step_at=s.last_step_at, completed_at=s.completed_at,
    )  # fmt: skip


def _locus_values(lo: Locus) -> dict[str, Any]:
    return dict(
        id=_uuid(lo.id), session_id=_uuid(lo.session_id), concept=lo.concept, embedding=lo.embedding,
        source_type=str(lo.source_type), domains=lo.domains, abstraction_level=lo.abstraction_level,
        novelty_score=lo.novelty_score, interestingness=lo.interestingness, actionability=lo.actionability,
        uncertainty=lo.uncertainty, visit_count=lo.visit_count, kb_key=lo.kb_key,
        first_encountered=lo.first_encountered, last_visited=lo.last_visited, adjacent_to=lo.adjacent_to,
    )  # fmt: skip


class PostgresStore(InterventionWrites):
    def __init__(self, engine: AsyncEngine):
        self.engine = engine

    # ---- outbox ------------------------------------------------------------------------

    async def _append_events(
        self, conn: AsyncConnection, session_id: str, first_seq: int, drafts: list[EventDraft], ts: datetime | None
    ) -> list[Event]:
        events = []
        # The time the event is written (not the start of its transaction or of the step).
        now = ts or (await conn.execute(select(func.clock_timestamp()))).scalar_one()
        for i, d in enumerate(drafts):
            events.append(Event(session_id=session_id, seq=first_seq + i, subject=d.subject, ts=now, payload=d.payload))
        if events:
            await conn.execute(
                insert(E),
                [dict(session_id=_uuid(e.session_id), seq=e.seq, subject=e.subject, ts=e.ts, payload=e.payload)
                 for e in events],
            )  # fmt: skip
            await conn.execute(
                update(S).where(S.c.id == _uuid(session_id)).values(event_seq=first_seq + len(events) - 1)
            )
        return events

    async def _lock_session(self, conn: AsyncConnection, session_id: str) -> Any:
        row = (
            await conn.execute(
                select(S.c.status, S.c.step_count, S.c.event_seq).where(S.c.id == _uuid(session_id)).with_for_update()
            )
        ).first()
        if row is None:
            raise Conflict(f"session {session_id} no longer exists")
        return row

    # ---- sessions ------------------------------------------------------------------------

    async def create_session(self, session: Session, seed_loci: list[Locus], events: list[EventDraft]) -> list[Event]:
        """The session, its seed locus first (then any planted seeds), and their events."""
        async with self.engine.begin() as conn:
            await conn.execute(insert(S).values(id=_uuid(session.id), created_at=session.created_at,
                                                **_session_values(session)))  # fmt: skip
            for locus in seed_loci:
                await conn.execute(insert(L).values(**_locus_values(locus)))
            return await self._append_events(conn, session.id, 1, events, session.created_at)

    async def get_session(self, session_id: str) -> Session | None:
        sid = parse_uuid(session_id)
        if sid is None:
            return None
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(S).where(S.c.id == sid))).first()
        return session_from_row(row) if row else None

    async def list_sessions(self, status: str | None = None, limit: int = 50, offset: int = 0) -> list[Session]:
        q = select(S).order_by(S.c.created_at.desc()).limit(limit).offset(offset)
        if status:
            q = q.where(S.c.status == status)
        async with self.engine.connect() as conn:
            return [session_from_row(r) for r in (await conn.execute(q)).all()]

    async def set_status(
        self, session_id: str, status: str, reason: str | None, events: list[EventDraft],
        allowed_from: Iterable[str] | None = None,
    ) -> list[Event]:  # fmt: skip
        """Change the status; with allowed_from, only from one of those (checked under the row lock,
        so a step that completes the wander meanwhile wins over a late pause)."""
        async with self.engine.begin() as conn:
            row = await self._lock_session(conn, session_id)
            if allowed_from is not None and row.status not in set(allowed_from):
                raise Conflict(f"session {session_id} is {row.status}; cannot become {status}")
            values: dict[str, Any] = {"status": status, "stopped_reason": reason}
            if status == "completed":
                values["completed_at"] = func.now()
            elif status == "active":
                values["completed_at"] = None  # a completed wander extended by raising max_steps
            await conn.execute(update(S).where(S.c.id == _uuid(session_id)).values(**values))
            return await self._append_events(conn, session_id, row.event_seq + 1, events, None)

    # ---- walking -------------------------------------------------------------------------

    async def load_walk(self, session_id: str, recent: int = 20, hot: int = 30) -> WalkState:
        """`hot`: how many of the latest encounters are still in HOT memory."""
        sid = _uuid(session_id)
        async with self.engine.connect() as conn:
            srow = (await conn.execute(select(S).where(S.c.id == sid))).one()
            session = session_from_row(srow)
            lrows = (await conn.execute(select(L).where(L.c.session_id == sid).order_by(L.c.first_encountered,
                                                                                        L.c.id))).all()  # fmt: skip
            steps = (
                await conn.execute(
                    select(T.c.step_number, T.c.from_locus_id, T.c.to_locus_id, R.c.id.label("rid"), R.c.themes,
                           R.c.themes_embedding, R.c.interestingness)
                    .outerjoin(R, R.c.trace_id == T.c.id).where(T.c.session_id == sid).order_by(T.c.step_number)
                )
            ).all()  # fmt: skip
            res = (await conn.execute(select(RS).where(RS.c.project_id == _uuid(session.project_id),
                                                       RS.c.status != "invalidated"))).all()  # fmt: skip
            warm = (await conn.execute(select(W).where(W.c.session_id == sid).order_by(W.c.created_at))).all()
            compost = (await conn.execute(select(CP).where(CP.c.session_id == sid).order_by(CP.c.created_at))).all()
            # The crystallization throttle survives reloads: the step of the wander's last crystal
            # (a step's crystal carries the step's own timestamp).
            last_crystal = select(func.max(C.c.created_at)).where(C.c.session_id == sid).scalar_subquery()
            last_crystal_step = (await conn.execute(select(func.max(T.c.step_number)).where(
                T.c.session_id == sid, T.c.created_at <= last_crystal))).scalar_one()  # fmt: skip
        loci = [locus_from_row(r) for r in lrows]
        by_id = {lo.id: lo for lo in loci}
        themes = [t for r in steps[-recent:] for t in (r.themes or [])]
        hot_items = []
        for r in (steps[-hot:] if hot > 0 else []):
            frm, to = by_id.get(str(r.from_locus_id)), by_id.get(str(r.to_locus_id))
            if r.rid is None or to is None:
                continue
            v = _vec(r.themes_embedding) if r.themes_embedding is not None else to.embedding
            hot_items.append(HotItem(r.step_number, str(r.rid), frm.concept if frm else "", to.concept,
                                     list(to.domains), list(r.themes or []), v, r.interestingness or 0.0))  # fmt: skip
        return WalkState(
            session=session, loci=loci, recent_themes=themes,
            relations=[(str(r.from_locus_id), str(r.to_locus_id)) for r in steps if r.from_locus_id],
            hot=hot_items, resonances=[resonance_from_row(r) for r in res], warm=[warm_from_row(r) for r in warm],
            compost=[CompostItem(str(r.id), r.kind, r.text, list((r.content or {}).get("domains", [])), _vec(r.embedding))
                     for r in compost],
            last_crystal_step=last_crystal_step or 0,
        )  # fmt: skip

    async def commit_step(self, commit: StepCommit) -> list[Event]:
        s = commit.session
        try:
            async with self.engine.begin() as conn:
                row = await self._lock_session(conn, s.id)
                if row.status != "active":
                    raise Conflict(f"session {s.id} is {row.status}")
                if row.step_count != commit.expected_step_count:
                    raise StepAlreadyCommitted(f"step {commit.trace.step_number} of {s.id} already committed")
                for lo in commit.new_loci:
                    await conn.execute(insert(L).values(**_locus_values(lo)))
                v = commit.visited_locus
                await conn.execute(
                    update(L).where(L.c.id == _uuid(v.id)).values(
                        visit_count=v.visit_count, last_visited=v.last_visited, novelty_score=v.novelty_score,
                        interestingness=v.interestingness, actionability=v.actionability, uncertainty=v.uncertainty,
                        adjacent_to=v.adjacent_to,
                    )
                )  # fmt: skip
                t = commit.trace
                await conn.execute(insert(T).values(
                    id=_uuid(t.id), session_id=_uuid(t.session_id), step_number=t.step_number,
                    from_locus_id=_uuid(t.from_locus_id), to_locus_id=_uuid(t.to_locus_id),
                    adjacencies_considered=t.adjacencies_considered, selection_scores=t.selection_scores,
                    selection_reason=t.selection_reason, model_used=t.model_used, tokens_used=t.tokens_used,
                    cost_cents=t.cost_cents, worker_id=t.worker_id, created_at=t.created_at,
                ))  # fmt: skip
                r = commit.residue
                await conn.execute(insert(R).values(
                    id=_uuid(commit.residue_id), session_id=_uuid(s.id), trace_id=_uuid(t.id),
                    from_locus_id=_uuid(t.from_locus_id), to_locus_id=_uuid(t.to_locus_id),
                    connection=r.connection, tension=r.tension, bridge=r.bridge, surprise=r.surprise,
                    possibility=r.possibility, themes=r.themes, themes_embedding=r.themes_embedding,
                    interestingness=r.interestingness, actionability=r.actionability, model_used=r.model_used,
                    details={**r.details, **({"failed": True, "raw_output": r.raw_output} if r.failed else {})},
                    created_at=t.created_at,
                ))  # fmt: skip
                await self._commit_memory(conn, commit)
                # Only what a step advances: settings changed meanwhile (name, ...) stay as they are.
                await conn.execute(update(S).where(S.c.id == _uuid(s.id)).values(
                    step_count=s.step_count, current_locus_id=_uuid(s.current_locus_id), last_step_at=s.last_step_at,
                    **{k: S.c[k] + v for k, v in commit.usage.items()},
                    status=str(s.status), stopped_reason=s.stopped_reason, completed_at=s.completed_at,
                    **({"pending_injection": None} if commit.consumed_injection else {}),
                ))  # fmt: skip
                # Stamped at the commit, not when the step began: `ts` is when the map could know.
                return await self._append_events(conn, s.id, row.event_seq + 1, commit.events, None)
        except IntegrityError as exc:
            if "uq_traces_session_step" in str(exc.orig):
                raise StepAlreadyCommitted(str(exc.orig)) from exc
            raise

    async def _commit_memory(self, conn: AsyncConnection, commit: StepCommit) -> None:
        """Resonances, warm memory, compost and a crystal: part of the step's transaction."""
        sid = _uuid(commit.session.id)
        for r in commit.resonances:
            values = _resonance_values(r)
            done = await conn.execute(update(RS).where(RS.c.id == _uuid(r.id)).values(**values))
            if done.rowcount == 0:
                await conn.execute(insert(RS).values(id=_uuid(r.id), created_at=r.created_at, **values))
        for w in commit.warm_new:
            await conn.execute(insert(W).values(
                id=_uuid(w.id), session_id=sid, cluster_type=w.cluster_type, content=w.content, embedding=w.embedding,
                strength=w.strength, last_accessed_at=w.last_accessed_at, created_at=w.created_at,
                expires_at=w.expires_at))  # fmt: skip
        for w in commit.warm_updated:
            await conn.execute(update(W).where(W.c.id == _uuid(w.id)).values(
                content=w.content, last_accessed_at=w.last_accessed_at))  # fmt: skip
        for warm_id, c in commit.warm_to_compost:
            await conn.execute(delete(W).where(W.c.id == _uuid(warm_id)))
            await conn.execute(insert(CP).values(
                id=_uuid(c.id), session_id=sid, project_id=_uuid(commit.session.project_id), kind=c.kind, text=c.text,
                content={"domains": c.domains, "from_warm": warm_id}, embedding=c.embedding))  # fmt: skip
        if commit.crystal is not None:
            await conn.execute(insert(C).values(**_crystal_values(commit.crystal)))

    async def session_controls(self, session_id: str) -> SessionControls | None:
        q = select(S.c.status, S.c.allowed_domains, S.c.forbidden_domains, S.c.temperature, S.c.max_steps, S.c.fence,
                   S.c.pending_injection, S.c.cloud_budget_cents).where(S.c.id == _uuid(session_id))  # fmt: skip
        async with self.engine.connect() as conn:
            r = (await conn.execute(q)).first()
        if r is None:
            return None
        return SessionControls(r.status, list(r.allowed_domains or []), list(r.forbidden_domains or []),
                               r.temperature, r.max_steps, fence_from_json(r.fence), r.pending_injection,
                               r.cloud_budget_cents)  # fmt: skip

    async def set_controls(self, session_id: str, **values: Any) -> None:
        """fence (anchors) and pending_injection, written by interventions."""
        if "fence" in values:
            values["fence"] = fence_to_json(values["fence"])
        async with self.engine.begin() as conn:
            await conn.execute(update(S).where(S.c.id == _uuid(session_id)).values(**values))

    async def add_locus(self, session_id: str, locus: Locus, events: list[EventDraft]) -> list[Event]:
        async with self.engine.begin() as conn:
            row = await self._lock_session(conn, session_id)
            await conn.execute(insert(L).values(**_locus_values(locus)))
            return await self._append_events(conn, session_id, row.event_seq + 1, events, None)

    async def set_budget(self, session_id: str, cloud_budget_cents: int) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(update(S).where(S.c.id == _uuid(session_id)).values(cloud_budget_cents=cloud_budget_cents))

    async def children(self, session_id: str) -> list[Session]:
        q = select(S).where(S.c.parent_session_id == _uuid(session_id)).order_by(S.c.created_at)
        async with self.engine.connect() as conn:
            return [session_from_row(r) for r in (await conn.execute(q)).all()]

    async def search(self, project_id: str, vector: np.ndarray, types: list[str], limit: int) -> list[dict[str, Any]]:
        """Semantic search over loci, crystals and resonances (pgvector HNSW, cosine)."""
        v = np.asarray(vector, dtype=np.float32)
        pid = _uuid(project_id)
        out: list[dict[str, Any]] = []
        async with self.engine.connect() as conn:
            if "locus" in types:
                d = L.c.embedding.cosine_distance(v)
                q = (select(L.c.id, L.c.session_id, L.c.concept.label("text"), (1 - d).label("sim"))
                     .join(S, S.c.id == L.c.session_id).where(S.c.project_id == pid).order_by(d).limit(limit))  # fmt: skip
                out += [{"type": "locus", "id": str(r.id), "session_id": str(r.session_id), "text": r.text,
                         "similarity": round(float(r.sim), 4)} for r in (await conn.execute(q)).all()]  # fmt: skip
            if "crystal" in types:
                d = C.c.embedding.cosine_distance(v)
                q = select(C.c.id, C.c.session_id, C.c.insight.label("text"), (1 - d).label("sim")).where(
                    C.c.project_id == pid).order_by(d).limit(limit)  # fmt: skip
                out += [{"type": "crystal", "id": str(r.id), "session_id": str(r.session_id) if r.session_id else None,
                         "text": r.text, "similarity": round(float(r.sim), 4)} for r in (await conn.execute(q)).all()]  # fmt: skip
            if "resonance" in types:
                d = RS.c.embedding.cosine_distance(v)
                q = select(RS.c.id, RS.c.session_id, func.array_to_string(RS.c.themes, ", ").label("text"),
                           (1 - d).label("sim")).where(RS.c.project_id == pid).order_by(d).limit(limit)  # fmt: skip
                out += [{"type": "resonance", "id": str(r.id), "session_id": str(r.session_id) if r.session_id else None,
                         "text": r.text, "similarity": round(float(r.sim), 4)} for r in (await conn.execute(q)).all()]  # fmt: skip
        out.sort(key=lambda x: -x["similarity"])
        return out[:limit]

    async def find_crystals(self, session_id: str | None = None, status: str | None = None,
                            min_confidence: float | None = None, crystal_id: str | None = None) -> list[Crystal]:  # fmt: skip
        q = select(C).order_by(C.c.created_at)
        if session_id is not None:
            q = q.where(C.c.session_id == _uuid(session_id))
        if status is not None:
            q = q.where(C.c.status == status)
        if min_confidence is not None:
            q = q.where(C.c.confidence >= min_confidence)
        if crystal_id is not None:
            cid = parse_uuid(crystal_id)
            if cid is None:
                return []
            q = q.where(C.c.id == cid)
        async with self.engine.connect() as conn:
            return [crystal_from_row(r) for r in (await conn.execute(q)).all()]

    async def find_resonances(self, session_id: str | None = None, status: str | None = None) -> list[Resonance]:
        q = select(RS).order_by(RS.c.created_at)
        if session_id is not None:
            q = q.where(RS.c.session_id == _uuid(session_id))
        if status is not None:
            q = q.where(RS.c.status == status)
        async with self.engine.connect() as conn:
            return [resonance_from_row(r) for r in (await conn.execute(q)).all()]

    async def crystals(self, project_id: str) -> list[Crystal]:
        q = select(C).where(C.c.project_id == _uuid(project_id), C.c.status != "invalidated").order_by(C.c.created_at)
        async with self.engine.connect() as conn:
            return [crystal_from_row(r) for r in (await conn.execute(q)).all()]

    async def session_crystals(self, session_id: str) -> list[Crystal]:
        q = select(C).where(C.c.session_id == _uuid(session_id)).order_by(C.c.created_at)
        async with self.engine.connect() as conn:
            return [crystal_from_row(r) for r in (await conn.execute(q)).all()]

    async def save_crystal(self, crystal: Crystal, events: list[EventDraft]) -> list[Event]:
        async with self.engine.begin() as conn:
            await conn.execute(insert(C).values(**_crystal_values(crystal)))
            if crystal.session_id is None:
                return []
            row = await self._lock_session(conn, crystal.session_id)
            return await self._append_events(conn, crystal.session_id, row.event_seq + 1, events, None)

    async def lens_evidence(self, session: Session, lens: str, vector: np.ndarray, k: int) -> list[dict[str, Any]]:
        sid, pid = _uuid(session.id), _uuid(session.project_id)
        v = np.asarray(vector, dtype=np.float32)
        facets = ("connection", "tension", "bridge", "surprise", "possibility")
        if lens == "constraints":
            items = [{"id": f"fence:{i}", "type": "constraint", "summary": f"fence {a.action}s '{a.concept}'",
                      "sim": float(a.embedding @ v)} for i, a in enumerate(session.fence)]  # fmt: skip
            if session.allowed_domains or session.forbidden_domains:
                items.append({"id": "domains", "type": "constraint", "sim": 0.0,
                              "summary": f"allowed {session.allowed_domains or 'all'}, forbidden "
                                         f"{session.forbidden_domains or 'none'}"})  # fmt: skip
            items.append({"id": "budget", "type": "constraint", "sim": 0.0,
                          "summary": f"cloud budget {session.cloud_spent_cents}/{session.cloud_budget_cents} cents, "
                                     f"drift at most {session.max_drift_distance}"})  # fmt: skip
            return items
        if lens == "loci":
            table, text, where = L, L.c.concept, L.c.session_id == sid
            col = L.c.embedding
        elif lens in facets:
            table, text, where, col = R, R.c[lens], R.c.session_id == sid, R.c.themes_embedding
        elif lens == "resonances":
            table, text, col = RS, func.array_to_string(RS.c.themes, ", "), RS.c.embedding
            where = (RS.c.project_id == pid) & (RS.c.status != "invalidated")
        elif lens == "crystals":
            table, text, col = C, C.c.insight, C.c.embedding
            where = (C.c.project_id == pid) & (C.c.status != "invalidated")
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
        kind = {"loci": "locus", "resonances": "resonance", "crystals": "crystal", "failed_paths": "failed_path",
                "compost": "compost"}.get(lens, f"residue.{lens}")  # fmt: skip
        async with self.engine.connect() as conn:
            rows = (await conn.execute(q)).all()
        # A residue's facets are separate nodes of the graph: one id per facet.
        suffix = f"#{lens}" if lens in facets else ""
        return [{"id": f"{r.id}{suffix}", "type": kind, "summary": (r.summary or "")[:200], "sim": float(r.sim)}
                for r in rows]  # fmt: skip

    # ---- reading -------------------------------------------------------------------------

    async def trace(self, session_id: str) -> list[dict[str, Any]]:
        """The walk in step order, each step with its loci and residue."""
        sid = _uuid(session_id)
        frm, to = L.alias("frm"), L.alias("to")
        q = (
            select(T, frm.c.concept.label("from_concept"), to.c.concept.label("to_concept"),
                   to.c.domains.label("to_domains"), R.c.connection, R.c.tension, R.c.bridge, R.c.surprise,
                   R.c.possibility, R.c.themes, R.c.interestingness.label("residue_interestingness"),
                   R.c.actionability.label("residue_actionability"), R.c.details)
            .join(to, to.c.id == T.c.to_locus_id).outerjoin(frm, frm.c.id == T.c.from_locus_id)
            .outerjoin(R, R.c.trace_id == T.c.id)
            .where(T.c.session_id == sid).order_by(T.c.step_number)
        )  # fmt: skip
        async with self.engine.connect() as conn:
            return [dict(r._mapping) for r in (await conn.execute(q)).all()]

    async def step_numbers(self, session_id: str) -> list[int]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(T.c.step_number).where(T.c.session_id == _uuid(session_id)).order_by(T.c.step_number)
            )
            return [r[0] for r in rows.all()]

    async def events_after(self, session_id: str, after_seq: int = 0, limit: int = 10_000) -> list[Event]:
        q = (select(E).where(and_(E.c.session_id == _uuid(session_id), E.c.seq > after_seq))
             .order_by(E.c.seq).limit(limit))  # fmt: skip
        async with self.engine.connect() as conn:
            return [Event(session_id=str(r.session_id), seq=r.seq, subject=r.subject, ts=r.ts, payload=r.payload)
                    for r in (await conn.execute(q)).all()]  # fmt: skip

    async def loci(
        self, session_id: str, visited: bool | None = None, min_interestingness: float | None = None
    ) -> list[Locus]:
        q = select(L).where(L.c.session_id == _uuid(session_id)).order_by(L.c.first_encountered, L.c.id)
        if visited is not None:
            q = q.where(L.c.visit_count > 0 if visited else L.c.visit_count == 0)
        if min_interestingness is not None:
            q = q.where(L.c.interestingness >= min_interestingness)
        async with self.engine.connect() as conn:
            return [locus_from_row(r) for r in (await conn.execute(q)).all()]

    async def locus(self, session_id: str, locus_id: str) -> Locus | None:
        lid = parse_uuid(locus_id)
        if lid is None:
            return None
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(L).where(L.c.id == lid, L.c.session_id == _uuid(session_id)))).first()
        return locus_from_row(row) if row else None

    async def locus_steps(self, locus_id: str) -> list[dict[str, Any]]:
        """The steps that arrived at or left a locus, in order, with their residues."""
        lid = _uuid(locus_id)
        frm, to = L.alias("frm"), L.alias("to")
        q = (
            select(T.c.step_number, T.c.from_locus_id, T.c.to_locus_id, frm.c.concept.label("from_concept"),
                   to.c.concept.label("to_concept"), T.c.model_used, R.c.connection, R.c.tension, R.c.bridge,
                   R.c.surprise, R.c.possibility, R.c.themes, R.c.interestingness.label("residue_interestingness"),
                   R.c.actionability.label("residue_actionability"))
            .join(to, to.c.id == T.c.to_locus_id).outerjoin(frm, frm.c.id == T.c.from_locus_id)
            .outerjoin(R, R.c.trace_id == T.c.id)
            .where((T.c.to_locus_id == lid) | (T.c.from_locus_id == lid)).order_by(T.c.step_number)
        )  # fmt: skip
        async with self.engine.connect() as conn:
            return [dict(r._mapping) for r in (await conn.execute(q)).all()]

    async def set_run_target(self, session_id: str, run_until_step: int | None) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(update(S).where(S.c.id == _uuid(session_id)).values(run_until_step=run_until_step))

    async def interrupted_runs(self) -> list[Session]:
        """Active sessions whose requested run had not reached its step: left by a crash."""
        q = select(S).where(S.c.status == "active", S.c.run_until_step > S.c.step_count)
        async with self.engine.connect() as conn:
            return [session_from_row(r) for r in (await conn.execute(q)).all()]

    async def count_sessions(self, status: str | None = None) -> int:
        q = select(func.count()).select_from(S)
        if status:
            q = q.where(S.c.status == status)
        async with self.engine.connect() as conn:
            return (await conn.execute(q)).scalar_one()

    async def update_session(self, session_id: str, **values: Any) -> None:
        """Settings a person may change (name, domains, max_steps, temperature, budget, drift, checkpoints)."""
        allowed = {"name", "allowed_domains", "forbidden_domains", "max_steps", "temperature", "cloud_budget_cents",
                   "max_drift_distance", "human_checkpoint_frequency"}  # fmt: skip
        bad = set(values) - allowed
        if bad:
            raise ValueError(f"not updatable: {sorted(bad)}")
        if values:
            async with self.engine.begin() as conn:
                await conn.execute(update(S).where(S.c.id == _uuid(session_id)).values(**values))

    async def delete_session(self, session_id: str) -> bool:
        async with self.engine.begin() as conn:
            # Events and traces go with the session (ON DELETE CASCADE).
            res = await conn.execute(delete(S).where(S.c.id == _uuid(session_id)))
            return res.rowcount > 0
