"""What the mind map needs beyond 000: a person's verdict on a crystal kept for review, the
fence as a list (and removing an anchor), and the comparison of two loci."""

from __future__ import annotations

from collections import deque

from litestar import Controller, delete, get, post

from shared_schemas.events import CrystalReviewedPayload
from shared_schemas.models import CompareOut, CrystalOut, CrystalReview, FenceOut
from wander.api.controllers.sessions import load_session
from wander.api.convert import crystal_out, locus_out
from wander.api.deps import Services
from wander.domain.errors import InvalidInput, NotFound
from wander.domain.geometry import cosine_distance, midpoint
from wander.domain.models import Crystal, EventDraft
from wander.domain.views import StepView
from wander.engine import events as ev
from wander.store.crystal_review import review_crystal


class WorkbenchController(Controller):
    path = "/api/v1/wander"
    tags = ["mind map"]

    @post("/crystals/{crystal_id:str}/review", status_code=200)
    async def review(self, crystal_id: str, data: CrystalReview, svc: Services) -> CrystalOut:
        """accept or reject a crystal the sandwich gate kept for human review (0.5 <= V < 0.7)."""

        def event(c: Crystal, status: str) -> EventDraft:
            payload = CrystalReviewedPayload(
                session_id=c.session_id or "", crystal_id=c.id, verdict=data.verdict, status=status, note=data.note
            )
            return ev.draft(payload)

        crystal, events = await review_crystal(svc.app.store, crystal_id, data.verdict, data.note, event)
        await svc.app.engine.bus.publish(events)
        return crystal_out(crystal)

    @get("/sessions/{session_id:str}/fences")
    async def fences(self, session_id: str, svc: Services) -> list[FenceOut]:
        s = await load_session(svc, session_id)
        return [FenceOut(concept=a.concept, action=a.action) for a in s.fence]

    @delete("/sessions/{session_id:str}/fences", status_code=200)
    async def remove_fence(self, session_id: str, concept: str, svc: Services) -> list[FenceOut]:
        """Remove the anchor named `concept` from the fence."""
        s = await load_session(svc, session_id)
        kept = [a for a in s.fence if a.concept != concept]
        if len(kept) == len(s.fence):
            raise NotFound("fence anchor", concept)
        await svc.app.store.set_controls(session_id, fence=kept)
        return [FenceOut(concept=a.concept, action=a.action) for a in kept]

    @get("/sessions/{session_id:str}/compare")
    async def compare(self, session_id: str, a: str, b: str, svc: Services) -> CompareOut:
        """Two loci side by side: distance, domains, the corpus concept between them and the
        shortest way the walk went from one to the other."""
        await load_session(svc, session_id)
        if a == b:
            raise InvalidInput("b", "must be another locus than a")
        la, lb = (
            await svc.app.store.locus(session_id, a),
            await svc.app.store.locus(session_id, b),
        )
        if la is None:
            raise NotFound("locus", a)
        if lb is None:
            raise NotFound("locus", b)
        kb = svc.app.engine.knowledge
        exclude = [i for i in (kb.index_of(la.kb_key or ""), kb.index_of(lb.kb_key or "")) if i is not None]
        near = kb.nearest(midpoint(la.embedding, lb.embedding), 1, exclude=exclude)
        mid = kb.concept(near[0][0]) if near else None
        steps = await svc.app.store.trace(session_id)
        return CompareOut(
            a=locus_out(la), b=locus_out(lb), cosine_distance=round(cosine_distance(la.embedding, lb.embedding), 4),
            shared_domains=[d for d in la.domains if d in lb.domains],
            only_a_domains=[d for d in la.domains if d not in lb.domains],
            only_b_domains=[d for d in lb.domains if d not in la.domains],
            midpoint_concept=mid.label if mid else None, midpoint_gloss=mid.gloss if mid else None,
            path=walk_path(steps, a, b),
        )  # fmt: skip


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
