"""The engine's entry points: create a wander, take steps, run, pause and resume. Faces
(CLI, API, MCP) call these with adapters wired into the ports."""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import numpy as np

from wander.domain.errors import Conflict, InvalidInput, NoCandidates, NotFound, StepAlreadyCommitted
from wander.domain.models import Locus, Session, SessionStatus, SourceType, new_id
from wander.domain.validation import (
    check_domains,
    check_random_seed,
    check_steps,
    check_temperature,
    clean_text,
)
from wander.engine import events as ev
from wander.engine.ports import CAKernel, Clock, Dweller, Embedder, EventBus, Knowledge, Store
from wander.engine.step import StepResult, take_step
from wander.engine.walk import Walk


@dataclass
class NewWander:
    seed_concept: str
    attractor: str | None = None
    name: str | None = None
    allowed_domains: list[str] | None = None
    forbidden_domains: list[str] | None = None
    max_steps: int = 50
    temperature: float = 0.7
    random_seed: int = 0
    max_drift_distance: float = 0.8
    cloud_budget_cents: int = 500
    human_checkpoint_frequency: int = 50


@dataclass
class RunOutcome:
    steps_completed: int
    stopped_reason: str | None
    status: str


class WanderEngine:
    def __init__(self, *, store: Store, knowledge: Knowledge, embedder: Embedder, dweller: Dweller,
                 bus: EventBus, clock: Clock, project_id: str, ca: CAKernel | None = None,
                 worker_id: str | None = None):  # fmt: skip
        self.store = store
        self.knowledge = knowledge
        self.embedder = embedder
        self.dweller = dweller
        self.bus = bus
        self.clock = clock
        self.project_id = project_id
        self.ca = ca
        self.worker_id = worker_id  # recorded on every trace this engine writes

    # ---- creation -------------------------------------------------------------------

    def validate(self, req: NewWander) -> NewWander:
        """Check every field before anything is embedded or written."""
        known = self.knowledge.domains()
        seed = clean_text("seed_concept", req.seed_concept)
        attractor = clean_text("attractor", req.attractor, required=False)
        allowed = check_domains("allowed_domains", req.allowed_domains, known)
        forbidden = check_domains("forbidden_domains", req.forbidden_domains, known)
        if set(allowed) & set(forbidden):
            raise InvalidInput("forbidden_domains", f"also allowed: {sorted(set(allowed) & set(forbidden))}")
        if not (0.0 < req.max_drift_distance <= 2.0):
            raise InvalidInput("max_drift_distance", "must be greater than 0 and at most 2")
        if req.cloud_budget_cents < 0:
            raise InvalidInput("cloud_budget_cents", "must not be negative")
        if req.human_checkpoint_frequency < 0:
            raise InvalidInput("human_checkpoint_frequency", "must not be negative")
        name = clean_text("name", req.name, required=False) or seed[:255]
        return NewWander(
            seed_concept=seed, attractor=attractor, name=name[:255], allowed_domains=allowed,
            forbidden_domains=forbidden, max_steps=check_steps("max_steps", req.max_steps),
            temperature=check_temperature(req.temperature), random_seed=check_random_seed(req.random_seed),
            max_drift_distance=req.max_drift_distance, cloud_budget_cents=req.cloud_budget_cents,
            human_checkpoint_frequency=req.human_checkpoint_frequency,
        )  # fmt: skip

    def _seed_domains(self, text: str, vector: np.ndarray) -> tuple[list[str], str | None, float]:
        """Domains of the seed: its own corpus entry if it has one, else the commonest
        domains among its five nearest corpus concepts."""
        exact = self.knowledge.find_label(text)
        if exact is not None:
            c = self.knowledge.concept(exact)
            return list(c.domains), c.key, c.abstraction_level
        near = self.knowledge.nearest(vector, 5)
        counts = Counter(d for i, _ in near for d in self.knowledge.concept(i).domains[:1])
        domains = [d for d, _ in counts.most_common(2)]
        abstraction = float(np.mean([self.knowledge.concept(i).abstraction_level for i, _ in near]))
        return domains, None, abstraction

    async def create(self, req: NewWander) -> Session:
        req = self.validate(req)
        texts = [req.seed_concept] + ([req.attractor] if req.attractor else [])
        vectors = self.embedder.embed(texts)
        now = self.clock.now()
        session = Session(
            id=new_id(), project_id=self.project_id, name=req.name or req.seed_concept,
            seed_concept=req.seed_concept, seed_embedding=vectors[0], attractor=req.attractor,
            attractor_embedding=vectors[1] if req.attractor else None,
            allowed_domains=req.allowed_domains or [], forbidden_domains=req.forbidden_domains or [],
            max_drift_distance=req.max_drift_distance, max_steps=req.max_steps,
            cloud_budget_cents=req.cloud_budget_cents, temperature=req.temperature,
            human_checkpoint_frequency=req.human_checkpoint_frequency, random_seed=req.random_seed,
            created_at=now,
        )  # fmt: skip
        domains, kb_key, abstraction = self._seed_domains(req.seed_concept, vectors[0])
        seed = Locus(
            id=new_id(), session_id=session.id, concept=req.seed_concept, embedding=vectors[0],
            source_type=SourceType.SEED, domains=domains, abstraction_level=abstraction,
            novelty_score=1.0, visit_count=1, kb_key=kb_key, first_encountered=now, last_visited=now,
        )  # fmt: skip
        session.current_locus_id = seed.id
        drafts = [
            ev.draft(ev.SESSION_CREATED, session.id, name=session.name, seed_concept=session.seed_concept,
                     attractor=session.attractor, max_steps=session.max_steps),
            ev.draft(ev.LOCUS_VISITED, session.id, step_number=0, locus=ev.locus_summary(seed), new=True),
        ]  # fmt: skip
        events = await self.store.create_session(session, seed, drafts)
        await self.bus.publish(events)
        return session

    # ---- stepping -------------------------------------------------------------------

    async def load_walk(self, session_id: str) -> Walk:
        session = await self.store.get_session(session_id)
        if session is None:
            raise NotFound("session", session_id)
        return Walk(await self.store.load_walk(session_id), self.knowledge)

    async def step(self, walk: Walk) -> StepResult:
        result = await take_step(walk, self.store, self.dweller, self.clock, self.ca, self.worker_id)
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
        done = 0
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
            done += 1
            if on_step is not None:
                maybe = on_step(result)
                if maybe is not None:
                    await maybe
        session = await self.store.get_session(session_id)
        assert session is not None
        return RunOutcome(done, session.stopped_reason, str(session.status))

    async def trip(self, session_id: str, reason: str, detail: str) -> None:
        """A circuit breaker: stop the wander, say why, and emit wander.circuit.tripped."""
        drafts = [
            ev.draft(ev.CIRCUIT_TRIPPED, session_id, reason=reason, detail=detail),
            ev.draft(ev.SESSION_COMPLETED, session_id, reason=reason),
        ]
        events = await self.store.set_status(session_id, str(SessionStatus.COMPLETED), reason, drafts,
                                             allowed_from=[str(SessionStatus.ACTIVE)])  # fmt: skip
        await self.bus.publish(events)

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
        if session.status not in allowed:
            raise Conflict(f"session {session_id} is {session.status}; cannot become {status}")
        subject = {SessionStatus.PAUSED: ev.SESSION_PAUSED, SessionStatus.ACTIVE: ev.SESSION_RESUMED,
                   SessionStatus.COMPLETED: ev.SESSION_COMPLETED, SessionStatus.ABANDONED: ev.SESSION_COMPLETED,
                   }[status]  # fmt: skip
        if status == SessionStatus.ABANDONED:
            reason = reason or "abandoned"
        drafts = [ev.draft(subject, session_id, status=str(status), reason=reason, step_count=session.step_count)]
        if status == SessionStatus.ACTIVE and session.status == SessionStatus.ACTIVE:
            drafts = []  # resuming a run that crashed while active: nothing changes
        events = await self.store.set_status(session_id, str(status), reason, drafts,
                                             allowed_from=[str(a) for a in allowed])  # fmt: skip
        await self.bus.publish(events)
        updated = await self.store.get_session(session_id)
        assert updated is not None
        return updated
