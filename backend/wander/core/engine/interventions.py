"""What a person (or an agent) does to a wander from outside: inject a concept, move the
fence, force a crystallization, spawn a sub-wander."""

from __future__ import annotations

from typing import TYPE_CHECKING

from shared_schemas.common import FenceAnchorOut
from shared_schemas.events import (
    FenceAddedPayload,
    FenceRemovedPayload,
    InjectionQueuedPayload,
    LocusPlantedPayload,
    SubwanderSpawnedPayload,
)
from wander.core.domain.errors import Conflict, InvalidInput, NotFound
from wander.core.domain.models import (
    FINISHED,
    EventDraft,
    FenceAnchor,
    Locus,
    Session,
    SessionStatus,
    SourceType,
    new_id,
)
from wander.core.domain.validation import clean_text
from wander.core.engine import events as ev
from wander.core.engine.creation import NewWander, seed_domains

if TYPE_CHECKING:
    from wander.core.engine.service import WanderEngine


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
            domains, kb_key, abstraction = seed_domains(self.engine.knowledge, concept, v)
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
