"""The offline dweller: a residue built from the knowledge base and the geometry alone.

No sentence is canned or drawn at random. Every facet is computed from the two loci's
embeddings and their places in the corpus (hypernym paths, domains, opposites, the
concepts nearest their midpoint and their offsets) and names the concepts and the
figures it came from, so a reader can check it (DESIGN.md section 6)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wander.domain import scoring
from wander.domain.geometry import band_centrality, cosine, midpoint, normalize, offset
from wander.domain.models import Locus, Residue
from wander.engine.ports import DwellRequest, Knowledge, KnowledgeConcept


@dataclass
class _Anchor:
    """A locus seen through the corpus: its own entry, or the nearest one."""

    index: int
    concept: KnowledgeConcept
    own: bool  # True when the locus is this corpus concept itself


# Hypernyms so high in the tree that sharing them says little.
GENERIC = frozenset({"entity", "abstract entity", "physical entity", "abstraction", "object", "whole", "thing"})


def _short(text: str, words: int = 8) -> str:
    parts = text.split()
    return " ".join(parts[:words]) + ("..." if len(parts) > words else "")


class OfflineDweller:
    name = "offline"

    def __init__(self, knowledge: Knowledge):
        self.kb = knowledge

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

        # Connection: the deepest broader concept both lineages share, and the midpoint.
        line_a, line_b = self._lineage(anchor_a), self._lineage(anchor_b)
        shared = next((x for x in line_a[1:] if x in line_b[1:]), None)
        depth_a = line_a.index(shared) if shared else None
        depth_b = line_b.index(shared) if shared else None
        mid = midpoint(va, vb)
        mids = [(i, s) for i, s in kb.nearest(mid, 12, exclude=list(exclude))]
        m_i, m_sim = mids[0]
        m = kb.concept(m_i)
        via_a = "" if anchor_a.own else f" (read through its nearest corpus concept '{anchor_a.concept.label}')"
        via_b = "" if anchor_b.own else f" (read through its nearest corpus concept '{anchor_b.concept.label}')"
        if shared in GENERIC:
            connection = (
                f"'{a.concept}'{via_a} and '{b.concept}'{via_b} meet only at the very general '{shared}' "
                f"in the corpus ({depth_a} and {depth_b} levels up); what joins them is '{m.label}', the concept "
                f"nearest their midpoint (cos {cosine(kb.vector(m_i), va):.2f} to '{a.concept}', "
                f"{cosine(kb.vector(m_i), vb):.2f} to '{b.concept}')."
            )
        elif shared:
            connection = (
                f"'{a.concept}'{via_a} and '{b.concept}'{via_b} are both kinds of '{shared}' in the corpus "
                f"({depth_a} and {depth_b} levels up); the concept nearest their midpoint is '{m.label}' "
                f"(cos {cosine(kb.vector(m_i), va):.2f} to '{a.concept}', {cosine(kb.vector(m_i), vb):.2f} to '{b.concept}')."
            )
        else:
            connection = (
                f"'{a.concept}' and '{b.concept}' share no broader concept in the corpus; what joins them is "
                f"'{m.label}', the concept nearest their midpoint (cos {m_sim:.2f}), at cosine similarity {sim:.2f}."
            )

        # Tension: what each has that the other lacks (offset directions), domains, opposites.
        ab = kb.nearest(offset(va, vb), 1, exclude=list(exclude))[0]
        ba = kb.nearest(offset(vb, va), 1, exclude=list(exclude))[0]
        dom_a, dom_b = list(a.domains), list(b.domains)
        opposites = [o for o in anchor_a.concept.opposites if o in line_b] + [
            o for o in anchor_b.concept.opposites if o in line_a
        ]
        tension = (
            f"'{a.concept}' pulls toward '{kb.concept(ab[0]).label}' (offset alignment {ab[1]:.2f}) where "
            f"'{b.concept}' pulls toward '{kb.concept(ba[0]).label}' ({ba[1]:.2f})"
        )
        if set(dom_a) != set(dom_b):
            tension += f"; domains {', '.join(dom_a) or '-'} against {', '.join(dom_b) or '-'}"
        if opposites:
            tension += f"; the corpus lists '{opposites[0]}' as an opposite"
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
                f"Crossing from {', '.join(dom_a) or '-'} into {', '.join(crossing)}: '{t.label}' "
                f"({', '.join(t.domains)}) translates between them (cos {cosine(kb.vector(t_i), va):.2f} to "
                f"'{a.concept}', {cosine(kb.vector(t_i), vb):.2f} to '{b.concept}')."
            )
        else:
            other = next(((i, s) for i, s in mids if not set(kb.concept(i).domains) & set(dom_a)), None)
            if other:
                o = kb.concept(other[0])
                bridge = (
                    f"No domain crossing: both sit in {', '.join(dom_a) or '-'}; the nearest concept from another "
                    f"domain to their midpoint is '{o.label}' ({', '.join(o.domains)}, cos {other[1]:.2f})."
                )
            else:
                bridge = (
                    f"No domain crossing: both sit in {', '.join(dom_a) or '-'}, and so do the 12 concepts nearest "
                    f"their midpoint, led by '{t.label}' (cos {t_s:.2f})."
                )

        # Surprise: how far apart against how much they share, in numbers.
        shared_depth = (depth_a + depth_b) / 2 if shared else None
        expected = "close" if dist < 0.45 else "mid-band" if dist <= 0.6 else "far"
        if shared_depth is not None:
            verdict = "more in common than their distance suggests" if (shared_depth <= 3 and dist > 0.5) else (
                "less in common than their distance suggests" if (shared_depth >= 6 and dist < 0.45)
                else "about as much in common as their distance suggests")  # fmt: skip
            surprise = (
                f"Cosine distance {dist:.2f} ({expected}) while their lineages meet at '{shared}' "
                f"{shared_depth:.1f} levels up on average: {verdict}; midpoint concept '{m.label}' at cos {m_sim:.2f}."
            )
        else:
            surprise = (
                f"Cosine distance {dist:.2f} ({expected}) with no shared broader concept in the corpus, yet "
                f"'{m.label}' sits {m_sim:.2f} from their midpoint: related by use rather than by kind."
            )

        # Possibility: a concept near the midpoint that neither locus is, balanced between them.
        def balance(i: int) -> float:
            v = kb.vector(i)
            return min(float(v @ va), float(v @ vb))

        filling_i = max((i for i, _ in mids if i != m_i), key=balance, default=m_i)
        f = kb.concept(filling_i)
        possibility = (
            f"'{f.label}' ({_short(f.gloss)}) sits between them (cos {float(kb.vector(filling_i) @ va):.2f} to "
            f"'{a.concept}', {float(kb.vector(filling_i) @ vb):.2f} to '{b.concept}'): a candidate filling for "
            f"'{a.concept}' + '{b.concept}'."
        )

        # Themes: corpus terms nearest the pair, plus the shared broader concept.
        themes: list[str] = []
        for name in ([shared] if shared else []) + [kb.concept(i).label.split(" (")[0] for i, _ in mids]:
            if name and name not in themes and name not in (a.concept, b.concept):
                themes.append(name)
            if len(themes) == 5:
                break
        theme_vectors = [kb.vector(i) for i, _ in mids[:5]]
        themes_embedding = normalize(np.mean(theme_vectors, axis=0))

        crosses = bool(crossing)
        pull = float(normalize(attractor) @ mid) if attractor is not None else 0.3
        interestingness = float(
            np.clip(0.35 * band_centrality(dist) + 0.25 * crosses + 0.2 * (1.0 - b.visit_count / (b.visit_count + 2))
                    + 0.2 * np.clip((pull + 0.1) / 0.7, 0, 1), 0, 1)
        )  # fmt: skip
        actionability = scoring.actionability(list(b.domains), pull) * (1.0 - 0.5 * b.abstraction_level)

        details = {
            "cosine_distance": round(dist, 4),
            "shared_broader": shared,
            "shared_depths": [depth_a, depth_b],
            "midpoint": [{"concept": kb.concept(i).label, "cos": round(s, 4)} for i, s in mids[:5]],
            "offsets": {"a_minus_b": kb.concept(ab[0]).label, "b_minus_a": kb.concept(ba[0]).label},
            "filling": f.label,
            "translator": t.label,
            "anchors": {"a": anchor_a.concept.key, "b": anchor_b.concept.key},
            "attractor_pull": round(pull, 4),
        }
        return Residue(
            connection=connection, tension=tension, bridge=bridge, surprise=surprise, possibility=possibility,
            themes=themes, interestingness=interestingness, actionability=float(np.clip(actionability, 0, 1)),
            model_used=self.name, themes_embedding=themes_embedding, details=details,
        )  # fmt: skip
