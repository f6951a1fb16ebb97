"""Crystallization: rumination (003) over the wander's graph, then the sandwich gate (004).

A crystal is two bread loci of the wander bounding a filling concept; the insight says how
the filling mediates between them. V >= 0.7 is accepted (crystal.formed + .validated),
0.5 <= V < 0.7 is kept for human review (crystal.formed), below that the crystal is kept as
invalidated with its reasons. The rumination trace is the crystal's evidence."""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass

import numpy as np

from wander.domain import sandwich
from wander.domain.geometry import midpoint, normalize
from wander.domain.models import Crystal, CrystalStatus, EventDraft, Locus, Resonance, new_id
from wander.engine import events as ev
from wander.engine.ports import Clock, Embedder, RuminationModel, Store
from wander.engine.rumination import RuminationResult, ruminate
from wander.engine.walk import Walk

MAX_BREAD_POOL = 12


@dataclass
class CrystallizeOutcome:
    crystal: Crystal | None
    events: list[EventDraft]
    rumination: RuminationResult
    reason: str


class Crystallizer:
    def __init__(self, store: Store, embedder: Embedder, ruminator: RuminationModel, clock: Clock):
        self.store = store
        self.embedder = embedder
        self.ruminator = ruminator
        self.clock = clock
        self._prototypes: dict[str, np.ndarray] | None = None

    def prototypes(self) -> dict[str, np.ndarray]:
        if self._prototypes is None:
            names = list(sandwich.TAXONOMY)
            vectors = self.embedder.embed([f"{n}: {sandwich.TAXONOMY[n]}" for n in names])
            self._prototypes = dict(zip(names, vectors))
        return self._prototypes

    async def crystallize(self, walk: Walk, trigger: str, locus: Locus,
                          resonance: Resonance | None = None) -> CrystallizeOutcome:  # fmt: skip
        session = walk.session
        stimulus = ", ".join(resonance.themes[:4]) if resonance else locus.concept
        vector = normalize(resonance.embedding if resonance is not None else locus.embedding)
        rum = await ruminate(self.store, session, stimulus, vector, self.ruminator)
        if rum.decision != "crystallize":
            return CrystallizeOutcome(None, [], rum, f"rumination ended without crystallizing ({rum.reason})")
        pool = _bread_pool(walk, vector)
        if len(pool) < 2:
            return CrystallizeOutcome(None, [], rum, "fewer than two loci to make bread of")
        existing = [c.embedding for c in await self.store.crystals(session.project_id)]
        existing_m = np.stack(existing) if existing else np.zeros((0, len(vector)), dtype=np.float32)
        best = None
        kb = walk.knowledge
        for b1, b2 in itertools.combinations(pool, 2):
            exclude = [i for i in (kb.index_of(b1.kb_key or ""), kb.index_of(b2.kb_key or "")) if i is not None]
            for f_i, _ in kb.nearest(midpoint(b1.embedding, b2.embedding), 3, exclude=exclude):
                val = sandwich.validity(b1.embedding, kb.vector(f_i), b2.embedding, existing_m)
                if best is None or val.v > best[3].v:
                    best = (b1, b2, f_i, val)
        b1, b2, f_i, val = best  # type: ignore[misc]
        filling = kb.concept(f_i)
        insight = rum.insight or (
            f"'{filling.label}' mediates between '{b1.concept}' and '{b2.concept}': "
            f"{filling.gloss.rstrip('.')}. It resonates with {stimulus}."
        )
        embedding = self.embedder.embed([insight])[0]
        if rum.insight:  # a model's own words are the filling
            val = sandwich.validity(b1.embedding, embedding, b2.embedding, existing_m)
        else:  # novelty is the insight's distance from the insights already crystallized
            val = dataclasses.replace(val, novelty=sandwich.novelty(embedding, existing_m))
        opposite = bool(
            b1.kb_key and b2.kb_key and kb.index_of(b2.kb_key) in kb.opposites(kb.index_of(b1.kb_key) or 0)
        )
        stype, _ = sandwich.structural_type(embedding, self.prototypes(), opposite)
        verdict = val.verdict
        now = self.clock.now()
        cited = {i for s in rum.steps if "rejected" not in s for i in s["evidence_ids"]}
        evidence = [{"type": e["type"], "id": str(e["id"]), "summary": e["summary"]}
                    for i, e in rum.evidence.items() if i in cited][:20]  # fmt: skip
        crystal = Crystal(
            id=new_id(), project_id=session.project_id, session_id=session.id, insight=insight, embedding=embedding,
            confidence=round(val.v, 4), actionability=float(np.clip((b1.actionability + b2.actionability) / 2, 0, 1)),
            domains=list(dict.fromkeys([*b1.domains, *filling.domains, *b2.domains])),
            status=CrystalStatus.INVALIDATED if verdict == "rejected" else CrystalStatus.ACTIVE,
            source_resonance_id=resonance.id if resonance else None, source_locus_id=locus.id,
            supporting_evidence=evidence, bread_a_locus_id=b1.id, bread_b_locus_id=b2.id,
            validity={**val.as_dict(), "filling": filling.label, "trigger": trigger}, structural_type=stype,
            rumination=rum.steps, validated_by="sandwich-gate", created_at=now,
            validation_notes={"accepted": "V >= 0.7", "review": "marginal (0.5 <= V < 0.7): awaiting human review",
                              "rejected": "; ".join(val.reasons()) or "V < 0.5"}[verdict],
        )  # fmt: skip
        events: list[EventDraft] = []
        if verdict != "rejected":
            events.append(ev.draft(ev.CRYSTAL_FORMED, session.id, crystal=crystal_summary(crystal)))
        if verdict == "accepted":
            events.append(ev.draft(ev.CRYSTAL_VALIDATED, session.id, crystal_id=crystal.id, V=round(val.v, 4)))
        return CrystallizeOutcome(crystal, events, rum, verdict)


def _bread_pool(walk: Walk, vector: np.ndarray) -> list[Locus]:
    """The loci nearest the stimulus (the seed excluded): what the sandwich's bread comes from."""
    loci = [lo for lo in walk.loci if str(lo.source_type) != "SEED"]
    loci.sort(key=lambda lo: -float(normalize(lo.embedding) @ vector))
    return loci[:MAX_BREAD_POOL]


def crystal_summary(c: Crystal) -> dict:
    return {"id": c.id, "insight": c.insight, "confidence": c.confidence, "structural_type": c.structural_type,
            "status": c.status, "bread": [c.bread_a_locus_id, c.bread_b_locus_id], "domains": c.domains,
            "V": c.validity.get("V"), "verdict": c.validity.get("verdict")}  # fmt: skip
