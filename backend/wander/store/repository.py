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
from wander.domain.models import Event, EventDraft, Locus, Residue, Session, SessionStatus, SourceType, Trace
from wander.engine.ports import StepCommit, WalkState
from wander.store.tables import (
    WanderCrystal,
    WanderEvent,
    WanderLocus,
    WanderResidue,
    WanderResonance,
    WanderSession,
    WanderTrace,
)

S = WanderSession.__table__
L = WanderLocus.__table__
T = WanderTrace.__table__
R = WanderResidue.__table__
E = WanderEvent.__table__


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
        run_until_step=r.run_until_step, event_seq=r.event_seq, created_at=r.created_at, last_step_at=r.last_step_at, completed_at=r.completed_at,
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
        run_until_step=s.run_until_step, last_step_at=s.last_step_at, completed_at=s.completed_at,
    )  # fmt: skip


def _locus_values(lo: Locus) -> dict[str, Any]:
    return dict(
        id=_uuid(lo.id), session_id=_uuid(lo.session_id), concept=lo.concept, embedding=lo.embedding,
        source_type=str(lo.source_type), domains=lo.domains, abstraction_level=lo.abstraction_level,
        novelty_score=lo.novelty_score, interestingness=lo.interestingness, actionability=lo.actionability,
        uncertainty=lo.uncertainty, visit_count=lo.visit_count, kb_key=lo.kb_key,
        first_encountered=lo.first_encountered, last_visited=lo.last_visited, adjacent_to=lo.adjacent_to,
    )  # fmt: skip


class PostgresStore:
    def __init__(self, engine: AsyncEngine):
        self.engine = engine

    # ---- outbox ------------------------------------------------------------------------

    async def _append_events(
        self, conn: AsyncConnection, session_id: str, first_seq: int, drafts: list[EventDraft], ts: datetime | None
    ) -> list[Event]:
        events = []
        now = ts or (await conn.execute(select(func.now()))).scalar_one()
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

    async def create_session(self, session: Session, seed_locus: Locus, events: list[EventDraft]) -> list[Event]:
        async with self.engine.begin() as conn:
            await conn.execute(insert(S).values(id=_uuid(session.id), created_at=session.created_at,
                                                **_session_values(session)))  # fmt: skip
            await conn.execute(insert(L).values(**_locus_values(seed_locus)))
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
            await conn.execute(update(S).where(S.c.id == _uuid(session_id)).values(**values))
            return await self._append_events(conn, session_id, row.event_seq + 1, events, None)

    # ---- walking -------------------------------------------------------------------------

    async def load_walk(self, session_id: str, recent: int = 20) -> WalkState:
        sid = _uuid(session_id)
        async with self.engine.connect() as conn:
            srow = (await conn.execute(select(S).where(S.c.id == sid))).one()
            lrows = (await conn.execute(select(L).where(L.c.session_id == sid).order_by(L.c.first_encountered,
                                                                                        L.c.id))).all()  # fmt: skip
            trows = (
                await conn.execute(
                    select(R.c.themes).join(T, T.c.id == R.c.trace_id).where(R.c.session_id == sid)
                    .order_by(T.c.step_number.desc()).limit(recent)
                )
            ).all()  # fmt: skip
        themes = [t for r in reversed(trows) for t in (r.themes or [])]
        return WalkState(session=session_from_row(srow), loci=[locus_from_row(r) for r in lrows], recent_themes=themes)

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
                # Only what a step advances: settings changed meanwhile (name, ...) stay as they are.
                await conn.execute(update(S).where(S.c.id == _uuid(s.id)).values(
                    step_count=s.step_count, current_locus_id=_uuid(s.current_locus_id), last_step_at=s.last_step_at,
                    **{k: S.c[k] + v for k, v in commit.usage.items()},
                    status=str(s.status), stopped_reason=s.stopped_reason, completed_at=s.completed_at,
                ))  # fmt: skip
                return await self._append_events(conn, s.id, row.event_seq + 1, commit.events, t.created_at)
        except IntegrityError as exc:
            if "uq_traces_session_step" in str(exc.orig):
                raise StepAlreadyCommitted(str(exc.orig)) from exc
            raise

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

    async def rows(self, table: str, session_id: str | None = None, row_id: str | None = None) -> list[dict[str, Any]]:
        """Resonances or crystals as plain rows, without their embeddings."""
        t = {"resonances": WanderResonance.__table__, "crystals": WanderCrystal.__table__}[table]
        q = select(*[c for c in t.c if c.name != "embedding"]).order_by(t.c.created_at)
        if session_id is not None:
            q = q.where(t.c.session_id == _uuid(session_id))
        if row_id is not None:
            rid = parse_uuid(row_id)
            if rid is None:
                return []
            q = q.where(t.c.id == rid)
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
        """Settings a person may change (name, domains, max_steps, temperature)."""
        allowed = {"name", "allowed_domains", "forbidden_domains", "max_steps", "temperature"}
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
