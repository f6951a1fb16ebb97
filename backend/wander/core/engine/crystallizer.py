"""Crystallization: rumination (003) over the wander's graph, then the sandwich gate (004).

A crystal is two bread loci of the wander bounding a filling concept; the insight says how
the filling mediates between them. V >= 0.7 is accepted (crystal.formed + .validated),
0.5 <= V < 0.7 is kept for human review (crystal.formed), below that the crystal is kept as
invalidated with its reasons. The rumination trace is the crystal's evidence."""

from __future__ import annotations

import dataclasses
import itertools
import re
from dataclasses import dataclass

import numpy as np
import snowballstemmer

from shared_schemas.events import CrystalFormedPayload, CrystalSummary, CrystalValidatedPayload
from wander.core.domain import sandwich
from wander.core.domain.geometry import midpoint, normalize
from wander.core.domain.models import Crystal, CrystalStatus, EventDraft, Locus, Resonance, new_id
from wander.core.engine import crystal_structure
from wander.core.engine import events as ev
from wander.core.engine.approval import hold_for_approval
from wander.core.engine.crystal_text import SENTENCE_END, plain_insight
from wander.core.engine.ports import Clock, Embedder, Knowledge, RuminationModel, Store
from wander.core.engine.rumination import RuminationResult, ruminate
from wander.core.engine.walk import Walk

