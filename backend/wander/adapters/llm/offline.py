"""The offline dweller: a residue built from the knowledge base and the geometry alone.

No sentence is canned or drawn at random. The facts of the pair are read once from the two
loci's embeddings and their places in the corpus (hypernym paths, opposites, domains,
definitions that name the other, corpus relations, the concepts nearest their midpoint,
what characterises each side against the other, the attractor) in offline_facets.facts;
each facet is then written from those facts alone (offline_facets.writers), a clause for
each fact that holds, so what a facet says and how it says it follow the pair. The figures
behind each statement live in the residue's details, so a reader can check it (DESIGN.md
section 6). Corpus labels that are ancestors of more than 5% of the concepts never become
themes."""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from wander.adapters.llm.offline_facets.facts import PairFacts, lemma, pair_facts
from wander.adapters.llm.offline_facets.history import recurring, two_steps_back
from wander.adapters.llm.offline_facets.variety import Masker, choose, used_openings
from wander.adapters.llm.offline_facets.words import DOMAIN_WORDS
from wander.adapters.llm.offline_facets.writers import FACETS, WRITERS
from wander.core.domain import scoring
from wander.core.domain.geometry import band_centrality, midpoint, normalize
from wander.core.domain.models import Locus, Residue
from wander.core.engine.ports import BandSampler, DwellRequest, Knowledge
from wander.core.engine.text_openings import SENTENCE
from wander.core.engine.themes import degenerate_themes

POOL = 200  # a large knowledge base's concepts nearest each of a, b and their midpoint: the rows the facts read
NEAR_KEPT = 8  # searches for a pool kept: a step's encountered locus is the next step's current one


class OfflineDweller:
    name = "offline"

    def __init__(self, knowledge: Knowledge):
        self.kb = knowledge
        self._near: OrderedDict[bytes, list[int]] = OrderedDict()
        self._near_lock = threading.Lock()
        self._masker: Masker | None = None

    def near(self, v: np.ndarray) -> list[int]:
        """The POOL concepts nearest the unit vector V (the knowledge port's), kept a while:
        the next step asks again for its current locus, this step's encountered one."""
        key = np.asarray(v, dtype=np.float32).tobytes()
        with self._near_lock:
            found = self._near.get(key)
        if found is None:
            found = [i for i, _ in self.kb.nearest(v, POOL)]
            with self._near_lock:
                self._near[key] = found
                while len(self._near) > NEAR_KEPT:
                    self._near.popitem(last=False)
        return found

    def degenerate(self) -> frozenset[str]:
        """Corpus labels that are ancestors of more than 5% of the concepts: never themes."""
        return degenerate_themes(self.kb)

    def masker(self) -> Masker:
        if self._masker is None:
            self._masker = Masker([*self.kb.domains(), *DOMAIN_WORDS.values()])
        return self._masker

    async def dwell(self, request: DwellRequest) -> Residue:
        return self.reflect(
            request.current,
            request.encountered,
            request.session.attractor_embedding,
            request.recent_themes,
            request.resonance_proximity,
            request.active_resonances,
            request.recent_facets,
            request.two_steps_back,
        )

    def reflect(
        self,
        a: Locus,
        b: Locus,
        attractor: np.ndarray | None = None,
        recent_themes: Sequence[str] = (),
        resonance_proximity: float = 0.0,
        active: Sequence[str] = (),
        recent: Sequence[dict[str, str]] = (),
        back: Locus | None = None,
    ) -> Residue:
        """The residue of the step A -> B. The walk's history (history.py, variety.py): ACTIVE
        resonances, the RECENT steps' words by facet (oldest first) and the locus BACK where
        the step before set out from."""
        kb = self.kb
        degenerate = self.degenerate()
        va, vb = normalize(a.embedding), normalize(b.embedding)
        s_a, s_b, pool = pair_rows(kb, a.embedding, b.embedding, self.near)
        f = pair_facts(kb, a, b, s_a, s_b, degenerate, attractor, recent_themes, resonance_proximity, pool)
        recurring(f, active)
        if back is not None:
            two_steps_back(f, a, b, (back.concept, np.asarray(back.embedding, dtype=np.float32)))
        dist = 1.0 - f.sim
        # Themes: the shared broader concept, then corpus terms nearest the pair; never a
        # degenerate one.
        themes: list[str] = []
        shared = f.shared if f.kin else None
        for name in ([shared] if shared else []) + [lemma(kb.concept(i)) for i, _ in f.mids]:
            if name and name not in themes and name not in (a.concept, b.concept) and name.lower() not in degenerate:
                themes.append(name)
            if len(themes) == 5:
                break
        theme_vectors = [kb.vector(i) for i, _ in f.mids[:5]]
        themes_embedding = normalize(np.mean(theme_vectors, axis=0))

        crosses = bool(f.only_b)
        mid = midpoint(va, vb)
        pull = float(normalize(attractor) @ mid) if attractor is not None else 0.3
        interestingness = float(
            np.clip(
                0.35 * band_centrality(dist)
                + 0.25 * crosses
                + 0.2 * (1.0 - b.visit_count / (b.visit_count + 2))
                + 0.2 * np.clip((pull + 0.1) / 0.7, 0, 1),
                0,
                1,
            )
        )
        actionability = scoring.actionability(list(b.domains), pull) * (1.0 - 0.5 * b.abstraction_level)

        details = _details(kb, f, dist, shared, pull)
        facets = self.write(f, recent)
        return Residue(
            connection=facets["connection"],
            tension=facets["tension"],
            bridge=facets["bridge"],
            surprise=facets["surprise"],
            possibility=facets["possibility"],
            themes=themes,
            interestingness=interestingness,
            actionability=float(np.clip(actionability, 0, 1)),
            model_used=self.name,
            themes_embedding=themes_embedding,
            details=details,
        )

    def write(self, f: PairFacts, recent: Sequence[dict[str, str]] = ()) -> dict[str, str]:
        """Each facet's text: the most telling the facts support whose opening the wander's
        last steps (RECENT) have not worn out; no sentence said twice across the facets."""
        masker = self.masker()
        used = used_openings(recent, masker)
        out: dict[str, str] = {}
        said: set[str] = set()
        for facet in FACETS:
            options = WRITERS[facet](self.kb, f)
            fresh = [t for t in options if not said & set(SENTENCE.split(t))] or options
            out[facet] = choose(fresh, used.get(facet, Counter()), masker, shorten=True)
            said |= set(SENTENCE.split(out[facet]))
        return out


