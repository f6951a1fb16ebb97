"""What the mind map does beyond 000's interventions: a person's verdict on a crystal the
sandwich gate kept for review, removing a fence anchor by name, and two loci compared.
Faces translate; the rules are here, over the engine's ports."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from shared_schemas.events import CrystalReviewedPayload, CrystalValidatedPayload
from wander.core.domain.errors import Conflict, InvalidInput, NotFound
from wander.core.domain.geometry import cosine_distance, midpoint
from wander.core.domain.models import Crystal, CrystalStatus, FenceAnchor, Locus
from wander.core.domain.views import StepView
from wander.core.engine import events as ev
from wander.core.engine.queries import Queries
from wander.core.engine.service import Interventions, WanderEngine

VERDICTS = ("accept", "reject")


@dataclass(frozen=True)
class Comparison:
    a: Locus
    b: Locus
    cosine_distance: float
    shared_domains: list[str]
    only_a_domains: list[str]
    only_b_domains: list[str]
    midpoint_concept: str | None  # the corpus concept nearest the midpoint of the two
    midpoint_gloss: str | None
    path: list[str]  # locus ids of the shortest chain of taken steps from a to b ([] if none)


class Workbench:
    def __init__(self, engine: WanderEngine, queries: Queries):
        self.engine = engine
        self.queries = queries

    async def review_crystal(self, crystal_id: str, verdict: str, note: str | None) -> Crystal:
        """accept: the crystal stays active, approved by a person; reject: it is invalidated.
        Only a crystal the gate kept for review, and not yet reviewed, takes a verdict; the
        crystal and wander.crystal.reviewed are written in one transaction."""
        if verdict not in VERDICTS:
            raise InvalidInput("verdict", f"must be one of {', '.join(VERDICTS)} (got '{verdict}')")
        c = await self.queries.crystal(crystal_id)
        if c.validity.get("verdict") != "review":
            raise Conflict(f"crystal {crystal_id} was not kept for review (gate verdict: {c.validity.get('verdict')})")
        if c.human_approved or c.status != CrystalStatus.ACTIVE:
            raise Conflict(f"crystal {crystal_id} was already reviewed (status {c.status})")
        accepted = verdict == "accept"
        status = CrystalStatus.ACTIVE if accepted else CrystalStatus.INVALIDATED
        notes = f"{'accepted' if accepted else 'rejected'} by a person" + (f": {note}" if note else "")
        drafts = []
        if c.session_id is not None:
            payload = CrystalReviewedPayload(
                session_id=c.session_id, crystal_id=c.id, status=str(status), note=note, verdict=verdict
            )  # type: ignore[arg-type]  # checked above
            drafts.append(ev.draft(payload))
            if accepted and c.validity.get("gate_verdict") == "accepted":
                # held only because the wander requires approval: now it stands, validated
                v = round(float(c.validity.get("V", c.confidence)), 4)
                drafts.append(ev.draft(CrystalValidatedPayload(session_id=c.session_id, crystal_id=c.id, V=v)))
        events = await self.engine.store.record_crystal_review(c.id, c.session_id, str(status), accepted, notes, drafts)
        await self.engine.bus.publish(events)
        c.status, c.human_approved, c.validation_notes = str(status), accepted, notes
        return c

    async def remove_fence(self, session_id: str, concept: str) -> list[FenceAnchor]:
        """Remove the anchor named `concept` (NotFound when the fence has none):
        wander.fence.removed, as Interventions.unfence. Returns the fence left."""
        session = await self.queries.session(session_id)
        if all(a.concept != concept for a in session.fence):
            raise NotFound("fence anchor", concept)
        return (await Interventions(self.engine).unfence(session_id, concept)).fence

    async def compare(self, session_id: str, a: str, b: str) -> Comparison:
        """Two loci side by side: distance, domains, the corpus concept between them and the
        shortest way the walk went from one to the other."""
        await self.queries.session(session_id)
        if a == b:
            raise InvalidInput("b", "must be another locus than a")
        la, lb = await self.engine.store.locus(session_id, a), await self.engine.store.locus(session_id, b)
        if la is None:
            raise NotFound("locus", a)
        if lb is None:
            raise NotFound("locus", b)
        kb = self.engine.knowledge
        exclude = [i for i in (kb.index_of(la.kb_key or ""), kb.index_of(lb.kb_key or "")) if i is not None]
        near = kb.nearest(midpoint(la.embedding, lb.embedding), 1, exclude=exclude)
        mid = kb.concept(near[0][0]) if near else None
        steps = await self.queries.trace(session_id)
        return Comparison(
            a=la,
            b=lb,
            cosine_distance=round(cosine_distance(la.embedding, lb.embedding), 4),
            shared_domains=[d for d in la.domains if d in lb.domains],
            only_a_domains=[d for d in la.domains if d not in lb.domains],
            only_b_domains=[d for d in lb.domains if d not in la.domains],
            midpoint_concept=mid.label if mid else None,
            midpoint_gloss=mid.gloss if mid else None,
            path=walk_path(steps, a, b),
        )


def walk_path(steps: list[StepView], a: str, b: str) -> list[str]:
    """Shortest chain of taken steps (either direction) linking locus a to locus b."""
    nbrs: dict[str, set[str]] = {}
    for s in steps:
        f, t = s.from_locus_id, s.to_locus_id
        if f is None or t is None:
            continue
        f, t = str(f), str(t)
        nbrs.setdefault(f, set()).add(t)
        nbrs.setdefault(t, set()).add(f)
    prev: dict[str, str | None] = {a: None}
    todo = deque([a])
    while todo:
        n = todo.popleft()
        if n == b:
            out = [b]
            while prev[out[-1]] is not None:
                out.append(prev[out[-1]])  # type: ignore[arg-type]
            return out[::-1]
        for m in sorted(nbrs.get(n, ())):
            if m not in prev:
                prev[m] = n
                todo.append(m)
    return []