MAX_BREAD_POOL = 12
BREAD_CHOICE = 10  # the breads are a pair among the loci this near the stimulus
BREAD_APART = (0.35, 0.55)  # bread similarity that leaves room for a filling
CANDIDATE_PAIRS = 45  # bread pairs (in order) whose sandwiches are weighed against each other
FILLINGS_WEIGHED = 3  # ... each with this many of its best fillings
FILLING_CHOICES = 16  # concepts nearest the breads' midpoint that a filling is chosen among
_STEMMER = snowballstemmer.stemmer("english")


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
        # Per session, every sandwich formed as (breads, filling); stored ones also come from the store.
        self._said: dict[str, set[tuple[frozenset, str | None]]] = {}
        # per wander, the sentences of its insights, rejected ones too (the store keeps
        # only those that stand)
        self._sentences: dict[str, set[str]] = {}
        self._substances: dict[str, np.ndarray | None] = {}  # per crystal id (see _novelty)

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
        pool = _bread_pool(walk, vector)
        if len(pool) < 2:
            return CrystallizeOutcome(None, [], rum, "fewer than two loci to make bread of")
        accepted = accepted_crystals(crystals)
        existing_m = _rows([c.embedding for c in accepted], len(vector))
        # The sandwich is chosen by what it is about (the pair of loci near the stimulus that
        # frames it best, and the corpus concept nearest their midpoint), never by its V:
        # the gate then judges it, so V says something. A sandwich already formed (same
        # breads, same filling) is passed over for the next best pair.
        said = {(frozenset((c.bread_a_locus_id, c.bread_b_locus_id)), c.validity.get("filling")) for c in crystals}
        said |= self._said.setdefault(session.id, set())
        # Pairs no crystal has joined yet come first (the same two breads with another
        # filling mostly says the same thing again); among those, pairs a filling can stand
        # between (related, yet apart enough that something sits between them: BREAD_APART)
        # come first, and among them breads of one kind that relate on their own
        # (crystal_structure.sound); then the rest, each by its midpoint's nearness to the stimulus.
        joined = {breads for breads, _ in said}
        kb = walk.knowledge

        def unsound(p: tuple[Locus, Locus]) -> bool:  # breads of different kinds, or unrelated
            s12 = float(normalize(p[0].embedding) @ normalize(p[1].embedding))
            return not crystal_structure.sound(kb, _anchor(kb, p[0]), _anchor(kb, p[1]), s12)

        pairs = sorted(
            itertools.combinations(pool[:BREAD_CHOICE], 2),
            key=lambda p: (
                frozenset((p[0].id, p[1].id)) in joined,
                not BREAD_APART[0] <= float(normalize(p[0].embedding) @ normalize(p[1].embedding)) <= BREAD_APART[1],
                unsound(p),
                -float(midpoint(p[0].embedding, p[1].embedding) @ vector),
            ),
        )
        used = frozenset(f for _, f in said)
        candidates = []
        for b1, b2 in pairs:
            a1, a2 = _anchor(kb, b1), _anchor(kb, b2)
            for f_i in fillings(kb, walk, b1, b2, a1, a2, used)[:FILLINGS_WEIGHED]:
                if (frozenset((b1.id, b2.id)), kb.concept(f_i).label) not in said:
                    candidates.append((b1, b2, a1, a2, f_i))
        if not candidates:
            return CrystallizeOutcome(None, [], rum, "every sandwich near the stimulus is formed already")
        # Of the sandwiches the order above allows, the one the gate can stand behind: the
        # first pairs' candidates, the sound ones (no rule of the gate broken) by the V their
        # concepts promise (the insight's own words are judged after, by the same gate).
        # Taking the first candidate alone formed sandwiches that repeated what the
        # accepted ones are about (low novelty) or barely mediated (low containment).
        subs = [v for v in [await self._substance(walk, c) for c in accepted] if v is not None]
        b1, b2, a1, a2, f_i = _best(kb, candidates[: CANDIDATE_PAIRS * FILLINGS_WEIGHED], _rows(subs, len(vector)))
        filling = kb.concept(f_i)
        # Rejected ones too: the same sandwich (breads and filling) is not formed twice.
        self._said[session.id].add((frozenset((b1.id, b2.id)), filling.label))
        sentences = self._sentences.setdefault(session.id, set())
        sentences.update(part for c in crystals if c.session_id == session.id for part in SENTENCE_END.split(c.insight))
        shape = crystal_structure.structure(kb, f_i, a1, a2, b1.embedding, b2.embedding)
        insight = rum.insight or plain_insight(
            kb, b1, b2, a1, a2, f_i, resonance, frozenset(sentences), shape.bread_relation, rum
        )
        sentences.update(SENTENCE_END.split(insight))
        lineage = in_lineage(kb, f_i, a1) or in_lineage(kb, f_i, a2)
        embedding = self.embedder.embed([insight])[0]
        echo = kb.similarities(normalize(embedding))
        nearest_gloss = int(np.argmax(echo))
        shape = dataclasses.replace(shape, gloss_echo=(float(echo[nearest_gloss]), kb.concept(nearest_gloss).label))
        val = sandwich.validity(b1.embedding, kb.vector(f_i), b2.embedding, existing_m, lineage, shape)
        if rum.insight:  # a model's own words are the filling
            val = sandwich.validity(b1.embedding, embedding, b2.embedding, existing_m, lineage, shape)
        else:  # novelty is what the sandwich is about, against what the accepted ones are about
            val = dataclasses.replace(val, novelty=await self._novelty(walk, b1, f_i, b2, embedding, accepted))
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
        crystal = Crystal(
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
                "review": "marginal (0.5 <= V < 0.7): awaiting human review",
                "rejected": "; ".join(val.reasons()) or "V < 0.5",
            }[verdict],
        )
        events: list[EventDraft] = []
        if verdict != "rejected":
            events.append(ev.draft(CrystalFormedPayload(session_id=session.id, crystal=crystal_summary(crystal))))
        if verdict == "accepted":
            events.append(
                ev.draft(
                    CrystalValidatedPayload(session_id=session.id, crystal_id=crystal.id, V=round(float(val.v), 4))
                )
            )
        events, verdict = hold_for_approval(session, crystal, events, verdict)
        return CrystallizeOutcome(crystal, events, rum, verdict)

    async def _novelty(
        self, walk: Walk, b1: Locus, f_i: int, b2: Locus, insight: np.ndarray, accepted: list[Crystal]
    ) -> float:
        """1 minus the similarity to the nearest accepted crystal, in substance: the mean of
        the breads' and the filling's unit vectors. The insights' own text shares its
        phrasing from crystal to crystal, which hides what they are about; the three concepts
        do not. A crystal whose substance cannot be rebuilt (a bread locus gone, a filling
        outside the corpus) is compared by its insight's text."""
        kb = walk.knowledge
        mine = substance(b1.embedding, kb.vector(f_i), b2.embedding)
        by_substance: list[np.ndarray] = []
        by_text: list[np.ndarray] = []
        for c in accepted:
            v = await self._substance(walk, c)
            if v is not None:
                by_substance.append(v)
            else:
                by_text.append(c.embedding)
        return min(
            sandwich.novelty(mine, _rows(by_substance, len(mine))),
            sandwich.novelty(insight, _rows(by_text, len(mine))),
        )

    async def _substance(self, walk: Walk, c: Crystal) -> np.ndarray | None:
        if c.id in self._substances:
            return self._substances[c.id]
        kb = walk.knowledge
        f = kb.find_label(str(c.validity.get("filling") or ""))
        breads = []
        for locus_id in (c.bread_a_locus_id, c.bread_b_locus_id):
            lo = walk.by_id.get(locus_id or "") if c.session_id == walk.session.id else None
            if lo is None and c.session_id is not None and locus_id is not None:
                lo = await self.store.locus(c.session_id, locus_id)
            breads.append(lo)
        v = None
        if f is not None and breads[0] is not None and breads[1] is not None:
            v = substance(breads[0].embedding, kb.vector(f), breads[1].embedding)
        self._substances[c.id] = v
        return v


