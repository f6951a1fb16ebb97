"""The engine's entry points: create a wander, take steps, run, pause and resume. Faces
(CLI, API, MCP) call these with adapters wired into the ports."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import numpy as np

from shared_schemas.events import (
    CircuitTrippedPayload,
    SessionCompletedPayload,
    SessionPausedPayload,
    SessionResumedPayload,
)
from wander.core.domain.errors import (
    Conflict,
    NoCandidates,
    NotFound,
    ResonanceMoved,
    StepAlreadyCommitted,
    StoreUnavailable,
)
from wander.core.domain.models import (
    FINISHED,
    CrystalStatus,
    EventDraft,
    Locus,
    Session,
    SessionStatus,
)
from wander.core.engine import events as ev
from wander.core.engine import tiers
from wander.core.engine.creation import NewWander, founding, validate
from wander.core.engine.crystallizer import Crystallizer
from wander.core.engine.grounding import check_grounded, nonsense_texts, vocabulary, words
from wander.core.engine.interventions import Interventions
from wander.core.engine.ports import (
    CAKernel,
    Clock,
    ConceptProposer,
    Dweller,
    Embedder,
    EventBus,
    Knowledge,
    RuminationModel,
    Store,
)
from wander.core.engine.rumination import OfflineRuminator
from wander.core.engine.step import take_step
from wander.core.engine.step_context import StepContext, StepResult
from wander.core.engine.walk import Walk

# Interventions and NewWander are imported from here by the faces and the tests.
__all__ = ["Interventions", "NewWander", "RunOutcome", "WanderEngine", "require_active", "run_outcome"]

# how often a step is taken again when another wander moved a resonance it changed
RESONANCE_RETRIES = 8


def require_active(session: Session, action: str) -> None:
    """Stepping or running needs an active wander (a paused one is resumed first)."""
    if session.status != SessionStatus.ACTIVE:
        hint = "; resume it first" if session.status == SessionStatus.PAUSED else ""
        raise Conflict(f"cannot {action}: session {session.id} is {session.status}{hint}")


@dataclass
class RunOutcome:
    """What a run did (000's answer to the wander call): steps and crystals it made, and why
    the wander is no longer active, if it is not (None while it is)."""

    steps_completed: int
    stopped_reason: str | None
    status: str
    crystals_formed: int = 0


def run_outcome(session: Session, steps_completed: int, crystals_formed: int) -> RunOutcome:
    """A run's outcome as the session stands after it: a reason only once it is not active."""
    active = session.status == SessionStatus.ACTIVE
    reason = None if active else (session.stopped_reason or str(session.status))
    return RunOutcome(steps_completed, reason, str(session.status), crystals_formed)


class WanderEngine:
    def __init__(
        self,
        *,
        store: Store,
        knowledge: Knowledge,
        embedder: Embedder,
        dweller: Dweller,
        bus: EventBus,
        clock: Clock,
        project_id: str,
        ca: CAKernel | None = None,
        worker_id: str | None = None,
        proposer: ConceptProposer | None = None,
        ruminator: RuminationModel | None = None,
        hot_limit: int = tiers.HOT_LIMIT,
    ):
        self.store = store
        self.knowledge = knowledge
        self.embedder = embedder
        self._nonsense_vectors: np.ndarray | None = None
        self.dweller = dweller
        self.bus = bus
        self.clock = clock
        self.project_id = project_id
        self.crystallizer = Crystallizer(store, embedder, ruminator or OfflineRuminator(), clock)
        # worker_id is recorded on every trace this engine writes (scale-out).
        self.ctx = StepContext(
            store=store,
            dweller=dweller,
            clock=clock,
            embedder=embedder,
            crystallizer=self.crystallizer,
            ca=ca,
            proposer=proposer,
            worker_id=worker_id,
            hot_limit=hot_limit,
            bus=bus,
        )

    @property
    def worker_id(self) -> str | None:
        return self.ctx.worker_id

    @worker_id.setter
    def worker_id(self, value: str | None) -> None:
        self.ctx.worker_id = value

    async def embed(self, texts: list[str]) -> np.ndarray:
        """The embedder is synchronous (MiniLM runs torch): off the event loop, in a thread."""
        return await asyncio.to_thread(self.embedder.embed, texts)

    async def _nonsense(self) -> np.ndarray:
        """The made-up texts' embeddings a seed without a corpus word is weighed against
        (engine/grounding.py), embedded once."""
        if self._nonsense_vectors is None:
            self._nonsense_vectors = np.asarray(await self.embed(nonsense_texts(self.knowledge)), dtype=np.float32)
        return self._nonsense_vectors

    async def warm_up(self) -> None:
        """Load the embedding model now rather than in the first request that needs it."""
        await self.embed(["warm up"])

    # ---- creation -------------------------------------------------------------------

    async def create(self, req: NewWander) -> Session:
        session, loci, drafts = await self.prepare(req)
        events = await self.store.create_session(session, loci, drafts)
        await self.bus.publish(events)
        return session

    async def prepare(self, req: NewWander) -> tuple[Session, list[Locus], list[EventDraft]]:
        """A new wander as it is to be written: the session, its seed locus (then any planted
        seeds) and their events; nothing is written yet."""
        req = validate(req, self.knowledge)
        texts = [req.seed_concept] + ([req.attractor] if req.attractor else [])
        vectors = await self.embed(texts + list(req.other_seeds or []))
        # a seed or attractor that matches nothing in the corpus would be walked from noise
        nonsense = None
        if len(self.knowledge) and any(not words(t) & vocabulary(self.knowledge) for t in texts):
            nonsense = await self._nonsense()
        for field, text, v in zip(("seed_concept", "attractor"), texts, vectors):
            check_grounded(field, text, v, self.knowledge, nonsense)
        return founding(req, vectors, self.knowledge, self.project_id, self.clock.now())

    # ---- stepping -------------------------------------------------------------------

    async def load_walk(self, session_id: str) -> Walk:
        session = await self.store.get_session(session_id)
        if session is None:
            raise NotFound("session", session_id)
        hot = tiers.hot_size_after(session.step_count, self.ctx.hot_limit)
        return Walk(await self.store.load_walk(session_id, hot=hot), self.knowledge)

    async def step(self, walk: Walk) -> StepResult:
        for attempt in range(RESONANCE_RETRIES + 1):
            try:
                # the last try writes its resonances whole: under heavy contention on one
                # resonance a reinforcement may then be lost, but the step is never refused
                result = await take_step(walk, self.ctx, guard_resonances=attempt < RESONANCE_RETRIES)
                break
            except ResonanceMoved:
                # another wander of the project reinforced a resonance this step changed:
                # take the step again over the project's resonances as they are now (the
                # walk's choice does not depend on them, so the path stays the same); a
                # short random wait spreads wanders that collide again and again
                await asyncio.sleep(random.uniform(0.0, 0.02 * (attempt + 1)))
                walk.resonances = (await self.load_walk(walk.session.id)).resonances
        await self.bus.publish(result.events)
        return result

    async def run(
        self,
        session_id: str,
        n_steps: int | None = None,
        on_step: Callable[[StepResult], Awaitable[None] | None] | None = None,
    ) -> RunOutcome:
        """Step until n_steps are done, the wander completes, or it is paused or stopped
        elsewhere (the store refuses a step of a session that is no longer active)."""
        session = await self.store.get_session(session_id)
        if session is None:
            raise NotFound("session", session_id)
        if session.status != SessionStatus.ACTIVE:
            raise Conflict(f"session {session_id} is {session.status}; resume it first")
        target = session.max_steps if n_steps is None else min(session.max_steps, session.step_count + n_steps)
        # Remembered so that a run cut short by a crash is resumed at the next start.
        await self.store.set_run_target(session_id, target)
        walk = await self.load_walk(session_id)
        done = crystals = 0
        while walk.session.status == SessionStatus.ACTIVE and (n_steps is None or done < n_steps):
            try:
                result = await self.step(walk)
            except StepAlreadyCommitted:
                walk = await self.load_walk(session_id)  # someone else moved it: catch up
                continue
            except Conflict:
                break  # paused or stopped between our load and our commit
            except NoCandidates as exc:
                await self.trip(session_id, "no_candidates_in_scope", str(exc))
                break
            except StoreUnavailable as exc:
                await self.halt(session_id, "store_unavailable", str(exc))
                break
            done += 1
            # a filling the gate rejected is kept, invalidated, but formed no crystal
            crystals += result.crystal is not None and result.crystal.status != CrystalStatus.INVALIDATED
            if on_step is not None:
                maybe = on_step(result)
                if maybe is not None:
                    await maybe
        session = await self.store.get_session(session_id)
        assert session is not None
        return run_outcome(session, done, crystals)

    async def trip(self, session_id: str, reason: str, detail: str) -> None:
        """A circuit breaker: stop the wander, say why, and emit wander.circuit.tripped."""
        drafts = [
            ev.draft(CircuitTrippedPayload(session_id=session_id, reason=reason, detail=detail)),
            ev.draft(SessionCompletedPayload(session_id=session_id, reason=reason)),
        ]
        events = await self.store.set_status(
            session_id, str(SessionStatus.COMPLETED), reason, drafts, allowed_from=[str(SessionStatus.ACTIVE)]
        )
        await self.bus.publish(events)

    async def halt(self, session_id: str, reason: str, detail: str) -> None:
        """A run that cannot go on for now (the store could not write its step): pause the
        wander, say why (wander.circuit.tripped, wander.session.paused); resuming it once
        the cause is gone continues the run from the last committed step."""
        session = await self.store.get_session(session_id)
        if session is None:
            return
        drafts = [
            ev.draft(
                CircuitTrippedPayload(
                    session_id=session_id, reason=reason, detail=detail, step_number=session.step_count + 1
                )
            ),
            ev.draft(
                SessionPausedPayload(
                    session_id=session_id, status="paused", reason=reason, detail=detail, step_count=session.step_count
                )
            ),
        ]
        try:
            events = await self.store.set_status(
                session_id, str(SessionStatus.PAUSED), reason, drafts, allowed_from=[str(SessionStatus.ACTIVE)]
            )
        except Conflict:
            return  # paused, stopped or deleted meanwhile: the run is over anyway
        await self.bus.publish(events)

    async def resume(self, session_id: str, paused_only: bool = False) -> Session:
        """Make a wander active again: a paused one, or (unless paused_only) one a crash left
        active, to continue its run."""
        session = await self.store.get_session(session_id)
        if session is None:
            raise NotFound("session", session_id)
        if paused_only and session.status != SessionStatus.PAUSED:
            raise Conflict(f"cannot resume: session {session_id} is {session.status}, not paused")
        if session.status in FINISHED:
            raise Conflict(f"session {session_id} is {session.status}; nothing to resume")
        return await self.set_status(session_id, SessionStatus.ACTIVE)

    async def set_status(self, session_id: str, status: SessionStatus, reason: str | None = None) -> Session:
        session = await self.store.get_session(session_id)
        if session is None:
            raise NotFound("session", session_id)
        allowed = {
            SessionStatus.PAUSED: {SessionStatus.ACTIVE},
            SessionStatus.ACTIVE: {SessionStatus.PAUSED, SessionStatus.ACTIVE},
            SessionStatus.COMPLETED: {SessionStatus.ACTIVE, SessionStatus.PAUSED},
            SessionStatus.ABANDONED: {SessionStatus.ACTIVE, SessionStatus.PAUSED},
        }[status]
        if (
            status == SessionStatus.ACTIVE
            and session.status == SessionStatus.COMPLETED
            and session.stopped_reason in ("max_steps", "stopped by request")
            and session.step_count < session.max_steps
        ):
            allowed = {SessionStatus.COMPLETED}  # extended, or a stopped one walked on
        if session.status not in allowed:
            raise Conflict(f"session {session_id} is {session.status}; cannot become {status}")
        payload = {
            SessionStatus.PAUSED: SessionPausedPayload,
            SessionStatus.ACTIVE: SessionResumedPayload,
            SessionStatus.COMPLETED: SessionCompletedPayload,
            SessionStatus.ABANDONED: SessionCompletedPayload,
        }[status]
        if status == SessionStatus.ABANDONED:
            reason = reason or "abandoned"
        drafts = [
            ev.draft(
                payload(
                    session_id=session_id,
                    status=str(status),
                    reason=reason,  # type: ignore[arg-type]
                    step_count=session.step_count,
                )
            )
        ]
        # Checked again under the row lock: the events say the change from a status other
        # than the one asked for, so a change made meanwhile to that status is a conflict.
        allowed_from = allowed - {status}
        if status == SessionStatus.ACTIVE and session.status == SessionStatus.ACTIVE:
            drafts = []  # resuming a run that crashed while active: nothing changes...
            allowed_from = {SessionStatus.ACTIVE}  # ...unless it was paused meanwhile
        events = await self.store.set_status(
            session_id, str(status), reason, drafts, allowed_from=[str(a) for a in allowed_from]
        )
        await self.bus.publish(events)
        updated = await self.store.get_session(session_id)
        assert updated is not None
        return updated
