"""Steps: load a walk to continue it, and commit a step (trace, residue, loci, memory
layers, resonances, a crystal, the session's progress and the step's events) in one
transaction. A step's start is sessions_repository.start_step."""

from __future__ import annotations

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from wander.adapters.postgres import step_statements as sql
from wander.adapters.postgres.event_log import events_params, lock_session, numbered
from wander.adapters.postgres.faults import writing
from wander.adapters.postgres.mappers import (
    as_uuid,
    as_vector,
    crystal_values,
    locus_from_row,
    locus_values,
    progress_values,
    residue_values,
    resonance_from_row,
    resonance_values,
    session_from_row,
    trace_values,
    warm_from_row,
)
from wander.adapters.postgres.table_aliases import CP, RS, C, L, R, S, T, W
from wander.core.domain.errors import Conflict, ResonanceMoved, StepAlreadyCommitted
from wander.core.domain.models import CompostItem, Event, HotItem, Residue, ResonanceStatus, SessionStatus
from wander.core.engine.ports import StepCommit, WalkState


class StepsRepository:
    def __init__(self, engine: AsyncEngine):
        self.engine = engine

    async def load_walk(self, session_id: str, recent: int = 20, hot: int = 30) -> WalkState:
        """`hot`: how many of the latest encounters are still in HOT memory."""
        sid = as_uuid(session_id)
        async with self.engine.connect() as conn:
            srow = (await conn.execute(select(S).where(S.c.id == sid))).one()
            session = session_from_row(srow)
            lrows = (
                await conn.execute(select(L).where(L.c.session_id == sid).order_by(L.c.first_encountered, L.c.id))
            ).all()
            steps = (
                await conn.execute(
                    select(
                        T.c.step_number,
                        T.c.from_locus_id,
                        T.c.to_locus_id,
                        R.c.id.label("rid"),
                        R.c.themes,
                        R.c.themes_embedding,
                        *(R.c[k] for k in ("interestingness", *Residue.FACETS)),
                    )
                    .outerjoin(R, R.c.trace_id == T.c.id)
                    .where(T.c.session_id == sid)
                    .order_by(T.c.step_number)
                )
            ).all()
            res = (
                await conn.execute(
                    select(RS).where(
                        RS.c.project_id == as_uuid(session.project_id), RS.c.status != ResonanceStatus.INVALIDATED.value
                    )
                )
            ).all()
            warm = (await conn.execute(select(W).where(W.c.session_id == sid).order_by(W.c.created_at))).all()
            compost = (await conn.execute(select(CP).where(CP.c.session_id == sid).order_by(CP.c.created_at))).all()
            # The crystallization throttle survives reloads: the step of the wander's last crystal
            # (a step's crystal carries the step's own timestamp).
            last_crystal = select(func.max(C.c.created_at)).where(C.c.session_id == sid).scalar_subquery()
            last_crystal_step = (
                await conn.execute(
                    select(func.max(T.c.step_number)).where(T.c.session_id == sid, T.c.created_at <= last_crystal)
                )
            ).scalar_one()
        loci = [locus_from_row(r) for r in lrows]
        by_id = {lo.id: lo for lo in loci}
        themes = [t for r in steps[-recent:] for t in (r.themes or [])]
        hot_items = []
        for r in steps[-hot:] if hot > 0 else []:
            frm, to = by_id.get(str(r.from_locus_id)), by_id.get(str(r.to_locus_id))
            if r.rid is None or to is None:
                continue
            v = as_vector(r.themes_embedding) if r.themes_embedding is not None else to.embedding
            hot_items.append(
                HotItem(
                    r.step_number,
                    str(r.rid),
                    frm.concept if frm else "",
                    to.concept,
                    list(to.domains),
                    list(r.themes or []),
                    v,
                    r.interestingness or 0.0,
                    {k: getattr(r, k) or "" for k in Residue.FACETS},
                )
            )
        return WalkState(
            session=session,
            loci=loci,
            recent_themes=themes,
            relations=[(str(r.from_locus_id), str(r.to_locus_id)) for r in steps if r.from_locus_id],
            hot=hot_items,
            resonances=[resonance_from_row(r) for r in res],
            warm=[warm_from_row(r) for r in warm],
            compost=[
                CompostItem(
                    str(r.id), r.kind, r.text, list((r.content or {}).get("domains", [])), as_vector(r.embedding)
                )
                for r in compost
            ],
            last_crystal_step=last_crystal_step or 0,
        )

    async def commit_step(self, commit: StepCommit) -> list[Event]:
        try:
            with writing(f"step {commit.trace.step_number}"):
                return await self._commit_step(commit)
        except IntegrityError as exc:
            if "uq_traces_session_step" in str(exc.orig):
                raise StepAlreadyCommitted(str(exc.orig)) from exc
            raise

    async def _commit_step(self, commit: StepCommit) -> list[Event]:
        s, v = commit.session, commit.visited_locus
        # The usual step reaches one new locus: it goes in the step's core statement.
        one_new = len(commit.new_loci) == 1 and commit.new_loci[0].id == v.id
        params = (
            {"sid": as_uuid(s.id), "expected": commit.expected_step_count}
            | {f"v_{k}": val for k, val in progress_values(s).items()}
            | {f"d_{k}": commit.usage.get(k, 0) for k in sql.USAGE_COLUMNS}
            | events_params(commit.events)
            | {f"t_{k}": val for k, val in trace_values(commit.trace).items()}
            | {f"r_{k}": val for k, val in residue_values(commit).items()}
            | ({f"l_{k}": val for k, val in locus_values(v).items()} if one_new else {})
        )
        async with self.engine.begin() as conn:
            if commit.new_loci and not one_new:  # before the trace that names them (executemany)
                await conn.execute(sql.INSERT_LOCI, [locus_values(lo) for lo in commit.new_loci])
            # Locks the session row if the wander is still active at the step it was.
            advanced = (await conn.execute(sql.COMMIT_STEP_WITH_LOCUS if one_new else sql.COMMIT_STEP, params)).first()
            if advanced is None:
                row = await lock_session(conn, s.id)  # Conflict if it is gone
                if row.status != SessionStatus.ACTIVE:
                    raise Conflict(f"session {s.id} is {row.status}")
                raise StepAlreadyCommitted(f"step {commit.trace.step_number} of {s.id} already committed")
            if all(lo.id != v.id for lo in commit.new_loci):  # a new one was written as it is
                await conn.execute(
                    sql.UPDATE_LOCUS,
                    dict(
                        b_id=as_uuid(v.id),
                        visit_count=v.visit_count,
                        last_visited=v.last_visited,
                        novelty_score=v.novelty_score,
                        interestingness=v.interestingness,
                        actionability=v.actionability,
                        uncertainty=v.uncertainty,
                        adjacent_to=v.adjacent_to,
                        bridges_to=v.bridges_to,
                        contradicts=v.contradicts,
                    ),
                )
            await self._commit_memory(conn, commit)
            if commit.consumed_injection is not None:
                # Only the injection this step took: one made while it ran is the next step's.
                await conn.execute(
                    update(S)
                    .where(S.c.id == as_uuid(s.id), S.c.pending_injection == commit.consumed_injection)
                    .values(pending_injection=None)
                )
        return numbered(s.id, advanced.event_seq, advanced.ts, commit.events)

    async def _commit_memory(self, conn: AsyncConnection, commit: StepCommit) -> None:
        """Resonances, warm memory, compost and a crystal: part of the step's transaction."""
        sid = as_uuid(commit.session.id)
        for r in commit.resonances:
            values = resonance_values(r)
            base = commit.resonance_bases.get(r.id)
            if base is None:  # created by this step, or written whole (no guard)
                done = await conn.execute(sql.UPDATE_RESONANCE, {"b_id": as_uuid(r.id), **values})
                if done.rowcount == 0:
                    await conn.execute(
                        sql.INSERT_RESONANCE, {"id": as_uuid(r.id), "created_at": r.created_at, **values}
                    )
                continue
            # Only over the resonance as the step read it: another wander of the project may
            # have reinforced it meanwhile, and writing ours whole would lose theirs.
            occurrences, status, reinforced = base
            done = await conn.execute(
                sql.UPDATE_RESONANCE_NEVER_REINFORCED if reinforced is None else sql.UPDATE_RESONANCE_AS_READ,
                {"b_id": as_uuid(r.id), "b_occurrences": occurrences, "b_status": status}
                | ({} if reinforced is None else {"b_reinforced": reinforced})
                | values,
            )
            if done.rowcount == 0:
                raise ResonanceMoved(f"resonance {r.id} changed while step {commit.trace.step_number} was taken")
        for w in commit.warm_new:
            await conn.execute(
                insert(W).values(
                    id=as_uuid(w.id),
                    session_id=sid,
                    cluster_type=w.cluster_type,
                    content=w.content,
                    embedding=w.embedding,
                    strength=w.strength,
                    last_accessed_at=w.last_accessed_at,
                    created_at=w.created_at,
                    expires_at=w.expires_at,
                )
            )
        for w in commit.warm_updated:
            await conn.execute(
                update(W).where(W.c.id == as_uuid(w.id)).values(content=w.content, last_accessed_at=w.last_accessed_at)
            )
        for warm_id, c in commit.warm_to_compost:
            await conn.execute(delete(W).where(W.c.id == as_uuid(warm_id)))
            await conn.execute(
                insert(CP).values(
                    id=as_uuid(c.id),
                    session_id=sid,
                    project_id=as_uuid(commit.session.project_id),
                    kind=c.kind,
                    text=c.text,
                    content={"domains": c.domains, "from_warm": warm_id},
                    embedding=c.embedding,
                )
            )
        if commit.crystal is not None:
            await conn.execute(insert(C).values(**crystal_values(commit.crystal)))

    async def step_numbers(self, session_id: str) -> list[int]:
        q = select(T.c.step_number).where(T.c.session_id == as_uuid(session_id)).order_by(T.c.step_number)
        async with self.engine.connect() as conn:
            return [r[0] for r in (await conn.execute(q)).all()]