def accepted_crystals(crystals: list[Crystal]) -> list[Crystal]:
    """What novelty is measured against: the insights that stand, accepted by the gate or by
    a person. One kept for review, or rejected, has not joined the corpus (004)."""
    return [c for c in crystals if c.validity.get("verdict") == "accepted" or c.human_approved]


def substance(b1: np.ndarray, filling: np.ndarray, b2: np.ndarray) -> np.ndarray:
    """What a sandwich is about: the mean of its three concepts' unit vectors, unit length."""
    return normalize(normalize(b1) + normalize(filling) + normalize(b2))


def _rows(vectors: list[np.ndarray], dim: int) -> np.ndarray:
    """Unit rows to compare with (an empty matrix for none)."""
    if not vectors:
        return np.zeros((0, dim), dtype=np.float32)
    return normalize(np.stack(vectors))


def are_opposites(kb: Knowledge, key_a: str | None, key_b: str | None) -> bool:
    """Corpus antonyms; a key missing from the corpus is never concept 0 (index 0 is falsy)."""
    i, j = kb.index_of(key_a or ""), kb.index_of(key_b or "")
    return i is not None and j is not None and j in kb.opposites(i)


def _bread_pool(walk: Walk, vector: np.ndarray) -> list[Locus]:
    """The loci nearest the stimulus (the seed excluded): what the sandwich's bread comes from."""
    loci = [lo for lo in walk.loci if str(lo.source_type) != "SEED"]
    loci.sort(key=lambda lo: -float(normalize(lo.embedding) @ vector))
    return loci[:MAX_BREAD_POOL]


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


def _filling(
    kb: Knowledge, walk: Walk, b1: Locus, b2: Locus, a1: int, a2: int, used: frozenset[str | None] = frozenset()
) -> int:
    """The best filling of `fillings`."""
    return fillings(kb, walk, b1, b2, a1, a2, used)[0]


