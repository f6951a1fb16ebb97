"""The offline dweller: a residue built from the knowledge base and the geometry alone.

No sentence is canned or drawn at random. Every facet is computed from the two loci's
embeddings and their places in the corpus (hypernym paths, domains, opposites, the
concepts nearest their midpoint and their offsets) and names the concepts it came from in
plain words; the figures behind each statement live in the residue's details, so a reader
can check it (DESIGN.md section 6). Corpus labels that are ancestors of more than 5% of
the concepts never become themes."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wander.domain import scoring
from wander.domain.geometry import band_centrality, midpoint, normalize, top_k
from wander.domain.models import Locus, Residue
from wander.domain.themes import degenerate_labels
from wander.engine.ports import DwellRequest, Knowledge, KnowledgeConcept


@dataclass
class _Anchor:
    """A locus seen through the corpus: its own entry, or the nearest one."""

    index: int
    concept: KnowledgeConcept
    own: bool  # True when the locus is this corpus concept itself


def _gloss(c: KnowledgeConcept, words: int = 14) -> str:
    parts = c.gloss.rstrip(". ").split()
    return " ".join(parts[:words]) + ("..." if len(parts) > words else "")


def _scaled(row: np.ndarray, norm: float) -> np.ndarray:
    return row / norm if norm > 0 else np.zeros_like(row)


def _words(domains: list[str]) -> str:
    names = [d.replace("_", " ") for d in domains] or ["no named domain"]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class OfflineDweller:
    name = "offline"

    def __init__(self, knowledge: Knowledge):
        self.kb = knowledge
        self._degenerate: frozenset[str] | None = None

    def degenerate(self) -> frozenset[str]:
        """Corpus labels that are ancestors of more than 5% of the concepts: never themes."""
        if self._degenerate is None:
            self._degenerate = degenerate_labels(self.kb.concept(i).path for i in range(len(self.kb)))
        return self._degenerate

    def _anchor(self, locus: Locus) -> _Anchor:
        if locus.kb_key:
            i = self.kb.index_of(locus.kb_key)
            if i is not None:
                return _Anchor(i, self.kb.concept(i), True)
        i, _ = self.kb.nearest(locus.embedding, 1)[0]
        return _Anchor(i, self.kb.concept(i), False)

    def _lineage(self, anchor: _Anchor) -> list[str]:
        return [anchor.concept.label.split(" (")[0], *anchor.concept.path]

    async def dwell(self, request: DwellRequest) -> Residue:
        return self.reflect(request.current, request.encountered, request.session.attractor_embedding)

    def reflect(self, a: Locus, b: Locus, attractor: np.ndarray | None = None) -> Residue:
        kb = self.kb
        va, vb = normalize(a.embedding), normalize(b.embedding)
        sim = float(va @ vb)
        dist = 1.0 - sim
        anchor_a, anchor_b = self._anchor(a), self._anchor(b)
        exclude = {anchor_a.index, anchor_b.index}

        # Connection: the deepest broader concept both lineages share (a degenerate one, that
        # nearly every concept shares, does not count), and the concept nearest the midpoint.
        degenerate = self.degenerate()
        line_a, line_b = self._lineage(anchor_a), self._lineage(anchor_b)
        shared = next((x for x in line_a[1:] if x in line_b[1:]), None)
        depth_a = line_a.index(shared) if shared else None
        depth_b = line_b.index(shared) if shared else None
        meaningful = shared if shared and shared.lower() not in degenerate else None
        mid = midpoint(va, vb)
        # The corpus scans for the midpoint and the two offsets, from the loci's own similarity
        # rows (similarity is linear in the vector; b's row is the next step's anyway).
        s_a, s_b = kb.unit_similarities(a.embedding), kb.unit_similarities(b.embedding)
        s_ab = _scaled(s_a - s_b, float(np.linalg.norm(va - vb)))
        mids = top_k(_scaled(s_a + s_b, float(np.linalg.norm(va + vb))), 12, exclude=list(exclude))
        m_i, m_sim = mids[0]
        m = kb.concept(m_i)
        via_a = "" if anchor_a.own else f" (read as '{anchor_a.concept.label}')"
        via_b = "" if anchor_b.own else f" (read as '{anchor_b.concept.label}')"
        if meaningful:
            connection = (
                f"'{a.concept}'{via_a} and '{b.concept}'{via_b} are both kinds of {meaningful}; "
                f"between them lies '{m.label}': {_gloss(m)}."
            )
        else:
            connection = (
                f"'{a.concept}'{via_a} and '{b.concept}'{via_b} share no particular lineage in the "
                f"corpus; what joins them is '{m.label}': {_gloss(m)}."
            )

        # Tension: what each has that the other lacks (offset directions), domains, opposites.
        ab = top_k(s_ab, 1, exclude=list(exclude))[0]
        ba = top_k(-s_ab, 1, exclude=list(exclude))[0]
        dom_a, dom_b = list(a.domains), list(b.domains)
        opposites = [o for o in anchor_a.concept.opposites if o in line_b] + [
            o for o in anchor_b.concept.opposites if o in line_a
        ]
        tension = (
            f"'{a.concept}' leans toward '{kb.concept(ab[0]).label}' where '{b.concept}' leans toward "
            f"'{kb.concept(ba[0]).label}'"
        )
        if set(dom_a) != set(dom_b):
            tension += f"; one is a matter of {_words(dom_a)}, the other of {_words(dom_b)}"
        if opposites:
            tension += f"; the corpus names '{opposites[0]}' as an opposite"
        tension += "."

        # Bridge: the domain crossing and the concept that translates between the two sides.
        crossing = [d for d in dom_b if d not in dom_a]
        translator = None
        for i, s in mids:
            c = kb.concept(i)
            if set(c.domains) & set(dom_a) and set(c.domains) & set(dom_b) and not crossing:
                translator = (i, s)
                break
            if crossing and set(c.domains) & (set(dom_a) | set(dom_b)):
                translator = (i, s)
                break
        t_i, t_s = translator or mids[0]
        t = kb.concept(t_i)
        if crossing:
            bridge = (
                f"Going from {_words(dom_a)} into {_words(crossing)}, '{t.label}' speaks to both sides: {_gloss(t)}."
            )
        else:
            other = next(((i, s) for i, s in mids if not set(kb.concept(i).domains) & set(dom_a)), None)
            if other:
                o = kb.concept(other[0])
                bridge = (
                    f"Both stay within {_words(dom_a)}; the nearest view from outside is '{o.label}' "
                    f"from {_words(list(o.domains))}."
                )
            else:
                bridge = (
                    f"Both stay within {_words(dom_a)}, and so does everything around their midpoint, "
                    f"led by '{t.label}'."
                )

        # Surprise: how far apart against how much they share, in words (the figures are in details).
        shared_depth = (depth_a + depth_b) / 2 if meaningful else None
        apart = "close in meaning" if dist < 0.45 else "a middle distance apart" if dist <= 0.6 else "far apart"
        if shared_depth is not None:
            verdict = (
                "more in common than their distance suggests"
                if (shared_depth <= 3 and dist > 0.5)
                else "less in common than their distance suggests"
                if (shared_depth >= 6 and dist < 0.45)
                else "about as much in common as their distance suggests"
            )
            surprise = (
                f"'{a.concept}' and '{b.concept}' are {apart}, and their lineages meet at {meaningful}: {verdict}."
            )
        else:
            surprise = (
                f"'{a.concept}' and '{b.concept}' are {apart} with no kinship in the corpus, yet "
                f"'{m.label}' sits between them: related by use rather than by kind."
            )

        # Possibility: a concept near the midpoint that neither locus is, balanced between them.
        def balance(i: int) -> float:
            v = kb.vector(i)
            return min(float(v @ va), float(v @ vb))

        filling_i = max((i for i, _ in mids if i != m_i), key=balance, default=m_i)
        f = kb.concept(filling_i)
        possibility = (
            f"'{f.label}' ({_gloss(f, 10)}) is neither '{a.concept}' nor '{b.concept}' but sits "
            f"between them: a candidate filling for the pair."
        )

        # Themes: corpus terms nearest the pair, plus the shared broader concept; never a
        # degenerate one.
        themes: list[str] = []
        for name in ([meaningful] if meaningful else []) + [kb.concept(i).label.split(" (")[0] for i, _ in mids]:
            if name and name not in themes and name not in (a.concept, b.concept) and name.lower() not in degenerate:
                themes.append(name)
            if len(themes) == 5:
                break
        theme_vectors = [kb.vector(i) for i, _ in mids[:5]]
        themes_embedding = normalize(np.mean(theme_vectors, axis=0))

        crosses = bool(crossing)
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

        details = {
            "cosine_distance": round(dist, 4),
            "shared_broader": shared,
            "shared_meaningful": meaningful,
            "shared_depths": [depth_a, depth_b],
            "midpoint": [{"concept": kb.concept(i).label, "cos": round(s, 4)} for i, s in mids[:5]],
            "offsets": {"a_minus_b": kb.concept(ab[0]).label, "b_minus_a": kb.concept(ba[0]).label},
            "filling": f.label,
            "translator": t.label,
            "offset_alignment": [round(ab[1], 4), round(ba[1], 4)],
            "filling_cos": [round(float(kb.vector(filling_i) @ va), 4), round(float(kb.vector(filling_i) @ vb), 4)],
            "anchors": {"a": anchor_a.concept.key, "b": anchor_b.concept.key},
            "attractor_pull": round(pull, 4),
        }
        return Residue(
            connection=connection,
            tension=tension,
            bridge=bridge,
            surprise=surprise,
            possibility=possibility,
            themes=themes,
            interestingness=interestingness,
            actionability=float(np.clip(actionability, 0, 1)),
            model_used=self.name,
            themes_embedding=themes_embedding,
            details=details,
        )
