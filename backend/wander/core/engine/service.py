"""The engine's entry points: create a wander, take steps, run, pause and resume. Faces
(CLI, API, MCP) call these with adapters wired into the ports."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import numpy as np

from shared_schemas.common import FenceAnchorOut
from shared_schemas.events import (
    CircuitTrippedPayload,
    FenceAddedPayload,
    FenceRemovedPayload,
    InjectionQueuedPayload,
    LocusPlantedPayload,
    LocusVisitedPayload,
    SessionCompletedPayload,
    SessionCreatedPayload,
    SessionPausedPayload,
    SessionResumedPayload,
    SubwanderSpawnedPayload,
)
from wander.core.domain.errors import (
    Conflict,
    InvalidInput,
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
    FenceAnchor,
    Locus,
    Session,
    SessionStatus,
    SourceType,
    new_id,
)
from wander.core.domain.validation import (
    check_domains,
    check_random_seed,
    check_steps,
    check_temperature,
    clean_text,
)
from wander.core.engine import events as ev
from wander.core.engine import tiers
from wander.core.engine.crystallizer import Crystallizer
from wander.core.engine.grounding import check_grounded, nonsense_texts, vocabulary, words
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

# how often a step is taken again when another wander moved a resonance it changed
RESONANCE_RETRIES = 8


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
    require_crystal_approval: bool = False  # hold every crystal for a person's verdict
    other_seeds: list[str] | None = None  # planted as further SEED loci (presets)
    parent_session_id: str | None = None
    parent_locus_id: str | None = None
    fence: list[FenceAnchor] | None = None


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
            seed_concept=seed,
            attractor=attractor,
            name=name[:255],
            allowed_domains=allowed,
            forbidden_domains=forbidden,
            max_steps=check_steps("max_steps", req.max_steps),
            temperature=check_temperature(req.temperature),
            random_seed=check_random_seed(req.random_seed),
            max_drift_distance=req.max_drift_distance,
            cloud_budget_cents=req.cloud_budget_cents,
            human_checkpoint_frequency=req.human_checkpoint_frequency,
            require_crystal_approval=bool(req.require_crystal_approval),
            other_seeds=[clean_text("other_seeds", x) for x in req.other_seeds or []],
            parent_session_id=req.parent_session_id,
            parent_locus_id=req.parent_locus_id,
            fence=req.fence,
        )

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
        session, loci, drafts = await self.prepare(req)
        events = await self.store.create_session(session, loci, drafts)
        await self.bus.publish(events)
        return session

    async def prepare(self, req: NewWander) -> tuple[Session, list[Locus], list[EventDraft]]:
        """A new wander as it is to be written: the session, its seed locus (then any planted
        seeds) and their events; nothing is written yet."""
        req = self.validate(req)
        texts = [req.seed_concept] + ([req.attractor] if req.attractor else [])
        others = list(req.other_seeds or [])
        vectors = await self.embed(texts + others)
        # a seed or attractor that matches nothing in the corpus would be walked from noise
        nonsense = None
        if len(self.knowledge) and any(not words(t) & vocabulary(self.knowledge) for t in texts):
            nonsense = await self._nonsense()
        for field, text, v in zip(("seed_concept", "attractor"), texts, vectors):
            check_grounded(field, text, v, self.knowledge, nonsense)
        now = self.clock.now()
        session = Session(
            id=new_id(),
            project_id=self.project_id,
            name=req.name or req.seed_concept,
            seed_concept=req.seed_concept,
            seed_embedding=vectors[0],
            attractor=req.attractor,
            attractor_embedding=vectors[1] if req.attractor else None,
            allowed_domains=req.allowed_domains or [],
            forbidden_domains=req.forbidden_domains or [],
            max_drift_distance=req.max_drift_distance,
            max_steps=req.max_steps,
            cloud_budget_cents=req.cloud_budget_cents,
            temperature=req.temperature,
            human_checkpoint_frequency=req.human_checkpoint_frequency,
            require_crystal_approval=req.require_crystal_approval,
            random_seed=req.random_seed,
            parent_session_id=req.parent_session_id,
            parent_locus_id=req.parent_locus_id,
            fence=list(req.fence or []),
            created_at=now,
        )
        domains, kb_key, abstraction = self._seed_domains(req.seed_concept, vectors[0])
        seed = Locus(
            id=new_id(),
            session_id=session.id,
            concept=req.seed_concept,
            embedding=vectors[0],
            source_type=SourceType.SEED,
            domains=domains,
            abstraction_level=abstraction,
            novelty_score=1.0,
            visit_count=1,
            kb_key=kb_key,
            first_encountered=now,
            last_visited=now,
        )
        session.current_locus_id = seed.id
        planted = []
        for text, v in zip(others, vectors[len(texts) :]):
            domains, kb_key, abstraction = self._seed_domains(text, v)
            planted.append(
                Locus(
                    id=new_id(),
                    session_id=session.id,
                    concept=text,
                    embedding=v,
                    source_type=SourceType.SEED,
                    domains=domains,
                    abstraction_level=abstraction,
                    novelty_score=1.0,
                    visit_count=0,
                    kb_key=kb_key,
                    first_encountered=now,
                )
            )
        drafts = [
            ev.draft(
                SessionCreatedPayload(
                    session_id=session.id,
                    name=session.name,
                    seed_concept=session.seed_concept,
                    attractor=session.attractor,
                    max_steps=session.max_steps,
                )
            ),
            ev.draft(LocusVisitedPayload(session_id=session.id, step_number=0, locus=ev.locus_summary(seed), new=True)),
        ]
        drafts += [
            ev.draft(
                LocusPlantedPayload(session_id=session.id, step_number=0, locus=ev.locus_summary(p), source="preset")
            )
            for p in planted
        ]
        return session, [seed, *planted], drafts

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


class Interventions:
    """What a person (or an agent) does to a wander from outside: inject a concept, move
    the fence, force a crystallization, spawn a sub-wander."""

    def __init__(self, engine: WanderEngine):
        self.engine = engine

    async def _session(self, session_id: str) -> Session:
        session = await self.engine.store.get_session(session_id)
        if session is None:
            raise NotFound("session", session_id)
        return session

    async def inject(self, session_id: str, concept: str, force_visit: bool = True) -> Session:
        """force_visit: the next step goes to the concept, whoever runs it. Otherwise the
        concept is planted as a locus that the distance band can reach."""
        session = await self._session(session_id)
        concept = clean_text("concept", concept)
        if session.status in FINISHED:
            raise Conflict(f"session {session_id} is {session.status}")
        if force_visit:
            # Its own id: the step that takes it clears this injection, not one made meanwhile.
            injection_id = new_id()

            def queue(pending: dict | None) -> tuple[dict | None, list[EventDraft]]:
                # Applied to the injection pending under the session's lock: the one it replaces.
                payload = InjectionQueuedPayload(
                    session_id=session_id,
                    concept=concept,
                    injection_id=injection_id,
                    replaced=pending.get("concept") if pending else None,
                )
                return {"concept": concept, "id": injection_id}, [ev.draft(payload)]

            # The pending injection and wander.injection.queued, in one transaction.
            events = await self.engine.store.set_injection(session_id, queue)
            await self.engine.bus.publish(events)
        else:
            # A hint: a new locus, or the wander's own locus of that concept when it has one
            # (one node per concept on the map); wander.locus.planted names it either way.
            v = (await self.engine.embed([concept]))[0]
            domains, kb_key, abstraction = self.engine._seed_domains(concept, v)
            locus = Locus(
                id=new_id(),
                session_id=session_id,
                concept=concept,
                embedding=v,
                source_type=SourceType.SERENDIPITOUS,
                domains=domains,
                abstraction_level=abstraction,
                kb_key=kb_key,
                first_encountered=self.engine.clock.now(),
            )
            _, events = await self.engine.store.plant_locus(
                session_id,
                locus,
                lambda lo: [
                    ev.draft(
                        LocusPlantedPayload(
                            session_id=session_id,
                            step_number=session.step_count,
                            locus=ev.locus_summary(lo),
                            source="inject",
                        )
                    )
                ],
            )
            await self.engine.bus.publish(events)
        return await self._session(session_id)

    async def fence(self, session_id: str, concept: str, action: str) -> Session:
        """Add (or re-aim) a fence anchor: wander.fence.added; refused once the wander is finished."""
        session = await self._session(session_id)
        concept = clean_text("concept", concept)
        if action not in ("include", "exclude"):
            raise InvalidInput("action", f"must be 'include' or 'exclude' (got '{action}')")
        _require_unfinished(session)
        v = (await self.engine.embed([concept]))[0]

        def add(fence: list[FenceAnchor]) -> tuple[list[FenceAnchor], list[EventDraft]]:
            anchors = [a for a in fence if a.concept != concept] + [FenceAnchor(concept, action, v)]
            payload = FenceAddedPayload(
                session_id=session_id,
                concept=concept,
                action=action,  # type: ignore[arg-type]
                fence=_fence_summary(anchors),
            )
            return anchors, [ev.draft(payload)]

        # Applied to the fence as it is under the session's lock: a change made meanwhile stays.
        events = await self.engine.store.set_fence(session_id, add)
        await self.engine.bus.publish(events)
        return await self._session(session_id)

    async def unfence(self, session_id: str, concept: str) -> Session:
        """Remove a fence anchor: wander.fence.removed."""
        session = await self._session(session_id)
        concept = clean_text("concept", concept)
        _require_unfinished(session)

        def remove(fence: list[FenceAnchor]) -> tuple[list[FenceAnchor], list[EventDraft]]:
            if all(a.concept != concept for a in fence):
                raise InvalidInput("concept", f"'{concept}' is not in the fence")
            anchors = [a for a in fence if a.concept != concept]
            payload = FenceRemovedPayload(session_id=session_id, concept=concept, fence=_fence_summary(anchors))
            return anchors, [ev.draft(payload)]

        events = await self.engine.store.set_fence(session_id, remove)
        await self.engine.bus.publish(events)
        return await self._session(session_id)

    async def crystallize(self, session_id: str):
        """Force a crystallization attempt at the current locus."""
        walk = await self.engine.load_walk(session_id)
        outcome = await self.engine.crystallizer.crystallize(walk, "manual", walk.current, None)
        if outcome.crystal is not None:
            events = await self.engine.store.save_crystal(outcome.crystal, outcome.events)
            await self.engine.bus.publish(events)
        return outcome

    async def spawn(
        self,
        session_id: str,
        locus_id: str,
        max_steps: int = 50,
        budget_share: float = 0.25,
        random_seed: int | None = None,
    ) -> Session:
        """A sub-wander ("go deeper") seeded at a locus of the parent, inheriting its fences and
        domains and taking a share of the parent's remaining cloud budget."""
        parent = await self._session(session_id)
        if not 0 <= budget_share <= 1:
            raise InvalidInput("budget_share", "must be between 0 and 1")
        locus = await self.engine.store.locus(session_id, locus_id)
        if locus is None:
            raise NotFound("locus", locus_id)
        share = int((parent.cloud_budget_cents - parent.cloud_spent_cents) * budget_share)
        child, loci, drafts = await self.engine.prepare(
            NewWander(
                seed_concept=locus.concept,
                attractor=parent.attractor,
                name=f"{parent.name} / {locus.concept}"[:255],
                allowed_domains=parent.allowed_domains,
                forbidden_domains=parent.forbidden_domains,
                max_steps=max_steps,
                temperature=parent.temperature,
                random_seed=parent.random_seed if random_seed is None else random_seed,
                max_drift_distance=parent.max_drift_distance,
                cloud_budget_cents=share,
                human_checkpoint_frequency=parent.human_checkpoint_frequency,
                require_crystal_approval=parent.require_crystal_approval,
                parent_session_id=parent.id,
                parent_locus_id=locus.id,
                fence=list(parent.fence),
            )
        )
        # announced on the parent's stream, written with the child and the parent's budget
        spawned = ev.draft(
            SubwanderSpawnedPayload(
                session_id=parent.id,
                child_session_id=child.id,
                parent_locus_id=locus.id,
                seed_concept=child.seed_concept,
                name=child.name,
                max_steps=child.max_steps,
                budget_share=budget_share,
                cloud_budget_cents=share,
            )
        )
        events = await self.engine.store.create_subwander(child, loci, drafts, [spawned])
        await self.engine.bus.publish(events)
        return child


def _require_unfinished(session: Session) -> None:
    if session.status in (SessionStatus.COMPLETED, SessionStatus.ABANDONED):
        raise Conflict(f"session {session.id} is {session.status}; its fence can no longer change")


def _fence_summary(anchors: list[FenceAnchor]) -> list[FenceAnchorOut]:
    return [FenceAnchorOut(concept=a.concept, action=a.action) for a in anchors]  # type: ignore[arg-type]