def fillings(
    kb: Knowledge, walk: Walk, b1: Locus, b2: Locus, a1: int, a2: int, used: frozenset[str | None] = frozenset()
) -> list[int]:
    """Filling candidates, best first: the corpus concept nearest both breads (the highest
    of its lower similarity to the two) first: the concept nearest their midpoint alone is often much nearer one bread than the
    other, which makes it a restatement of that bread, not what stands between them. Taken
    among the FILLING_CHOICES concepts nearest the midpoint that are not another sense of a
    bread's word nor a bread's broader concept; where there is a choice, one this wander's
    crystals have not used already (`used`: filling labels) and the walk has not met."""
    near = kb.nearest(midpoint(b1.embedding, b2.embedding), FILLING_CHOICES, exclude=[a1, a2])
    bread_words = {_lemma(kb, a1).lower(), _lemma(kb, a2).lower(), b1.concept.lower(), b2.concept.lower()}
    bread_stems = set().union(*(word_stems(w.split(" (")[0]) for w in bread_words))
    fresh = [
        i for i, _ in near if _lemma(kb, i).lower() not in bread_words and not word_stems(_lemma(kb, i)) & bread_stems
    ]
    apt = [i for i in fresh if not (in_lineage(kb, i, a1) or in_lineage(kb, i, a2))]
    # a filling that only names the breads' category, or one of the corpus's most abstract
    # concepts, is the last resort
    apt = [
        i
        for i in apt
        if crystal_structure.triviality(kb, i, a1, a2) is None and not crystal_structure.is_abstract(kb, i)
    ] or apt
    unused = [i for i in apt if kb.concept(i).label not in used]
    choice = [i for i in unused if not walk.visited_mask[i]] or unused or apt or fresh or [near[0][0]]
    v1, v2 = normalize(b1.embedding), normalize(b2.embedding)
    both = kb.vectors(np.asarray(choice, dtype=np.int64)) @ np.stack([v1, v2]).T
    order = np.argsort(-both.min(axis=1), kind="stable")  # the first (nearest the midpoint) of equals
    return [choice[int(k)] for k in order]


def _best(kb: Knowledge, candidates: list[tuple[Locus, Locus, int, int, int]], accepted: np.ndarray):
    """The candidate sandwich (breads, their anchors, filling) with no hard failure and the
    highest promised V; the first candidate where none is sound."""

    def promise(c: tuple[Locus, Locus, int, int, int]) -> tuple[bool, float]:
        b1, b2, a1, a2, f_i = c
        lineage = in_lineage(kb, f_i, a1) or in_lineage(kb, f_i, a2)
        shape = crystal_structure.structure(kb, f_i, a1, a2, b1.embedding, b2.embedding)
        val = sandwich.validity(b1.embedding, kb.vector(f_i), b2.embedding, accepted, lineage, shape)
        mine = substance(b1.embedding, kb.vector(f_i), b2.embedding)
        val = dataclasses.replace(val, novelty=sandwich.novelty(mine, accepted))
        return (not val.hard_failures(), val.v)

    scored = [(promise(c), -n) for n, c in enumerate(candidates)]
    return candidates[-max(scored)[1]]


def word_stems(text: str) -> set[str]:
    """The stems of a name's words of four letters or more: 'film making' and 'filming' share
    'film', so the one only restates the other."""
    words = [w for w in re.findall(r"[a-z]+", text.lower()) if len(w) >= 4]
    return set(_STEMMER.stemWords(words))


def _anchor(kb: Knowledge, locus: Locus) -> int:
    """The corpus concept a locus is (or the nearest one)."""
    i = kb.index_of(locus.kb_key) if locus.kb_key else None
    return i if i is not None else kb.nearest(locus.embedding, 1)[0][0]


def _lemma(kb: Knowledge, i: int) -> str:
    return kb.concept(i).label.split(" (")[0]


def in_lineage(kb: Knowledge, filling: int, bread: int) -> bool:
    """The filling is one of the bread's broader concepts (or the bread one of its own)."""
    f, b = kb.concept(filling), kb.concept(bread)
    return (
        _lemma(kb, filling) in b.path
        or _lemma(kb, bread) in f.path
        or _lemma(kb, filling).lower() == _lemma(kb, bread).lower()
    )