def _details(kb: Knowledge, f: PairFacts, dist: float, shared: str | None, pull: float) -> dict[str, Any]:
    """The figures behind each statement of the facets, so a reader can check them."""

    def label(i: int | None) -> str | None:
        return None if i is None else kb.concept(i).label

    return {
        "cosine_distance": round(dist, 4),
        "kinship": f.kinship,
        "shared_broader": f.shared,
        "shared_meaningful": shared,
        "shared_depths": list(f.depths) if f.depths else [None, None],
        "opposite": list(f.opposite) if f.opposite else None,
        "gloss_link": [f.gloss_link[0].concept.label, f.gloss_link[1].concept.label] if f.gloss_link else None,
        "relations": [list(r) for r in f.relations],
        "midpoint": [{"concept": kb.concept(i).label, "cos": round(s / 2, 4)} for i, s in f.mids[:5]],
        "middle": {"concept": kb.concept(f.middle).label, "cos": [round(x, 4) for x in f.middle_sims]},
        "leans": {"a": label(f.lean_a), "b": label(f.lean_b)},
        "filling": kb.concept(f.filling).label,
        "filling_cos": [round(x, 4) for x in f.filling_sims],
        "anchors": {"a": f.a.concept.key, "b": f.b.concept.key},
        "attractor_pull": round(pull, 4),
        "attractor_shift": None if f.attractor_shift is None else round(f.attractor_shift, 4),
    }


def pair_rows(
    kb: Knowledge, a: np.ndarray, b: np.ndarray, near: Callable[[np.ndarray], list[int]] | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """The similarity rows the facts are read from: to every concept (the shipped corpus's
    exact rows), or, for a knowledge base too large to pass over every step
    (ports.BandSampler), to a pool of the concepts nearest a, b and their midpoint (the
    ANN's, POOL each), all the facts look among (the midpoint's nearest, each side's near
    concepts); the concepts outside it are far from both and named by no fact. NEAR: the
    POOL concepts nearest a unit vector (the ANN's search when not given)."""
    if not isinstance(kb, BandSampler):
        return kb.unit_similarities(a), kb.unit_similarities(b), None
    va, vb = normalize(a), normalize(b)
    if near is None:
        near = lambda v: [i for i, _ in kb.nearest(v, POOL)]  # noqa: E731
    found = [i for v in (va, vb, midpoint(va, vb)) for i in near(v)]
    pool = np.unique(np.array(found, dtype=np.int64))
    rows = kb.vectors(pool)
    return rows @ va, rows @ vb, pool
