"""Crystallization: rumination (003) over the wander's graph, then the sandwich gate (004).

A crystal is two bread loci of the wander bounding a filling concept; the insight says how
the filling mediates between them. V >= 0.7 is accepted (crystal.formed + .validated),
0.5 <= V < 0.7 is kept for human review (crystal.formed), below that the crystal is kept as
invalidated with its reasons. The rumination trace is the crystal's evidence."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from shared_schemas.events import CrystalFormedPayload, CrystalSummary, CrystalValidatedPayload
from wander.core.domain import sandwich
from wander.core.domain.geometry import normalize
from wander.core.domain.models import Crystal, CrystalStatus, EventDraft, Locus, Resonance, new_id
from wander.core.engine import crystal_structure
from wander.core.engine import events as ev
from wander.core.engine.approval import hold_for_approval
from wander.core.engine.crystal_names import NameReader
from wander.core.engine.crystal_substance import Substances
from wander.core.engine.crystal_text import SENTENCE_END, plain_insight
from wander.core.engine.crystal_weighed import RANK, Tasted, weighed_before, weighed_record
from wander.core.engine.ports import (
    Clock,
    CrystalStore,
    Embedder,
    EvidenceStore,
    Knowledge,
    LocusStore,
    RuminationModel,
)
from wander.core.engine.rumination import RuminationResult, ruminate
from wander.core.engine.sandwich_choice import (
    CANDIDATE_PAIRS,
    FILLINGS_WEIGHED,
    TASTED,
    Sandwich,
    best,
    bread_pool,
    candidate_sandwiches,
    in_lineage,
    promised,
    ranked,
    rework_candidates,
    rows,
    said_key,
    tasting,
    widened,
)
from wander.core.engine.walk import Walk


class CrystallizerStore(CrystalStore, LocusStore, EvidenceStore, Protocol):
    """What crystallization reads: the project's crystals, their bread loci, the rumination's evidence."""


@dataclass
class CrystallizeOutcome:
    crystal: Crystal | None
    events: list[EventDraft]
    rumination: RuminationResult
    reason: str


class Crystallizer:
    def __init__(self, store: CrystallizerStore, embedder: Embedder, ruminator: RuminationModel, clock: Clock):
        self.store = store
        self.embedder = embedder
        self.ruminator = ruminator
        self.clock = clock
        self._prototypes: dict[str, np.ndarray] | None = None
        # Per session, every sandwich formed as (breads, filling); stored ones also come from the store.
        self._said: dict[str, set[tuple[frozenset, str | None]]] = {}
        # per wander, the sentences of its insights, rejected ones too (the store keeps
        # only those that stand)
        self._sentences: dict[str, set[str]] = {}
        self.substances = Substances(store)  # what the accepted crystals are about (novelty)
        self.tasted = TASTED  # different sandwiches the gate judges at each crystallization
        self.names = NameReader(embedder)  # the sandwiches' names, read for the names-alike rule

    def prototypes(self) -> dict[str, np.ndarray]:
        if self._prototypes is None:
            names = list(sandwich.TAXONOMY)
            vectors = self.embedder.embed([f"{n}: {sandwich.TAXONOMY[n]}" for n in names])
            self._prototypes = dict(zip(names, vectors))
        return self._prototypes

    async def crystallize(
        self,
        walk: Walk,
        trigger: str,
        locus: Locus,
        resonance: Resonance | None = None,
        *,
        budget_cents: int | None = None,
    ) -> CrystallizeOutcome:
        """budget_cents: the cloud budget the rumination may spend (a step's: what its session
        has left after the step's dwelling); None: no cloud (outside a step nothing charges it)."""
        session = walk.session
        stimulus = ", ".join(resonance.themes[:4]) if resonance else locus.concept
        vector = normalize(resonance.embedding if resonance is not None else locus.embedding)
        crystals = await self.store.crystals(session.project_id)
        # what the project's crystals hold already is organised: no orphan for the rumination
        organized = frozenset(
            {c.id for c in crystals} | {str(e.get("id")).split("#")[0] for c in crystals for e in c.supporting_evidence}
        )
        rum = await ruminate(self.store, session, stimulus, vector, self.ruminator, organized, budget_cents)
        if rum.decision != "crystallize":
            return CrystallizeOutcome(None, [], rum, f"rumination ended without crystallizing ({rum.reason})")
        pool = bread_pool(walk, vector)
        if len(pool) < 2:
            return CrystallizeOutcome(None, [], rum, "fewer than two loci to make bread of")
        accepted = accepted_crystals(crystals)
        said = {(frozenset((c.bread_a_locus_id, c.bread_b_locus_id)), c.validity.get("filling")) for c in crystals}
        said |= weighed_before(crystals)
        said |= self._said.setdefault(session.id, set())
        candidates = candidate_sandwiches(walk, pool, vector, said)
        if not candidates:
            return CrystallizeOutcome(None, [], rum, "every sandwich near the stimulus is formed already")
        # Of the sandwiches the order allows, those the gate can stand behind: the first
        # pairs' candidates, the sound ones (no rule of the gate broken, their names read
        # too) by the verdict, then the V, their concepts promise (the insight's own words
        # are judged after, by the same gate).
        # Taking the first candidate alone formed sandwiches that repeated what the
        # accepted ones are about (low novelty) or barely mediated (low containment).
        # The gate tastes the best few different ones, each judged whole; the crystal is
        # the best verdict, and keeps what else was weighed and why it was turned down.
        subs = rows(
            [v for v in [await self.substances.of_crystal(walk, c) for c in accepted] if v is not None], len(vector)
        )
        weighed = candidates[: CANDIDATE_PAIRS * FILLINGS_WEIGHED]
        alike = self.names.alike(walk.knowledge, weighed)
        order, sound = ranked(walk.knowledge, weighed, subs, alike)
        picks = tasting(walk.knowledge, order, sound, self.tasted)
        if len(picks) < self.tasted:
            picks = self._widened(walk, vector, said, rum, weighed, picks, subs)
        tasted = [await self._taste(walk, crystals, s, resonance, rum, accepted) for s in picks]
        win = max(range(len(tasted)), key=lambda k: (RANK[tasted[k].val.verdict], tasted[k].val.v, -k))
        chosen = tasted[win]
        others = [t for k, t in enumerate(tasted) if k != win]
        first: Tasted | None = None
        second: Tasted | None = None  # a second try that did not better a first held for review
        if chosen.val.verdict != "accepted" and not rum.insight:
            # Reworked once with what the rumination found (a wider bread pool, the loci and
            # themes its lenses returned); the gate judges the second try as it did the
            # first, and the crystal keeps the try it outdid and why it fell short
            # (second_try). One held for review is tried again only with a sandwich that
            # promises to be accepted: one that promises no better would only be weighed.
            again = rework_candidates(walk, vector, said | self._said[session.id], rum.evidence)
            alike = self.names.alike(walk.knowledge, again)
            redo = best(walk.knowledge, again, subs, alike) if again else None
            if redo is not None and (
                chosen.val.verdict == "rejected" or promised(walk.knowledge, redo, subs, alike).verdict == "accepted"
            ):
                retry = await self._taste(walk, crystals, redo, resonance, rum, accepted)
                chosen, first, second = second_try(chosen, retry)
                if first is not None:
                    self._sentences[session.id].update(SENTENCE_END.split(first.insight))
        self._sentences[session.id].update(SENTENCE_END.split(chosen.insight))
        crystal = self._crystal(walk, chosen, rum, trigger, locus, resonance)
        if first is not None:
            crystal.validity["reworked_from"] = weighed_record(walk, first)
        crystal.validity["also_weighed"] = [weighed_record(walk, t) for t in others] + (
            [{**weighed_record(walk, second), "second_try": True}] if second is not None else []
        )
        val = chosen.val
        events, verdict = hold_for_approval(session, crystal, _crystal_events(session.id, crystal, val), val.verdict)
        return CrystallizeOutcome(crystal, events, rum, verdict)

    def _widened(
        self,
        walk: Walk,
        vector: np.ndarray,
        said: set[tuple[frozenset, str | None]],
        rum: RuminationResult,
        weighed: list[Sandwich],
        picks: list[Sandwich],
        subs: np.ndarray,
    ) -> list[Sandwich]:
        """The tasting filled up from the wider pool a second try draws on (sandwich_choice.widened)."""
        wider = rework_candidates(walk, vector, said, rum.evidence)
        alike = self.names.alike(walk.knowledge, wider)
        return widened(walk.knowledge, picks, weighed, wider, subs, alike, self.tasted)

    async def _taste(
        self,
        walk: Walk,
        crystals: list[Crystal],
        chosen: Sandwich,
        resonance: Resonance | None,
        rum: RuminationResult,
        accepted: list[Crystal],
    ) -> Tasted:
        """One sandwich judged whole: its words, then the gate on them. Judged once: the same
        sandwich (breads and filling) is not weighed again, whatever its verdict."""
        self._said[walk.session.id].add(said_key(walk.knowledge, chosen))
        insight, shape = self._insight(walk, crystals, chosen, resonance, rum)
        embedding, val = await self._judge(walk, chosen, insight, shape, rum, accepted)
        return Tasted(chosen, insight, embedding, val)

    def _insight(
        self,
        walk: Walk,
        crystals: list[Crystal],
        chosen: Sandwich,
        resonance: Resonance | None,
        rum: RuminationResult,
    ) -> tuple[str, sandwich.Structure]:
        """The insight's sentence (the model's own, or written from the corpus without
        repeating a sentence this wander's insights said already) and the sandwich's shape.
        Only a crystal's words (and a reworked first try's) join what was said: a sandwich
        the gate weighed and passed over said nothing."""
        kb, session = walk.knowledge, walk.session
        b1, b2, a1, a2, f_i = chosen
        sentences = self._sentences.setdefault(session.id, set())
        sentences.update(part for c in crystals if c.session_id == session.id for part in SENTENCE_END.split(c.insight))
        shape = crystal_structure.structure(kb, f_i, a1, a2, b1.embedding, b2.embedding)
        insight = rum.insight or plain_insight(
            kb, b1, b2, a1, a2, f_i, resonance, frozenset(sentences), shape.bread_relation, rum
        )
        return insight, shape

    async def _judge(
        self,
        walk: Walk,
        chosen: Sandwich,
        insight: str,
        shape: sandwich.Structure,
        rum: RuminationResult,
        accepted: list[Crystal],
    ) -> tuple[np.ndarray, sandwich.Validity]:
        """The sandwich gate (004) on the chosen sandwich: the insight's embedding and its V."""
        kb = walk.knowledge
        b1, b2, a1, a2, f_i = chosen
        existing_m = rows([c.embedding for c in accepted], len(b1.embedding))
        lineage = in_lineage(kb, f_i, a1) or in_lineage(kb, f_i, a2)
        embedding = self.embedder.embed([insight])[0]
        # the corpus concept the words echo most (the knowledge port's nearest: no pass over a large one)
        nearest_gloss, echo = kb.nearest(normalize(embedding), 1)[0]
        shape = dataclasses.replace(
            shape,
            gloss_echo=(echo, kb.concept(nearest_gloss).label),
            names_alike=self.names.alike(kb, [chosen])(chosen),
        )
        val = sandwich.validity(b1.embedding, kb.vector(f_i), b2.embedding, existing_m, lineage, shape)
        if rum.insight:  # a model's own words are the filling
            val = sandwich.validity(b1.embedding, embedding, b2.embedding, existing_m, lineage, shape)
        else:  # novelty is what the sandwich is about, against what the accepted ones are about
            novelty = await self.substances.novelty(walk, b1, f_i, b2, embedding, accepted)
            val = dataclasses.replace(val, novelty=novelty)
        return embedding, val

    def _crystal(
        self,
        walk: Walk,
        tasted: Tasted,
        rum: RuminationResult,
        trigger: str,
        locus: Locus,
        resonance: Resonance | None,
    ) -> Crystal:
        """The crystal as the gate judged it, its type, and the rumination's cited evidence."""
        kb, session = walk.knowledge, walk.session
        b1, b2, _, _, f_i = tasted.choice
        insight, embedding, val = tasted.insight, tasted.embedding, tasted.val
        filling = kb.concept(f_i)
        opposite = are_opposites(kb, b1.kb_key, b2.kb_key)
        stype, _ = sandwich.structural_type(embedding, self.prototypes(), opposite)
        typed = sandwich.type_confidence(embedding, self.prototypes(), opposite)
        verdict = val.verdict
        now = self.clock.now()
        cited = {i for s in rum.steps if "rejected" not in s for i in s["evidence_ids"]}
        evidence = [
            {"type": e["type"], "id": str(e["id"]), "summary": e["summary"]}
            for i, e in rum.evidence.items()
            if i in cited
        ][:20]
        return Crystal(
            id=new_id(),
            project_id=session.project_id,
            session_id=session.id,
            insight=insight,
            embedding=embedding,
            confidence=round(val.v, 4),
            actionability=float(np.clip((b1.actionability + b2.actionability) / 2, 0, 1)),
            domains=list(dict.fromkeys([*b1.domains, *filling.domains, *b2.domains])),
            status=CrystalStatus.INVALIDATED if verdict == "rejected" else CrystalStatus.ACTIVE,
            source_resonance_id=resonance.id if resonance else None,
            source_locus_id=locus.id,
            supporting_evidence=evidence,
            bread_a_locus_id=b1.id,
            bread_b_locus_id=b2.id,
            validity={**val.as_dict(), "filling": filling.label, "trigger": trigger, **typed},
            structural_type=stype,
            rumination=rum.steps,
            validated_by="sandwich-gate",
            created_at=now,
            validation_notes={
                "accepted": "V >= 0.7",
                "review": "marginal (0.5 <= V < 0.7, or a filling that does not mediate): awaiting human review",
                "rejected": "; ".join(val.reasons()) or "V < 0.5",
            }[verdict],
        )


def second_try(tried: Tasted, retry: Tasted) -> tuple[Tasted, Tasted | None, Tasted | None]:
    """What stands once a crystal the gate did not accept was tried again: the crystal, the
    first try it was reworked from (or None), and a second try kept as weighed beside it (or
    None). A rejected first try gives way to the second; one held for review only to a
    better verdict, or the same verdict with a higher V."""
    if tried.val.verdict == "rejected" or _rank(retry) > _rank(tried):
        return retry, tried, None
    return tried, None, retry


def _rank(t: Tasted) -> tuple[int, float]:
    return RANK[t.val.verdict], t.val.v


def _crystal_events(session_id: str, crystal: Crystal, val: sandwich.Validity) -> list[EventDraft]:
    """crystal.formed unless the gate rejected it; crystal.validated when it accepted it."""
    events: list[EventDraft] = []
    if val.verdict != "rejected":
        events.append(ev.draft(CrystalFormedPayload(session_id=session_id, crystal=crystal_summary(crystal))))
    if val.verdict == "accepted":
        events.append(
            ev.draft(CrystalValidatedPayload(session_id=session_id, crystal_id=crystal.id, V=round(float(val.v), 4)))
        )
    return events


def accepted_crystals(crystals: list[Crystal]) -> list[Crystal]:
    """What novelty is measured against: the insights that stand, accepted by the gate or by
    a person. One kept for review, or rejected, has not joined the corpus (004)."""
    return [c for c in crystals if c.validity.get("verdict") == "accepted" or c.human_approved]


def are_opposites(kb: Knowledge, key_a: str | None, key_b: str | None) -> bool:
    """Corpus antonyms; a key missing from the corpus is never concept 0 (index 0 is falsy)."""
    i, j = kb.index_of(key_a or ""), kb.index_of(key_b or "")
    return i is not None and j is not None and j in kb.opposites(i)


def crystal_summary(c: Crystal) -> CrystalSummary:
    return CrystalSummary(
        id=c.id,
        insight=c.insight,
        confidence=c.confidence,
        # the type only where the classifier is confident (see sandwich.type_confidence);
        # the crystal keeps its nearest type and the figures in its validity
        structural_type=c.structural_type if c.validity.get("type_confident", True) else None,
        status=c.status,
        bread=[c.bread_a_locus_id, c.bread_b_locus_id],
        domains=c.domains,
        V=c.validity.get("V"),
        verdict=c.validity.get("verdict"),
    )
